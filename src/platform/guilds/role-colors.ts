/**
 * A role's colours as the spec states them: `colors` is the gradient structure; the older
 * `color` is deprecated but still returned and honored, so a request that sets only `color`
 * changes the role's primary colour, and the answer carries both. Guild feature
 * `ENHANCED_ROLE_COLORS` tells whether a guild can set gradient colours: without it a
 * `secondary_color` or `tertiary_color` is refused (clearing them to null is always allowed).
 * A `tertiary_color` makes the role holographic, which the public API enforces with fixed
 * values.
 */
import { ApiError } from '../core/errors';
import type { RoleColors } from '../../store/records/core';

/** The guild feature that lets a guild set gradient role colours. */
export const ENHANCED_ROLE_COLORS = 'ENHANCED_ROLE_COLORS';

/** The colours every holographic role has (the public API enforces them when `tertiary_color` is sent). */
export const HOLOGRAPHIC_ROLE_COLORS: Readonly<RoleColors> = Object.freeze({
  primary_color: 11127295,
  secondary_color: 16759788,
  tertiary_color: 16761760,
});

/** What a request may say about a role's colours. */
export interface RoleColorInput {
  /** Deprecated: the role's colour as one RGB integer (null means none, 0). */
  color?: number | null;
  /** The gradient structure; any field left out keeps its value. */
  colors?: Partial<RoleColors>;
}

/**
 * The role's colours after a request: `colors.primary_color` when sent, else the deprecated
 * `color`, else the current one; a gradient only in a guild with ENHANCED_ROLE_COLORS
 * (otherwise 400 / 50035 naming the field, and nothing is changed).
 * @example
 * resolveRoleColors(role.colors, { color: 0x123456 }, guild.features)
 * // { primary_color: 0x123456, secondary_color: null, tertiary_color: null }
 */
export function resolveRoleColors(current: RoleColors, input: RoleColorInput, features: readonly string[]): RoleColors {
  const sent = input.colors ?? {};
  if (!features.includes(ENHANCED_ROLE_COLORS)) {
    const refused: Record<string, string> = {};
    for (const field of ['secondary_color', 'tertiary_color'] as const) {
      if (sent[field] != null)
        refused[`colors.${field}`] = `Gradient role colors need the guild feature ${ENHANCED_ROLE_COLORS}.`;
    }
    if (Object.keys(refused).length > 0) throw ApiError.invalidForm(refused);
  }
  if (sent.tertiary_color != null) return { ...HOLOGRAPHIC_ROLE_COLORS };
  const deprecated = input.color === undefined ? undefined : (input.color ?? 0);
  return {
    primary_color: sent.primary_color ?? deprecated ?? current.primary_color,
    secondary_color: sent.secondary_color === undefined ? current.secondary_color : sent.secondary_color,
    tertiary_color: sent.tertiary_color === undefined ? current.tertiary_color : sent.tertiary_color,
  };
}

/** A new role's colours: nothing set is 0 with no gradient. */
export const NO_ROLE_COLORS: Readonly<RoleColors> = Object.freeze({
  primary_color: 0,
  secondary_color: null,
  tertiary_color: null,
});
