/**
 * `POST /guilds`, removed for apps (spec): from 2025-07-15 (platform clock) it answers 403 with
 * code 20001 for every application caller. The public change log only says the endpoint "will
 * no longer be available" for applications; the platform still serves it to its own client, so
 * the sandbox answers as it does to callers an endpoint is not for (20001) rather than 410.
 * Before that date a bot could create a guild, which it then owned.
 */
import type { BotPrincipal, Principal } from '../oauth2/auth';
import { requireBot } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { inForce, RULE_DATES } from '../core/dates';
import { ApiError } from '../core/errors';
import { createGuild } from './fixtures';
import { serializeGuild } from './wire';

/**
 * Throws unless `principal` may create a guild now: 403 (20001) from 2025-07-15 for every
 * application caller; before, 403 (20002) for anything but a bot (OAuth2 tokens never had a
 * scope for it).
 */
export function requireGuildCreation(ctx: PlatformContext, principal: Principal): asserts principal is BotPrincipal {
  if (inForce(RULE_DATES.CREATE_GUILD_REMOVED, ctx.clock.now())) throw ApiError.of('GUILD_CREATION_REMOVED');
  requireBot(principal);
}

/**
 * Creates a guild owned by the calling bot (before 2025-07-15 only).
 * @example const guild = await createGuildAsApplication(ctx, bot, { name: 'Bot Guild' });
 */
export async function createGuildAsApplication(ctx: PlatformContext, principal: Principal, input: { name: string }) {
  requireGuildCreation(ctx, principal);
  const created = await createGuild(ctx, { name: input.name, owner_id: principal.user.id });
  return serializeGuild(created.guild, created.roles);
}
