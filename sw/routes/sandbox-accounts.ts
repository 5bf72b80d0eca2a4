/**
 * Sandbox routes for accounts (CONTRACT §3 and additions): test identity providers served by
 * the worker itself, an application's identity provider, approvals and settings, approved
 * publisher/child pairs, bans, connections, and a user's external identities.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { patchApplication } from '../../src/platform/accounts/partner-sdk-clients';
import { banUser, liftBan } from '../../src/platform/accounts/ban';
import { deauthorizeApplication } from '../../src/platform/accounts/deauthorize';
import { approveChildApplication, serializeApplicationLink } from '../../src/platform/accounts/child-tokens';
import { serializeApplication } from '../../src/platform/accounts/applications';
import { addConnection, CONNECTION_TYPES, serializeConnection } from '../../src/platform/accounts/connections';
import { ApiError } from '../../src/platform/core/errors';
import type { ApplicationRecord } from '../../src/store/records/core';
import { CONNECTION_NAME_MAX } from '../../src/platform/core/limits';
import { applicationFlagsSchema, clientSecretSchema } from '../../src/platform/core/schema-parts';
import type { FetchLike } from '../../src/platform/oauth2/oidc';
import {
  createSandboxIdentityProvider,
  getSandboxIdentityProvider,
  mintSandboxIdToken,
  sandboxDiscoveryDocument,
  sandboxPublicJwk,
  serializeSandboxIdentityProvider,
} from '../../src/platform/oauth2/oidc-sandbox';
import { restrictedCrossPlatform } from '../../src/platform/accounts/provisional-merge';
import {
  configureIdentityProvider,
  ISSUER_AUTH_TYPES,
  serializeIdentityProvider,
} from '../../src/platform/accounts/provisional-config';
import { noContent, readJson, schemas, validate, type AppContext, type AppEnv, publicOrigin } from '../http';
import { networkFetch } from './partner-sdk';

const text = (min: number, max: number) =>
  v.pipe(
    v.string('Must be a string.'),
    v.minLength(min, `Must be ${min} or more in length.`),
    v.maxLength(max, `Must be ${max} or fewer in length.`),
  );

const ProviderBody = v.object({
  audience: text(1, 256),
  issuer: v.optional(text(1, 2048)),
  alg: v.optional(v.picklist(['RS256', 'ES256'], 'Must be RS256 or ES256.')),
});
const IdTokenBody = v.object({
  sub: text(1, 255),
  expires_in: v.optional(
    v.pipe(
      v.number('Must be a number.'),
      v.integer('Must be an integer.'),
      v.minValue(-31_536_000),
      v.maxValue(31_536_000),
    ),
  ),
  audience: v.optional(text(1, 256)),
  preferred_username: v.optional(text(1, 64)),
  nonce: v.optional(text(1, 256)),
});
const ConfigBody = v.object({
  auth_type: v.optional(v.picklist(ISSUER_AUTH_TYPES as [string, ...string[]], 'Unknown external auth type.')),
  issuer: text(1, 2048),
  audience: text(1, 256),
  legacy: v.optional(v.boolean('Must be a boolean.')),
});
const PatchBody = v.object({
  approvals: v.optional(
    v.object({
      identify_premium: v.optional(v.boolean('Must be a boolean.')),
      sdk_terms_accepted: v.optional(v.boolean('Must be a boolean.')),
      privileged_intents_approved: v.optional(v.boolean('Must be a boolean.')),
    }),
  ),
  flags: v.optional(applicationFlagsSchema),
  channel_obfuscation: v.optional(v.boolean('Must be a boolean.')),
  redirect_uris: v.optional(v.array(text(1, 2048))),
  client_secret: v.optional(clientSecretSchema),
});
const BanBody = v.object({ permanent: v.optional(v.boolean('Must be a boolean.')) });
const ConnectionBody = v.object({
  type: v.picklist(CONNECTION_TYPES, 'Unknown connection type.'),
  name: text(1, CONNECTION_NAME_MAX),
  id: v.optional(text(1, 128)),
  verified: v.optional(v.boolean('Must be a boolean.')),
  visibility: v.optional(v.picklist([0, 1], 'Must be 0 or 1.')),
  legacy: v.optional(v.boolean('Must be a boolean.')),
});

const idParam = (c: AppContext, name: string): string =>
  validate(v.object({ [name]: schemas.snowflake }), c.req.param())[name] as string;
const origin = (c: AppContext): string => publicOrigin(c);

/** The account routes under `/sandbox`. */
export function sandboxAccountRoutes(fetch: FetchLike = networkFetch): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/identity-providers', async (c) => {
    const body = await readJson(c, ProviderBody);
    const record = await createSandboxIdentityProvider(c.get('ctx'), { ...body, origin: origin(c) });
    return c.json({ identity_provider: serializeSandboxIdentityProvider(record, origin(c)) }, 201);
  });
  r.get('/identity-providers/:id', async (c) => {
    const record = await getSandboxIdentityProvider(c.get('ctx'), idParam(c, 'id'));
    return c.json({ identity_provider: serializeSandboxIdentityProvider(record, origin(c)) });
  });
  r.get('/identity-providers/:id/.well-known/openid-configuration', async (c) => {
    const record = await getSandboxIdentityProvider(c.get('ctx'), idParam(c, 'id'));
    return c.json(sandboxDiscoveryDocument(record, origin(c)));
  });
  r.get('/identity-providers/:id/jwks', async (c) => {
    const record = await getSandboxIdentityProvider(c.get('ctx'), idParam(c, 'id'));
    return c.json({ keys: [sandboxPublicJwk(record)] });
  });
  r.post('/identity-providers/:id/id-tokens', async (c) => {
    const id = idParam(c, 'id');
    return c.json(await mintSandboxIdToken(c.get('ctx'), id, await readJson(c, IdTokenBody)), 201, {
      'Cache-Control': 'no-store',
    });
  });

  r.put('/applications/:application_id/identity-provider', async (c) => {
    const id = idParam(c, 'application_id');
    const body = await readJson(c, ConfigBody);
    const config = await configureIdentityProvider(
      c.get('ctx'),
      id,
      { ...body, auth_type: body.auth_type as (typeof ISSUER_AUTH_TYPES)[number] | undefined },
      fetch,
    );
    return c.json({ identity_provider: serializeIdentityProvider(config) });
  });
  const sandboxView = (application: ApplicationRecord) => ({
    application: {
      ...serializeApplication(application),
      approvals: application.approvals,
      channel_obfuscation: application.channel_obfuscation,
    },
  });
  // A page that seeded an application earlier asks whether the platform still has it (after a reset it does not).
  r.get('/applications/:application_id', async (c) => {
    const application = await c.get('ctx').db.get('applications', idParam(c, 'application_id'));
    if (!application) throw ApiError.of('UNKNOWN_APPLICATION');
    return c.json(sandboxView(application));
  });
  r.patch('/applications/:application_id', async (c) => {
    const id = idParam(c, 'application_id');
    return c.json(sandboxView(await patchApplication(c.get('ctx'), id, await readJson(c, PatchBody))));
  });
  r.put('/applications/:parent_id/children/:child_id', async (c) => {
    const parentId = idParam(c, 'parent_id');
    const link = await approveChildApplication(c.get('ctx'), parentId, idParam(c, 'child_id'));
    return c.json({ link: serializeApplicationLink(link) });
  });

  r.post('/users/:user_id/ban', async (c) => {
    const id = idParam(c, 'user_id');
    await banUser(c.get('ctx'), id, await readJson(c, BanBody));
    return noContent();
  });
  r.delete('/users/:user_id/ban', async (c) => {
    await liftBan(c.get('ctx'), idParam(c, 'user_id'));
    return noContent();
  });
  r.post('/users/:user_id/connections', async (c) => {
    const id = idParam(c, 'user_id');
    return c.json(
      { connection: serializeConnection(await addConnection(c.get('ctx'), id, await readJson(c, ConnectionBody))) },
      201,
    );
  });
  r.delete('/users/:user_id/authorizations/:application_id', async (c) => {
    const ids = validate(v.object({ user_id: schemas.snowflake, application_id: schemas.snowflake }), c.req.param());
    await deauthorizeApplication(c.get('ctx'), ids.user_id, ids.application_id);
    return noContent();
  });

  r.get('/users/:user_id/external-identities', async (c) => {
    const ctx = c.get('ctx');
    const id = idParam(c, 'user_id');
    if (!(await ctx.db.getKey('users', id))) throw ApiError.of('UNKNOWN_USER');
    const tx = ctx.db.read(['external_identities', 'bans']);
    const identities = await tx.store('external_identities').index('by_user').getAll(id);
    const restricted = await Promise.all(identities.map((i) => restrictedCrossPlatform(tx, i)));
    return c.json({
      external_identities: identities.map((i, n) => ({
        application_id: i.application_id,
        provider: i.provider,
        subject: i.subject,
        auth_type: i.auth_type,
        // The restriction lasts as long as the ban that made it.
        restricted_cross_platform: restricted[n],
        banned_user_id: i.banned_user_id,
      })),
    });
  });

  return r;
}
