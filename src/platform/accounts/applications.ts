/**
 * Applications on the wire, with the spec's field rules: `flags` is a 32-bit integer in which
 * only bits up to 2^30 are reliable; `flags_new` holds the full set as a decimal string.
 */
import type { ApplicationRecord, UserRecord } from '../../store/records/core';
import { serializeUser } from './users';

/** Bits 0-30: what the 32-bit `flags` field can carry reliably. */
const RELIABLE_FLAG_BITS = (1n << 31n) - 1n;

/** The application object. */
export function serializeApplication(app: ApplicationRecord, bot?: UserRecord) {
  const all = BigInt(app.flags);
  return {
    id: app.id,
    name: app.name,
    description: app.description,
    icon: null,
    bot_public: app.bot_public,
    bot_require_code_grant: app.bot_require_code_grant,
    owner: undefined,
    owner_id: app.owner_id,
    flags: Number(all & RELIABLE_FLAG_BITS),
    flags_new: all.toString(),
    redirect_uris: app.redirect_uris,
    integration_types_config: app.integration_types_config,
    approximate_user_install_count: app.approximate_user_install_count,
    ...(bot ? { bot: serializeUser(bot) } : {}),
  };
}
