/**
 * The RPC host's way to the platform: plain HTTP to the service worker through an injected
 * `fetch`, so the host runs unchanged against the real worker (in a page) and against the
 * HTTP app directly (in a unit test). Platform errors come back as the RPC's ApiErrors.
 */
import { ApiError, type ApiErrorName, type FieldErrors } from '../platform/core/errors';
import { redactSecrets } from '../platform/core/secrets';
import type { CommandMap, RichPresenceActivity, RpcParticipant } from './protocol';

/** Sends a request to the platform (the service worker, or the HTTP app in tests). */
export type PlatformFetch = (request: Request) => Promise<Response>;

/** What GET /oauth2/authorize tells the consent dialog. */
export interface AuthorizeDescription {
  application: { id: string; name: string; icon: string | null; description: string };
  scopes: string[];
  state: string | null;
  authorized?: boolean;
}

/** The authorization request of an AUTHORIZE, as the authorization endpoint takes it. */
export interface AuthorizeQuery {
  client_id: string;
  scope: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  prompt?: string;
}

/**
 * The platform answered with an error: which RPC error it is for the activity. A 401 is a bad
 * token; 403 missing access; unknown guild, channel or user their RPC codes; an invalid form
 * body names its fields; anything else (a 5xx is the platform's bug) is an unknown error.
 */
export function rpcErrorFromResponse(status: number, body: unknown): ApiError {
  const code =
    typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'number'
      ? (body as { code: number }).code
      : -1;
  const named = (name: ApiErrorName, detail?: string) =>
    ApiError.of(name, detail ? `${ApiError.of(name).message}: ${detail}` : undefined);
  // The host's own routes answer some refusals in the RPC's terms already (a quest not found is 4002).
  if (code === 1000 || (code >= 4000 && code <= 5999))
    return new ApiError(status, code, String((body as { message?: unknown }).message ?? ''));
  if (status === 401) return named('RPC_INVALID_TOKEN');
  if (code === 10004) return named('RPC_INVALID_GUILD', 'Unknown Guild');
  if (code === 10003) return named('RPC_INVALID_CHANNEL', 'Unknown Channel');
  if (code === 10013) return named('RPC_INVALID_USER', 'Unknown User');
  if (status === 403) return named('RPC_INVALID_PERMISSIONS', (body as { message?: string }).message);
  if (status === 400 && code === 50035)
    return named('RPC_INVALID_PAYLOAD', describeFieldErrors((body as { errors?: FieldErrors }).errors));
  if (status >= 400 && status < 500) return named('RPC_INVALID_PAYLOAD', (body as { message?: string })?.message);
  return named('RPC_UNKNOWN_ERROR', `the platform answered ${status}`);
}

/**
 * What the activity is told for anything a command threw: RPC errors as they are, other
 * platform errors mapped by {@link rpcErrorFromResponse}; anything else is a bug, logged with
 * secrets redacted and answered 1000.
 */
export function toRpcError(error: unknown, log: (line: string) => void = console.error): ApiError {
  if (error instanceof ApiError) {
    const rpcRange = error.code === 1000 || (error.code >= 4000 && error.code <= 5000);
    return rpcRange ? error : rpcErrorFromResponse(error.status, error.toJSON());
  }
  const detail = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
  log(redactSecrets(`platformpp: RPC host error: ${detail}`));
  return ApiError.of('RPC_UNKNOWN_ERROR');
}

/** `activity.type: Must be ...; activity.state_url: ...` from a field error tree. */
export function describeFieldErrors(tree: FieldErrors | undefined, path: string[] = []): string {
  if (!tree) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(tree)) {
    if (key === '_errors')
      parts.push(`${path.join('.') || 'payload'}: ${(value as { message: string }[]).map((e) => e.message).join(' ')}`);
    else if (value && typeof value === 'object') parts.push(describeFieldErrors(value as FieldErrors, [...path, key]));
  }
  return parts.filter(Boolean).join('; ');
}

/**
 * HTTP calls the RPC host makes. `base` is the platform's origin (`location.origin` in a page).
 * @example const platform = new PlatformClient((r) => fetch(r), location.origin);
 */
export class PlatformClient {
  constructor(
    private readonly send: PlatformFetch,
    private readonly base: string,
  ) {}

  /** The user the host page simulates, as a participant (sandbox control API: no token exists yet). */
  async participant(userId: string): Promise<RpcParticipant> {
    const { user } = await this.#json<{
      user: {
        id: string;
        username: string;
        global_name: string | null;
        discriminator: string;
        avatar: string | null;
        bot?: boolean;
        premium_type?: number;
      };
    }>('GET', `/sandbox/users/${encodeURIComponent(userId)}`);
    return {
      id: user.id,
      username: user.username,
      global_name: user.global_name,
      discriminator: user.discriminator,
      avatar: user.avatar,
      bot: user.bot === true,
      flags: 0,
      premium_type: user.premium_type ?? null,
    };
  }

  /** What the consent dialog shows (and whether `userId` already granted every scope). */
  describeAuthorize(query: AuthorizeQuery, userId: string): Promise<AuthorizeDescription> {
    return this.#json('GET', `/oauth2/authorize?${authorizeParams(query, { user_id: userId })}`);
  }

  /** The user's decision: a code on "Authorize", `{error: 'access_denied'}` on "Cancel". */
  decideAuthorize(
    query: AuthorizeQuery,
    userId: string,
    authorize: boolean,
  ): Promise<{ code?: string; error?: string; state?: string | null }> {
    return this.#json('POST', `/oauth2/authorize?${authorizeParams(query)}`, { body: { authorize, user_id: userId } });
  }

  /**
   * The session behind an access token (AUTHENTICATE), with what its scopes allow now
   * (`effective_scopes`, not part of the AUTHENTICATE answer); an invalid token is 4009.
   */
  session(
    token: string,
  ): Promise<Omit<CommandMap['AUTHENTICATE']['data'], 'access_token'> & { effective_scopes: string[] }> {
    return this.#json('GET', '/api/v10/rpc/session', { token });
  }

  /** Sets (or with null clears) the application's rich presence activity for the token's user. */
  async setActivity(token: string, activity: unknown): Promise<RichPresenceActivity | null> {
    return (
      await this.#json<{ activity: RichPresenceActivity | null }>('PUT', '/api/v10/users/@me/activities', {
        token,
        body: { activity },
      })
    ).activity;
  }

  /** A guild channel as the token's user sees it. */
  channel(token: string, channelId: string): Promise<CommandMap['GET_CHANNEL']['data']> {
    return this.#json('GET', `/api/v10/rpc/channels/${encodeURIComponent(channelId)}`, { token });
  }

  /** The token's user's permissions in a channel. */
  channelPermissions(token: string, channelId: string): Promise<{ permissions: string }> {
    return this.#json('GET', `/api/v10/rpc/channels/${encodeURIComponent(channelId)}/permissions`, { token });
  }

  /** A guild's status (GUILD_STATUS). */
  guildStatus(
    token: string,
    guildId: string,
  ): Promise<{ guild: { id: string; name: string; icon_url: string | null }; online: number }> {
    return this.#json('GET', `/api/v10/rpc/guilds/${encodeURIComponent(guildId)}/status`, { token });
  }

  /** A lobby the token's user is a member of (4006 otherwise): `{id}`. */
  lobby(token: string, lobbyId: string): Promise<{ id: string }> {
    return this.#json('GET', `/api/v10/rpc/lobbies/${encodeURIComponent(lobbyId)}`, { token });
  }

  /** The SKUs the client sells for the token's application, with prices (GET_SKUS_EMBEDDED). */
  async skus(token: string): Promise<unknown[]> {
    return (await this.#json<{ skus: unknown[] }>('GET', '/api/v10/rpc/skus', { token })).skus;
  }

  /** What the token's user holds of the token's application now (GET_ENTITLEMENTS_EMBEDDED). */
  async entitlements(token: string): Promise<unknown[]> {
    return (await this.#json<{ entitlements: unknown[] }>('GET', '/api/v10/rpc/entitlements', { token })).entitlements;
  }

  /** Completes the token's user's purchase of a SKU (for a guild subscription, in `guildId`); the entitlements it granted. */
  async purchase(token: string, skuId: string, guildId: string | null): Promise<unknown[]> {
    return (
      await this.#json<{ entitlements: unknown[] }>('POST', '/api/v10/rpc/purchases', {
        token,
        body: { sku_id: skuId, guild_id: guildId },
      })
    ).entitlements;
  }

  /**
   * Any call of the host's routes: `body` goes as JSON, `form` as multipart form data. Resolves
   * with the JSON answer; a refusal rejects with the RPC error it means.
   * @example const { ticket } = await platform.request<{ ticket: string }>('POST', '/api/v10/rpc/proxy-tickets', { token });
   */
  request<T>(method: string, path: string, options: { token?: string; body?: unknown; form?: FormData } = {}) {
    return this.#json<T>(method, path, options);
  }

  async #json<T>(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; form?: FormData } = {},
  ): Promise<T> {
    const headers: Record<string, string> = {};
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await this.send(
        new Request(new URL(path, this.base), {
          method,
          headers,
          body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
        }),
      );
    } catch {
      throw ApiError.of(
        'RPC_UNKNOWN_ERROR',
        `${ApiError.of('RPC_UNKNOWN_ERROR').message}: the platform's service worker did not answer ${method} ${path}`,
      );
    }
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON: the status decides.
    }
    if (!response.ok) throw rpcErrorFromResponse(response.status, body);
    return body as T;
  }
}

function authorizeParams(query: AuthorizeQuery, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ response_type: 'code' });
  for (const [name, value] of Object.entries({ ...query, ...extra })) if (value !== undefined) params.set(name, value);
  return params.toString();
}
