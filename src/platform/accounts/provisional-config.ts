/**
 * An application's identity providers (the developer portal's "External Auth" page): one per
 * external auth type, each an issuer and the audience its tokens must carry. Saving or
 * editing a configuration applies the stricter issuer checks and blocks redirects while the
 * discovery document is fetched (spec, Authentication rule 4); a configuration stored before
 * those checks existed (`strict: false`) keeps the lax ones until it is edited.
 */
import { write } from '../../store/write';
import type { IdentityProviderConfigRecord } from '../../store/schema';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { fetchDiscovery, fetchKeySet, type FetchLike, type PublicJwk } from '../oauth2/oidc';
import { issuerUrlProblem } from '../oauth2/oidc-issuer';
import { findSandboxIdentityProvider, sandboxPublicJwk } from '../oauth2/oidc-sandbox';

/** The external auth types of the platform's public docs. */
export const EXTERNAL_AUTH_TYPES = [
  'OIDC',
  'STEAM_SESSION_TICKET',
  'EPIC_ONLINE_SERVICES_ACCESS_TOKEN',
  'EPIC_ONLINE_SERVICES_ID_TOKEN',
  'UNITY_SERVICES_ID_TOKEN',
  'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
] as const;

/** An external auth type. */
export type ExternalAuthType = (typeof EXTERNAL_AUTH_TYPES)[number];

/**
 * The types verified as signed ID tokens against a configured issuer. Steam, Epic and Unity
 * cannot be reached offline, so the sandbox models each as an issuer of signed tokens (a
 * sandbox identity provider stands in for the real service); the bot-issued type needs no
 * configuration.
 */
export const ISSUER_AUTH_TYPES: readonly ExternalAuthType[] = EXTERNAL_AUTH_TYPES.filter(
  (t) => t !== 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
);

/** What `PUT /sandbox/applications/{id}/identity-provider` takes. */
export interface IdentityProviderInput {
  auth_type?: ExternalAuthType;
  issuer: string;
  audience: string;
  /** Store a new configuration as made before the stricter checks (lax checks, redirects followed); refused for an edit. */
  legacy?: boolean;
}

const legacyEditRefused = () =>
  ApiError.invalidForm({
    legacy:
      'Only a new configuration can model one saved before the stricter issuer checks: editing a configuration applies them.',
  });

/**
 * Saves the application's provider for one auth type. A sandbox provider's issuer is trusted
 * by identity; any other issuer must pass the strict URL checks and answer its discovery
 * document without a redirect. `legacy` is for a new configuration only: an edit is always
 * strict. Every refusal is a 400 naming `issuer` (or `auth_type`, `legacy`).
 * @example await configureIdentityProvider(ctx, appId, { issuer: 'https://login.game-studio.com', audience: 'game' }, fetch);
 */
export async function configureIdentityProvider(
  ctx: PlatformContext,
  applicationId: string,
  input: IdentityProviderInput,
  fetch: FetchLike,
): Promise<IdentityProviderConfigRecord> {
  const authType = input.auth_type ?? 'OIDC';
  if (!ISSUER_AUTH_TYPES.includes(authType))
    throw ApiError.invalidForm({ auth_type: 'This external auth type needs no identity provider.' });
  if (!(await ctx.db.getKey('applications', applicationId))) throw ApiError.of('UNKNOWN_APPLICATION');
  const legacy = input.legacy === true;
  // Existing integrations are unaffected only until their configuration is edited: an edit is always strict.
  if (legacy && (await ctx.db.getKey('identity_provider_configs', [applicationId, authType])))
    throw legacyEditRefused();
  const trusted = await findSandboxIdentityProvider(ctx, input.issuer);
  if (!trusted) {
    const problem = issuerUrlProblem(input.issuer, legacy ? 'legacy' : 'strict');
    if (problem) throw ApiError.invalidForm({ issuer: problem });
    if (!legacy) {
      try {
        await fetchDiscovery(input.issuer, { mode: 'strict', fetch });
      } catch (error) {
        if (error instanceof ApiError) throw ApiError.invalidForm({ issuer: error.message });
        throw error;
      }
    }
  }
  const record: IdentityProviderConfigRecord = {
    application_id: applicationId,
    auth_type: authType,
    issuer: input.issuer,
    audience: input.audience,
    strict: !legacy,
    updated_at: ctx.clock.now(),
  };
  await write(ctx, ['applications', 'identity_provider_configs'], async (tx) => {
    if (!(await tx.store('applications').getKey(applicationId))) throw ApiError.of('UNKNOWN_APPLICATION');
    if (legacy && (await tx.store('identity_provider_configs').getKey([applicationId, authType])))
      throw legacyEditRefused();
    await tx.store('identity_provider_configs').put(record);
  });
  return record;
}

/** The application's provider for `authType`, or 530000 when it has none. */
export async function requireIdentityProvider(
  ctx: PlatformContext,
  applicationId: string,
  authType: ExternalAuthType,
): Promise<IdentityProviderConfigRecord> {
  const config = await ctx.db.get('identity_provider_configs', [applicationId, authType]);
  if (!config) throw ApiError.of('PROVISIONAL_NOT_CONFIGURED');
  return config;
}

/**
 * The signing keys of a configured issuer: a sandbox provider's stored key, or the issuer's
 * key set fetched with the checks its configuration was saved under.
 */
export async function resolveIssuerKeys(
  ctx: PlatformContext,
  config: IdentityProviderConfigRecord,
  fetch: FetchLike,
): Promise<PublicJwk[]> {
  const trusted = await findSandboxIdentityProvider(ctx, config.issuer);
  if (trusted) return [sandboxPublicJwk(trusted)];
  return fetchKeySet(config.issuer, { mode: config.strict ? 'strict' : 'legacy', fetch });
}

/** The configuration as the sandbox answers it. */
export function serializeIdentityProvider(config: IdentityProviderConfigRecord) {
  return {
    auth_type: config.auth_type,
    issuer: config.issuer,
    audience: config.audience,
    strict: config.strict,
    updated_at: new Date(config.updated_at).toISOString(),
  };
}
