/**
 * The partner SDK's account endpoints (paths of the platform's public docs), mounted at
 * `{base_url}/partner-sdk`. Their callers are a client, by `client_id` (and `client_secret` for
 * a server) in the JSON body, or the application's bot (as the access table says).
 *
 * - `POST /token`: a provisional account's token from an external identity.
 * - `POST /token/bot`: the same, server-side, for a game's own account id (bot token).
 * - `POST /provisional-accounts/unmerge` and `/provisional-accounts/unmerge/bot`.
 * - `POST /child-token`: publisher-level account linking.
 */
import { Hono } from 'hono';
import { authenticatePartnerClient } from '../../src/platform/accounts/partner-sdk-clients';
import { exchangeChildToken } from '../../src/platform/accounts/child-tokens';
import type { FetchLike } from '../../src/platform/oauth2/oidc';
import { botIdentity, issueProvisionalToken, resolveExternalIdentity } from '../../src/platform/accounts/provisional';
import { unmergeProvisionalAccount } from '../../src/platform/accounts/provisional-merge';
import { botOf, noContent, publicOrigin, readJson, type AppEnv } from '../http';
import {
  BotProvisionalTokenSchema,
  BotUnmergeSchema,
  ChildTokenSchema,
  ExternalAuthTokenSchema,
} from '../../src/platform/accounts/schemas';

/**
 * The network, for OpenID Connect discovery and key sets: the worker's real fetch, looked up
 * at call time so tests can stand in for it.
 */
export const networkFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/** RFC 6749 §5.1: token answers must not be cached. */
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** The `/partner-sdk` routes. */
export function partnerSdkRoutes(fetch: FetchLike = networkFetch): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/token', async (c) => {
    const ctx = c.get('ctx');
    const body = await readJson(c, ExternalAuthTokenSchema);
    const client = await authenticatePartnerClient(ctx, body.client_id, body.client_secret);
    const identity = await resolveExternalIdentity(
      ctx,
      client.application,
      body.external_auth_type,
      body.external_auth_token,
      fetch,
    );
    const origin =
      identity.provider === 'bot'
        ? 'provisional_bot'
        : body.external_auth_type === 'OIDC'
          ? 'provisional_oidc'
          : 'provisional_external';
    const tokens = await issueProvisionalToken(ctx, client.application, identity, {
      origin,
      // Only OIDC exchanged by a server gets a refresh token (whose grant is deprecated).
      refreshable: origin === 'provisional_oidc' && client.confidential,
      publicClient: !client.confidential,
      issuer: publicOrigin(c),
    });
    return c.json(tokens, 200, NO_STORE);
  });

  r.post('/token/bot', async (c) => {
    const bot = botOf(c);
    const body = await readJson(c, BotProvisionalTokenSchema);
    const identity = botIdentity(body.external_user_id, body.preferred_global_name);
    const tokens = await issueProvisionalToken(c.get('ctx'), bot.application, identity, {
      origin: 'provisional_bot',
      refreshable: false,
      publicClient: false,
      issuer: publicOrigin(c),
    });
    return c.json(tokens, 200, NO_STORE);
  });

  r.post('/provisional-accounts/unmerge', async (c) => {
    const ctx = c.get('ctx');
    const body = await readJson(c, ExternalAuthTokenSchema);
    const client = await authenticatePartnerClient(ctx, body.client_id, body.client_secret);
    const identity = await resolveExternalIdentity(
      ctx,
      client.application,
      body.external_auth_type,
      body.external_auth_token,
      fetch,
    );
    await unmergeProvisionalAccount(ctx, client.application.id, identity);
    return noContent();
  });

  r.post('/provisional-accounts/unmerge/bot', async (c) => {
    const bot = botOf(c);
    const body = await readJson(c, BotUnmergeSchema);
    await unmergeProvisionalAccount(c.get('ctx'), bot.application.id, botIdentity(body.external_user_id));
    return noContent();
  });

  r.post('/child-token', async (c) => {
    const body = await readJson(c, ChildTokenSchema);
    return c.json(await exchangeChildToken(c.get('ctx'), body), 200, NO_STORE);
  });

  return r;
}
