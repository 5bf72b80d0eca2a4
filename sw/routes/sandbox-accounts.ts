/**
 * Sandbox routes for accounts (CONTRACT §3 and additions): test identity providers served by
 * the worker itself, an application's identity provider, approvals and settings, approved
 * publisher/child pairs, bans, connections, and a user's external identities.
 */
import { Hono } from 'hono';
import { patchApplication } from '../../src/platform/accounts/partner-sdk-clients';
import { banUser, liftBan } from '../../src/platform/accounts/ban';
import { deauthorizeApplication } from '../../src/platform/accounts/deauthorize';
import { approveChildApplication, serializeApplicationLink } from '../../src/platform/accounts/child-tokens';
import { serializeApplication } from '../../src/platform/accounts/applications';
import { addConnection, serializeConnection } from '../../src/platform/accounts/connections';
import { ApiError } from '../../src/platform/core/errors';
import { ensureEventWebhooks } from '../../src/platform/webhooks/config';
import type { ApplicationRecord } from '../../src/store/records/core';
import type { PlatformContext } from '../../src/platform/core/context';
import type { FetchLike } from '../../src/platform/oauth2/oidc';
import {
  createSandboxIdentityProvider,
  getSandboxIdentityProvider,
  mintSandboxIdToken,
  sandboxDiscoveryDocument,
  sandboxPublicJwk,
  serializeSandboxIdentityProvider,
} from '../../src/platform/oauth2/oidc-sandbox';
import { listExternalIdentities } from '../../src/platform/accounts/provisional-merge';
import {
  configureIdentityProvider,
  ISSUER_AUTH_TYPES,
  serializeIdentityProvider,
} from '../../src/platform/accounts/provisional-config';
import { noContent, publicOrigin, readJson, snowflakeParam, validate, type AppContext, type AppEnv } from '../http';
import { networkFetch } from './partner-sdk';
import {
  BanSchema,
  IdentityProviderConfigSchema,
  SandboxApplicationPatchSchema,
  SandboxConnectionSchema,
  SandboxIdTokenSchema,
  SandboxIdentityProviderSchema,
  UserApplicationPathSchema,
} from '../../src/platform/accounts/schemas';

const origin = (c: AppContext): string => publicOrigin(c);

/** The account routes under `/sandbox`. */
export function sandboxAccountRoutes(fetch: FetchLike = networkFetch): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/identity-providers', async (c) => {
    const body = await readJson(c, SandboxIdentityProviderSchema);
    const record = await createSandboxIdentityProvider(c.get('ctx'), { ...body, origin: origin(c) });
    return c.json({ identity_provider: serializeSandboxIdentityProvider(record, origin(c)) }, 201);
  });
  r.get('/identity-providers/:id', async (c) => {
    const record = await getSandboxIdentityProvider(c.get('ctx'), snowflakeParam(c, 'id'));
    return c.json({ identity_provider: serializeSandboxIdentityProvider(record, origin(c)) });
  });
  r.get('/identity-providers/:id/.well-known/openid-configuration', async (c) => {
    const record = await getSandboxIdentityProvider(c.get('ctx'), snowflakeParam(c, 'id'));
    return c.json(sandboxDiscoveryDocument(record, origin(c)));
  });
  r.get('/identity-providers/:id/jwks', async (c) => {
    const record = await getSandboxIdentityProvider(c.get('ctx'), snowflakeParam(c, 'id'));
    return c.json({ keys: [sandboxPublicJwk(record)] });
  });
  r.post('/identity-providers/:id/id-tokens', async (c) => {
    const id = snowflakeParam(c, 'id');
    return c.json(await mintSandboxIdToken(c.get('ctx'), id, await readJson(c, SandboxIdTokenSchema)), 201, {
      'Cache-Control': 'no-store',
    });
  });

  r.put('/applications/:application_id/identity-provider', async (c) => {
    const id = snowflakeParam(c, 'application_id');
    const body = await readJson(c, IdentityProviderConfigSchema);
    const config = await configureIdentityProvider(
      c.get('ctx'),
      id,
      { ...body, auth_type: body.auth_type as (typeof ISSUER_AUTH_TYPES)[number] | undefined },
      fetch,
    );
    return c.json({ identity_provider: serializeIdentityProvider(config) });
  });
  const sandboxView = async (ctx: PlatformContext, application: ApplicationRecord) => ({
    application: {
      ...serializeApplication(application, (await ensureEventWebhooks(ctx, application.id)).verify_key),
      approvals: application.approvals,
      channel_obfuscation: application.channel_obfuscation,
    },
  });
  // A page that seeded an application earlier asks whether the platform still has it (after a reset it does not).
  r.get('/applications/:application_id', async (c) => {
    const application = await c.get('ctx').db.get('applications', snowflakeParam(c, 'application_id'));
    if (!application) throw ApiError.of('UNKNOWN_APPLICATION');
    return c.json(await sandboxView(c.get('ctx'), application));
  });
  r.patch('/applications/:application_id', async (c) => {
    const id = snowflakeParam(c, 'application_id');
    return c.json(
      await sandboxView(
        c.get('ctx'),
        await patchApplication(c.get('ctx'), id, await readJson(c, SandboxApplicationPatchSchema)),
      ),
    );
  });
  r.put('/applications/:parent_id/children/:child_id', async (c) => {
    const parentId = snowflakeParam(c, 'parent_id');
    const link = await approveChildApplication(c.get('ctx'), parentId, snowflakeParam(c, 'child_id'));
    return c.json({ link: serializeApplicationLink(link) });
  });

  r.post('/users/:user_id/ban', async (c) => {
    const id = snowflakeParam(c, 'user_id');
    await banUser(c.get('ctx'), id, await readJson(c, BanSchema));
    return noContent();
  });
  r.delete('/users/:user_id/ban', async (c) => {
    await liftBan(c.get('ctx'), snowflakeParam(c, 'user_id'));
    return noContent();
  });
  r.post('/users/:user_id/connections', async (c) => {
    const id = snowflakeParam(c, 'user_id');
    return c.json(
      {
        connection: serializeConnection(
          await addConnection(c.get('ctx'), id, await readJson(c, SandboxConnectionSchema)),
        ),
      },
      201,
    );
  });
  r.delete('/users/:user_id/authorizations/:application_id', async (c) => {
    const ids = validate(UserApplicationPathSchema, c.req.param());
    await deauthorizeApplication(c.get('ctx'), ids.user_id, ids.application_id);
    return noContent();
  });

  r.get('/users/:user_id/external-identities', async (c) => {
    return c.json({ external_identities: await listExternalIdentities(c.get('ctx'), snowflakeParam(c, 'user_id')) });
  });

  return r;
}
