/**
 * The sandbox control API (CONTRACT §3) as methods, for pages and tests:
 * `await platform.sandbox.createUser({ username: 'alice' })`. Each call is one request to the
 * service worker; a refusal rejects with {@link SandboxError} carrying the platform's answer.
 */

/** The platform refused a sandbox call: its HTTP status and JSON body. */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what} answered ${status}: ${JSON.stringify(body)}`);
    this.name = 'SandboxError';
  }
}

import type { FaultRequest, InjectedFault, RateLimitSettingsView } from './sandbox-faults';
import { restartServiceWorker, type ServiceWorkerRestart } from './service-worker-restart';

type Json = Record<string, any>;

/**
 * The sandbox's routes, each as a method.
 * @example
 * const sandbox = new SandboxClient();
 * const { user } = await sandbox.createUser({ username: 'alice' });
 */
export class SandboxClient {
  constructor(
    /** Where the platform answers (this page's origin by default). */
    readonly base: string = location.origin,
    private readonly send: (request: Request) => Promise<Response> = (request) => fetch(request),
  ) {}

  /** Empties every store and puts the clock back to real time. */
  reset(): Promise<void> {
    return this.#call('POST', '/sandbox/reset');
  }

  /** A new user: `{user}`. */
  createUser(body: {
    username: string;
    global_name?: string | null;
    premium_type?: 0 | 1 | 2 | 3;
  }): Promise<{ user: Json }> {
    return this.#call('POST', '/sandbox/users', body);
  }

  /** A user by id: `{user}`. */
  getUser(userId: string): Promise<{ user: Json }> {
    return this.#call('GET', `/sandbox/users/${encodeURIComponent(userId)}`);
  }

  /**
   * A new application with its bot: `{application, bot, bot_token, client_secret}`. `id` and
   * `client_secret` keep the values of a developer's own `.env`.
   */
  createApplication(body: {
    name: string;
    owner_id?: string;
    flags?: number | string;
    bot_public?: boolean;
    id?: string;
    client_secret?: string;
  }): Promise<{ application: Json; bot: Json; bot_token: string; client_secret: string }> {
    return this.#call('POST', '/sandbox/applications', body);
  }

  /** An application by id, with the approvals and settings the sandbox keeps: `{application}`. */
  getApplication(applicationId: string): Promise<{ application: Json }> {
    return this.#call('GET', `/sandbox/applications/${encodeURIComponent(applicationId)}`);
  }

  /** Changes an application's approvals and settings, or its client secret: `{application}`. */
  updateApplication(
    applicationId: string,
    body: {
      approvals?: Record<string, boolean>;
      flags?: number | string;
      channel_obfuscation?: boolean;
      redirect_uris?: string[];
      client_secret?: string;
    },
  ): Promise<{ application: Json }> {
    return this.#call('PATCH', `/sandbox/applications/${encodeURIComponent(applicationId)}`, body);
  }

  /** A token pair for a user, skipping the consent screen. */
  createToken(body: { application_id: string; user_id: string; scopes: string }): Promise<{
    access_token: string;
    refresh_token: string;
    token_type: 'Bearer';
    expires_in: number;
    scope: string;
  }> {
    return this.#call('POST', '/sandbox/tokens', body);
  }

  /** A new guild: `{guild, roles, channels}`. */
  createGuild(body: {
    name: string;
    owner_id: string;
    features?: string[];
  }): Promise<{ guild: Json; roles: Json[]; channels: Json[] }> {
    return this.#call('POST', '/sandbox/guilds', body);
  }

  /** Adds (or updates) a guild member: `{member}`. */
  putGuildMember(
    guildId: string,
    userId: string,
    body: { roles?: string[]; nick?: string | null } = {},
  ): Promise<{ member: Json }> {
    return this.#call(
      'PUT',
      `/sandbox/guilds/${encodeURIComponent(guildId)}/members/${encodeURIComponent(userId)}`,
      body,
    );
  }

  /** A new role: `{role}`. */
  createRole(guildId: string, body: { name: string; permissions: string; colors?: Json }): Promise<{ role: Json }> {
    return this.#call('POST', `/sandbox/guilds/${encodeURIComponent(guildId)}/roles`, body);
  }

  /** A new channel: `{channel}`. */
  createChannel(
    guildId: string,
    body: { name: string; type: number; parent_id?: string | null; permission_overwrites?: Json[] },
  ): Promise<{ channel: Json }> {
    return this.#call('POST', `/sandbox/guilds/${encodeURIComponent(guildId)}/channels`, body);
  }

  /** The platform clock: `{now, frozen}`. */
  getClock(): Promise<{ now: string; frozen: boolean }> {
    return this.#call('GET', '/sandbox/clock');
  }

  /** Freezes the platform clock at `now` (ISO-8601). */
  setClock(now: string): Promise<{ now: string; frozen: true }> {
    return this.#call('PUT', '/sandbox/clock', { now });
  }

  /** Puts the clock back to real time. */
  resetClock(): Promise<{ now: string; frozen: false }> {
    return this.#call('DELETE', '/sandbox/clock');
  }

  /** Changes a user's profile as they would in the client (USER_UPDATE to their sessions): `{user}`. */
  updateUser(
    userId: string,
    body: { username?: string; global_name?: string | null; avatar?: string | null },
  ): Promise<{ user: Json }> {
    return this.#call('PATCH', `/sandbox/users/${encodeURIComponent(userId)}`, body);
  }

  /**
   * Sets the relationship of two users directly, both sides (type 0 none, 1 friends, 2 blocked,
   * 3 / 4 a pending request; with `application_id`, their game relationship in that game).
   */
  setRelationship(
    userId: string,
    otherId: string,
    body: { type: 0 | 1 | 2 | 3 | 4; application_id?: string },
  ): Promise<Json> {
    return this.#call(
      'PUT',
      `/sandbox/users/${encodeURIComponent(userId)}/relationships/${encodeURIComponent(otherId)}`,
      body,
    );
  }

  /** A group DM the application's bot made with these users (their consent taken as given). */
  createGroupDm(body: { application_id: string; user_ids: string[]; name?: string | null }): Promise<{
    channel: { id: string; type: 3; name: string | null; owner_id: string; recipients: { id: string }[] };
  }> {
    return this.#call('POST', '/sandbox/group-dms', body);
  }

  /** Bans a user's account. */
  ban(userId: string, body: { permanent?: boolean } = {}): Promise<void> {
    return this.#call('POST', `/sandbox/users/${encodeURIComponent(userId)}/ban`, body);
  }

  /** Lifts a ban. */
  unban(userId: string): Promise<void> {
    return this.#call('DELETE', `/sandbox/users/${encodeURIComponent(userId)}/ban`);
  }

  /** The webhook outbox, newest first: `{deliveries}` (optionally of one application, at most `limit`). */
  webhookDeliveries(query: { application_id?: string; limit?: number } = {}): Promise<{ deliveries: Json[] }> {
    const params = new URLSearchParams(
      Object.entries(query)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    );
    return this.#call('GET', `/sandbox/webhook-deliveries${params.size > 0 ? `?${params}` : ''}`);
  }

  /** An application's event webhooks settings and `verify_key`. */
  eventWebhooks(applicationId: string): Promise<Json> {
    return this.#call('GET', `/sandbox/applications/${encodeURIComponent(applicationId)}/event-webhooks`);
  }

  /** Sets an application's event webhooks; the URL must pass the PING (else a 50035 naming `event_webhooks_url`). */
  setEventWebhooks(
    applicationId: string,
    body: { url: string | null; types?: string[]; enabled?: boolean },
  ): Promise<Json> {
    return this.#call('PUT', `/sandbox/applications/${encodeURIComponent(applicationId)}/event-webhooks`, body);
  }

  /** A webhook sink on this origin: `{id, url, respond_with, requests}`. */
  createWebhookSink(body: { respond_with?: number } = {}): Promise<Json> {
    return this.#call('POST', '/sandbox/webhook-sinks', body);
  }

  /** What a webhook sink received, newest first. */
  webhookSink(sinkId: string): Promise<Json> {
    return this.#call('GET', `/sandbox/webhook-sinks/${encodeURIComponent(sinkId)}`);
  }

  /** A quest of an application (GET_QUEST and the quest commands read it): `{quest}`. */
  createQuest(body: {
    application_id: string;
    name: string;
    external_cta_url?: string;
    play_seconds?: number;
    expires_at?: string | null;
  }): Promise<{ quest: Json }> {
    return this.#call('POST', '/sandbox/quests', body);
  }

  /** The user enrolls in a quest (QUEST_USER_ENROLLMENT, QUEST_ENROLLMENT_STATUS_UPDATE): `{enrollment}`. */
  enrollInQuest(questId: string, body: { application_id: string; user_id: string; quest_name?: string }) {
    return this.#call<{ enrollment: Json }>('POST', `/sandbox/quests/${encodeURIComponent(questId)}/enrollments`, body);
  }

  /** A SKU of an application (type 2 durable, 3 consumable, 5 subscription; flags 1 << 2 to sell it): `{sku}`. */
  createSku(
    applicationId: string,
    body: { name: string; type: 2 | 3 | 5; flags?: number; price?: { amount: number; currency: string } | null },
  ): Promise<{ sku: Json }> {
    return this.#call('POST', `/sandbox/applications/${encodeURIComponent(applicationId)}/skus`, body);
  }

  /** Sets the thermal state of the user's simulated device (THERMAL_STATE_UPDATE): `{device}`. */
  setThermalState(userId: string, thermalState: 0 | 1 | 2 | 3): Promise<{ device: Json }> {
    return this.#call('PUT', `/sandbox/users/${encodeURIComponent(userId)}/device`, { thermal_state: thermalState });
  }

  /** The user presses Join on `fromUserId`'s activity of the application (ACTIVITY_JOIN): `{activity_join}`. */
  joinActivity(
    userId: string,
    body: { application_id: string; from_user_id: string },
  ): Promise<{ activity_join: Json }> {
    return this.#call('POST', `/sandbox/users/${encodeURIComponent(userId)}/activity-joins`, body);
  }

  /** The user accepts an invite (an activity invite joins them to the activity): `{invite, member, joined}`. */
  acceptInvite(code: string, userId: string): Promise<Json> {
    return this.#call('POST', `/sandbox/invites/${encodeURIComponent(code)}/accept`, { user_id: userId });
  }

  /**
   * The fixture set `name` (a named record of what a tool seeded), or null when the sandbox has
   * none: `{name, value, updated_at}`.
   */
  async getFixtureSet(name: string): Promise<{ name: string; value: Json; updated_at: string } | null> {
    try {
      return (
        await this.#call<{ fixture_set: { name: string; value: Json; updated_at: string } }>(
          'GET',
          `/sandbox/fixture-sets/${encodeURIComponent(name)}`,
        )
      ).fixture_set;
    } catch (error) {
      if (error instanceof SandboxError && error.status === 404) return null;
      throw error;
    }
  }

  /**
   * Stores the fixture set `name`. With `createOnly`, only when there is none: the call then
   * rejects with a {@link SandboxError} of status 412, and the one stored first stays.
   */
  putFixtureSet(
    name: string,
    value: Json,
    options: { createOnly?: boolean } = {},
  ): Promise<{ fixture_set: { name: string; value: Json; updated_at: string } }> {
    const headers: Record<string, string> = options.createOnly ? { 'If-None-Match': '*' } : {};
    return this.#call('PUT', `/sandbox/fixture-sets/${encodeURIComponent(name)}`, { value }, headers);
  }

  /**
   * Injects a fault (docs/faults.md): the next matching HTTP requests fail or wait, a webhook
   * sink's deliveries fail, or the gateway sends RECONNECT, INVALID_SESSION, stops acknowledging
   * heartbeats, closes, or holds dispatches.
   * @example await sandbox.injectFault({ type: 'http_error', status: 429, method: 'POST', path: '/api/v10/channels/*\/messages' });
   * @example await sandbox.injectFault({ type: 'reconnect', user_id: bot.id });
   */
  async injectFault(fault: FaultRequest): Promise<InjectedFault> {
    return (await this.#call<{ fault: InjectedFault }>('POST', '/sandbox/faults', fault)).fault;
  }

  /**
   * Stops the service worker now (a browser host fault): a new start of it takes over this page,
   * with the state it had kept in IndexedDB. Resolves once the new start controls this page
   * (other pages of the platform follow on their own); `restart` is null where this client
   * does not run in a page the worker controls.
   * @example const { restart } = await sandbox.stopServiceWorker(); // restart.ms: fault to recovery
   */
  async stopServiceWorker(): Promise<{ fault: InjectedFault; restart: ServiceWorkerRestart | null }> {
    const fault = await this.injectFault({ type: 'stop_service_worker' });
    const here =
      typeof navigator !== 'undefined' &&
      navigator.serviceWorker?.controller &&
      new URL(this.base).origin === globalThis.location?.origin;
    return { fault, restart: here ? await restartServiceWorker(fault.id) : null };
  }

  /**
   * Stops the shared worker now (a browser host fault): the gateway's sockets drop (1006), pages
   * start another and resume there.
   * @example await sandbox.stopSharedWorker();
   */
  stopSharedWorker(): Promise<InjectedFault> {
    return this.injectFault({ type: 'stop_shared_worker' });
  }

  /** The faults still pending (HTTP and webhook uses left) and the latest injected. */
  listFaults(): Promise<{ pending: InjectedFault[]; history: InjectedFault[] }> {
    return this.#call('GET', '/sandbox/faults');
  }

  /** Drops every pending fault. */
  clearFaults(): Promise<void> {
    return this.#call('DELETE', '/sandbox/faults');
  }

  /** The sandbox's HTTP rate-limit setting. */
  getRateLimits(): Promise<RateLimitSettingsView> {
    return this.#call('GET', '/sandbox/rate-limits');
  }

  /**
   * Turns the platform's HTTP rate limits on or off for this sandbox, optionally with a route
   * bucket's size and window and the global limit per second.
   * @example await sandbox.setRateLimits({ enabled: true, route_limit: 2, route_window_seconds: 1 });
   */
  setRateLimits(settings: Partial<RateLimitSettingsView> & { enabled: boolean }): Promise<RateLimitSettingsView> {
    return this.#call('PUT', '/sandbox/rate-limits', settings);
  }

  async #call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const request = new Request(new URL(path, this.base), {
      method,
      headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const response = await this.send(request);
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      json = text;
    }
    if (!response.ok) throw new SandboxError(response.status, json, `${method} ${path}`);
    return (response.status === 204 ? undefined : json) as T;
  }
}
