/**
 * The spec's dated permission split (from 2026-02-23, by the platform clock): bots need
 * CREATE_GUILD_EXPRESSIONS to create emoji and stickers and CREATE_EVENTS to create scheduled
 * events. Before that date MANAGE_GUILD_EXPRESSIONS / MANAGE_EVENTS sufficed (the create bits
 * already existed and were accepted too).
 */
import { inForce, RULE_DATES } from '../core/dates';
import { ApiError } from '../core/errors';
import { PERMISSIONS, hasPermission } from '../core/permissions';

/** What is being created: guild expressions (emoji, stickers) or scheduled events. */
export type CreatedKind = 'expressions' | 'events';

const BITS: Record<CreatedKind, { create: bigint; manage: bigint }> = {
  expressions: { create: PERMISSIONS.CREATE_GUILD_EXPRESSIONS, manage: PERMISSIONS.MANAGE_GUILD_EXPRESSIONS },
  events: { create: PERMISSIONS.CREATE_EVENTS, manage: PERMISSIONS.MANAGE_EVENTS },
};

/**
 * Throws 403 (50013) unless `bits` allow creating `kind` at `now`.
 * @example requireCreatePermission(guildPermissions(view), 'expressions', ctx.clock.now());
 */
export function requireCreatePermission(bits: bigint, kind: CreatedKind, now: number): void {
  const { create, manage } = BITS[kind];
  const allowed =
    hasPermission(bits, create) || (!inForce(RULE_DATES.PERMISSION_SPLIT, now) && hasPermission(bits, manage));
  if (!allowed) throw ApiError.of('MISSING_PERMISSIONS');
}
