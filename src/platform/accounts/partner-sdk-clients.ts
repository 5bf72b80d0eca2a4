/**
 * Client authentication of the partner SDK's JSON endpoints (`/partner-sdk/token`, the unmerge
 * endpoint): `client_id` in the body, with `client_secret` for a server (a confidential
 * client) or without it for a game that has no backend (a public client). And the approvals
 * and settings the platform grants an application, which the sandbox sets.
 */
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { constantTimeEqual } from '../oauth2/client-auth';
import type { ApplicationRecord } from '../../store/records/core';
import { hashSecret } from '../core/secrets';

/** An identified partner SDK client. */
export interface PartnerClient {
  application: ApplicationRecord;
  /** True when it proved its client secret. */
  confidential: boolean;
}

/**
 * Identifies the application and checks its secret when one was sent: an unknown application
 * is 404 (10002), a wrong secret 401 (530007).
 * @example const client = await authenticatePartnerClient(ctx, body.client_id, body.client_secret);
 */
export async function authenticatePartnerClient(
  ctx: PlatformContext,
  clientId: string,
  clientSecret: string | undefined,
): Promise<PartnerClient> {
  const application = await ctx.db.get('applications', clientId);
  const secretHash = clientSecret ? await hashSecret(clientSecret) : null;
  if (!application) throw ApiError.of('UNKNOWN_APPLICATION');
  if (secretHash === null) return { application, confidential: false };
  if (!constantTimeEqual(secretHash, application.client_secret_hash)) throw ApiError.of('INVALID_CLIENT_SECRET');
  return { application, confidential: true };
}

/** What the sandbox may change on an application (`PATCH /sandbox/applications/{id}`). */
export interface ApplicationPatch {
  approvals?: Partial<ApplicationRecord['approvals']>;
  flags?: number | string;
  channel_obfuscation?: boolean;
  redirect_uris?: string[];
  /** A new client secret (the developer changed their `.env`); stored as its hash. */
  client_secret?: string;
}

/**
 * Applies the platform's approvals and settings to an application, as its developer portal
 * and the platform's reviewers would: `identify.premium` for approved partners, the SDK terms
 * (which make `relationships.read` available to activities), privileged intents, flags, the
 * bot's channel obfuscation opt-in, the registered redirect URIs and the client secret.
 * @example await patchApplication(ctx, appId, { approvals: { identify_premium: true } });
 */
export async function patchApplication(
  ctx: PlatformContext,
  applicationId: string,
  patch: ApplicationPatch,
): Promise<ApplicationRecord> {
  // Hashed before the transaction: awaiting anything else inside it would let it commit early.
  const secretHash = patch.client_secret === undefined ? undefined : await hashSecret(patch.client_secret);
  return write(ctx, ['applications'], async (tx) => {
    const current = await tx.store('applications').get(applicationId);
    if (!current) throw ApiError.of('UNKNOWN_APPLICATION');
    const next: ApplicationRecord = {
      ...current,
      approvals: { ...current.approvals, ...patch.approvals },
      flags: patch.flags === undefined ? current.flags : String(BigInt(patch.flags)),
      channel_obfuscation: patch.channel_obfuscation ?? current.channel_obfuscation,
      redirect_uris: patch.redirect_uris ?? current.redirect_uris,
      client_secret_hash: secretHash ?? current.client_secret_hash,
    };
    await tx.store('applications').put(next);
    return next;
  });
}
