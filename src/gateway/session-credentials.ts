/**
 * The credential a gateway session stands on. A session remembers the hash of the token it
 * was identified with (never the token). A write that deletes tokens (a ban, a revocation, a
 * refresh that rotates the pair, an unmerge...) logs SESSIONS_INVALIDATED for the user; the
 * gateway then ends each of that user's sessions whose own credential is gone, with 4004, and
 * such a session can no longer be resumed. Asking the store, rather than trusting a list in
 * the event, keeps token hashes out of the log and is right whatever deleted the token.
 */
import type { Principal } from '../platform/oauth2/auth';
import { SESSIONS_INVALIDATED, type SessionsInvalidatedData } from '../platform/oauth2/tokens';
import type { EventRecord, GatewaySessionRecord, PlatformStorage } from '../store/schema';

/** The hash the store keys the principal's credential by: its access token's, or its bot token's. */
export function credentialHash(principal: Principal): string {
  return principal.kind === 'bearer' ? principal.token.hash : principal.application.bot_token_hash;
}

/** True for the log entries the gateway acts on itself and never dispatches. */
export function isInternalEvent(event: EventRecord): boolean {
  return event.type === SESSIONS_INVALIDATED;
}

/** True when `event` says some credentials of the session's user were deleted. */
export function questionsCredential(event: EventRecord, record: GatewaySessionRecord): boolean {
  return (
    event.type === SESSIONS_INVALIDATED && (event.data as SessionsInvalidatedData | null)?.user_id === record.user_id
  );
}

/**
 * True while the credential the session was identified with still exists. Sessions stored
 * before the hash was recorded cannot be checked and count as standing.
 * @example if (!(await credentialExists(ctx.db, session.record))) connection.closeWith(4004);
 */
export async function credentialExists(db: PlatformStorage, record: GatewaySessionRecord): Promise<boolean> {
  const hash = record.token_hash;
  if (hash === undefined) return true;
  if (record.kind === 'bot') return (await db.getKeyFromIndex('applications', 'by_bot_token', hash)) !== undefined;
  return (await db.getKey('tokens', hash)) !== undefined;
}
