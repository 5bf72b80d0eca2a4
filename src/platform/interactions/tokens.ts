/**
 * Interaction tokens: the credential of the callback route and the interaction webhooks. A new
 * token is answered once (to whoever receives the interaction) and never stored: the
 * interaction keeps its SHA-256. The initial response must come within 3 s of the interaction
 * (10062 after, by the platform clock); the token then works for 15 minutes (10015 after).
 */
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { InteractionRecord } from '../../store/records/interactions';
import { INTERACTION_RESPONSE_WINDOW_MS, INTERACTION_TOKEN_TTL_MS } from '../core/limits';
import { generateSecret, hashSecret } from '../core/secrets';

/** A new token and its hash (hashed before any transaction opens). */
export async function newInteractionToken(): Promise<{ token: string; hash: string }> {
  const token = `interaction.${generateSecret(48)}`;
  return { token, hash: await hashSecret(token) };
}

/** True while the initial response may still be sent. */
export function canStillRespond(record: InteractionRecord, now: number): boolean {
  return now < record.created_at + INTERACTION_RESPONSE_WINDOW_MS;
}

/** True while the token works for the webhook routes: answered, and within 15 minutes. */
export function tokenAlive(record: InteractionRecord, now: number): boolean {
  return record.response !== null && now < record.created_at + INTERACTION_TOKEN_TTL_MS;
}

/**
 * The interaction a callback names by id and token: an unknown id, a token that is not its
 * own, or a callback after the 3 s window is 404 10062 Unknown interaction.
 */
export async function interactionForCallback(
  ctx: PlatformContext,
  id: string,
  token: string,
): Promise<InteractionRecord> {
  const hash = await hashSecret(token);
  const record = await ctx.db.get('interactions', id);
  if (!record || record.token_hash !== hash) throw ApiError.of('UNKNOWN_INTERACTION');
  return record;
}

/**
 * The interaction behind `/webhooks/{application.id}/{interaction.token}`: unknown tokens,
 * another application's, one never answered, or one older than 15 minutes are 404 10015.
 */
export async function interactionForWebhook(
  ctx: PlatformContext,
  applicationId: string,
  token: string,
): Promise<InteractionRecord> {
  const record = await ctx.db.getFromIndex('interactions', 'by_token', await hashSecret(token));
  if (!record || record.application_id !== applicationId || !tokenAlive(record, ctx.clock.now()))
    throw ApiError.of('UNKNOWN_WEBHOOK');
  return record;
}
