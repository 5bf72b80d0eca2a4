/**
 * Applications on the wire, with the spec's field rules: `flags` is a 32-bit integer in which
 * only bits up to 2^30 are reliable; `flags_new` holds the full set as a decimal string.
 */
import type { ApplicationResponse } from 'discord-api-spec';
import type { ApplicationRecord, UserRecord } from '../../store/records/core';
import { serializeUser } from './users';

/** Bits 0-30: what the 32-bit `flags` field can carry reliably. */
const RELIABLE_FLAG_BITS = (1n << 31n) - 1n;

/** The application's flags as the wire carries them: the reliable 32 bits, and the full set as a string. */
export function wireApplicationFlags(app: ApplicationRecord): { flags: number; flags_new: string } {
  const all = BigInt(app.flags);
  return { flags: Number(all & RELIABLE_FLAG_BITS), flags_new: all.toString() };
}

/**
 * The application object: the official description's `ApplicationResponse`, with the fields the
 * platform adds for its owner (`owner_id`, `redirect_uris`, the install count). Its install
 * params hold the scopes the application stored, which are the description's install scopes.
 */
export type WireApplication = Omit<ApplicationResponse, 'integration_types_config'> &
  Pick<ApplicationRecord, 'owner_id' | 'redirect_uris' | 'integration_types_config' | 'approximate_user_install_count'>;

/**
 * The application object. `verifyKey` is the application's Ed25519 public key (hex), the one
 * its interactions and event webhooks are signed for (`ensureEventWebhooks`).
 * @example serializeApplication(app, (await ensureEventWebhooks(ctx, app.id)).verify_key, bot)
 */
export function serializeApplication(app: ApplicationRecord, verifyKey: string, bot?: UserRecord): WireApplication {
  return {
    id: app.id,
    name: app.name,
    description: app.description,
    icon: null,
    // The platform's application types name only old game-store kinds: an application has none.
    type: null,
    bot_public: app.bot_public,
    bot_require_code_grant: app.bot_require_code_grant,
    owner_id: app.owner_id,
    ...wireApplicationFlags(app),
    verify_key: verifyKey,
    redirect_uris: app.redirect_uris,
    integration_types_config: app.integration_types_config,
    approximate_user_install_count: app.approximate_user_install_count,
    ...(bot ? { bot: serializeUser(bot) } : {}),
  };
}
