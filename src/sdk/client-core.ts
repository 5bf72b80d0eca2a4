/**
 * The core of the game SDK `Client`: construction (every dependency injectable), the version,
 * default scopes and logging, the account operations, and the gateway connection. `Client`
 * (client.ts) adds events and the social layer on top. It talks to the platform only through
 * HTTP (an injected `fetch`) and the gateway (an injected socket factory), so it runs
 * unchanged in a page and in a unit test.
 */
import { toApplicationId, type AuthorizationArgs } from './authorization-args';
import type { ChannelFactory } from './authorize-requests';
import type { CallMediaFactory } from './call-media-link';
import { authorize, getToken, refreshToken, revokeToken, type AuthContext } from './client-auth';
import { ClientEvents } from './client-events';
import { createAuthorizationCodeVerifier, type AuthorizationCodeVerifier } from './code-verifier';
import { ErrorType, SdkError } from './errors';
import { GatewayLink } from './gateway-link';
import type { LinkTimers, SocketFactory } from './socket';
import { SdkHttp, type SdkFetch } from './http';
import { LoggingSeverity, SdkLogger, type LogCallback, type SdkBuild } from './logger';
import { ClientError, Status, type StatusChangedCallback } from './status';
import {
  AuthorizationTokenType,
  type AuthorizeResult,
  type ConsentFunction,
  type TokenResult,
  type User,
} from './types';
import { assertSupportedSdkVersion, SDK_VERSION } from './version';

/** Options of a client. Every dependency has a browser default. */
export interface ClientOptions {
  /** The platform's origin (default: `location.origin`). */
  baseUrl?: string;
  /** Sends HTTP requests (default: `globalThis.fetch`, which the service worker answers). */
  fetch?: SdkFetch;
  /** Opens gateway sockets (default: `new GatewaySocket(url)`, loaded on first connect). */
  socketFactory?: SocketFactory;
  /** Opens voice gateway sockets for calls (default: `new VoiceGatewaySocket(url)`, loaded on the first call). */
  voiceSocketFactory?: SocketFactory;
  /** Asks the user to authorize (default: the host page's `<pp-consent-dialog>`, loaded on first use). */
  consent?: ConsentFunction;
  /** The simulated platform user who runs the game and answers the consent dialog. */
  userId?: string;
  applicationId?: string;
  /** `release` (default) logs Warning and Error only; `debug` also Info and Verbose. */
  build?: SdkBuild;
  /** The SDK version the game was built against; a version outside the support window (1.6-1.10) is refused. */
  sdkVersion?: string;
  timers?: LinkTimers;
  reconnectDelayMs?: (attempt: number) => number;
  /** Opens the AUTHORIZE_REQUEST channel (default: BroadcastChannel). */
  channelFactory?: ChannelFactory;
  /** How calls carry audio. */
  voice?: VoiceOptions;
}

/** How calls carry audio (`ClientOptions.voice`). */
export interface VoiceOptions {
  /** False: calls are signaling only (no microphone, no WebRTC), as where there is no WebRTC (Node). Default true. */
  media?: boolean;
  /**
   * False: this client does not encrypt frames end to end, as a client without E2EE support:
   * the voice gateway refuses it from 2026-03-01 (4017), and its calls are unencrypted before.
   * Default: true where the browser can (`RTCRtpScriptTransform`).
   */
  e2ee?: boolean;
  /** ICE servers for calls between machines that do not see each other directly; none by default (offline). */
  iceServers?: RTCIceServer[];
  /** Makes a call's media (default: `src/media`'s `CallMedia`, loaded on the first call). */
  mediaFactory?: CallMediaFactory;
}

// Loaded on first use, so that the SDK's core carries neither comlink nor lit.
const defaultSocketFactory: SocketFactory = async (url) =>
  new (await import('../sockets/gateway-socket')).GatewaySocket(url);
const defaultConsent: ConsentFunction = async (request) =>
  (await import('../components/consent-dialog')).requestConsent(request);

/** What callback forms receive first: `result.successful` tells success from an `SdkError`. */
export type ClientResult = SdkError | { readonly successful: true; readonly type: typeof ErrorType.None };
const OK: ClientResult = Object.freeze({ successful: true, type: ErrorType.None });

/** Runs `callback` when `promise` settles and returns the promise (a callback counts as handling it). */
export function settle<T>(
  promise: Promise<T>,
  callback: ((result: ClientResult, value: T | undefined) => void) | undefined,
): Promise<T> {
  if (callback) {
    promise.then(
      (value) => callback(OK, value),
      (error: unknown) =>
        callback(
          error instanceof SdkError
            ? error
            : new SdkError({ type: ErrorType.ValidationError, message: String(error), cause: error }),
          undefined,
        ),
    );
  }
  return promise;
}

/** Accounts and connection; see `Client`. */
export class ClientCore {
  protected readonly log: SdkLogger;
  protected readonly http: SdkHttp;
  protected readonly link: GatewayLink;
  protected readonly events: ClientEvents;
  protected readonly auth: AuthContext;
  protected readonly options: ClientOptions;
  protected applicationId: string | undefined;
  #statusCallback: StatusChangedCallback | null = null;
  #destroyed = false;
  /** Set by `connect()`, cleared by `disconnect()`: whether a new token should reconnect. */
  #connectWanted = false;

  constructor(options: ClientOptions = {}) {
    if (options.sdkVersion !== undefined) assertSupportedSdkVersion(options.sdkVersion);
    this.options = options;
    this.log = new SdkLogger(options.build ?? 'release');
    const baseUrl = options.baseUrl ?? (typeof location === 'undefined' ? undefined : location.origin);
    if (!baseUrl)
      throw SdkError.validation(
        'new Client() needs baseUrl outside a page: the platform origin, e.g. "http://127.0.0.1:5173".',
      );
    this.http = new SdkHttp({ fetch: options.fetch ?? ((request) => fetch(request)), baseUrl, log: this.log });
    this.applicationId =
      options.applicationId === undefined ? undefined : toApplicationId(options.applicationId, 'applicationId');
    this.events = new ClientEvents(this.log);
    this.auth = {
      http: this.http,
      log: this.log,
      applicationId: () => this.applicationId,
      userId: options.userId,
      consent: options.consent ?? defaultConsent,
    };
    this.link = new GatewayLink({
      socketFactory: options.socketFactory ?? defaultSocketFactory,
      token: () => this.http.token,
      log: this.log,
      timers: options.timers,
      reconnectDelayMs: options.reconnectDelayMs,
      events: {
        status: (status, error, detail) => this.#statusChanged(status, error, detail),
        dispatch: (dispatch) => this.events.dispatch(dispatch),
      },
    });
  }

  /** The SDK's major version: `<major>.<minor>.<build>`. */
  static getVersionMajor(): number {
    return SDK_VERSION.major;
  }
  /** The SDK's minor version. */
  static getVersionMinor(): number {
    return SDK_VERSION.minor;
  }
  /** The SDK's build number. */
  static getVersionPatch(): number {
    return SDK_VERSION.build;
  }

  /** `openid sdk.social_layer`: lobbies, chat, friends and presence; what most games ask for. */
  static getDefaultCommunicationScopes(): string {
    return 'openid sdk.social_layer';
  }
  /** `openid sdk.social_layer_presence`: account linking, friends and rich presence. */
  static getDefaultPresenceScopes(): string {
    return 'openid sdk.social_layer_presence';
  }
  /** {@link ClientCore.getDefaultCommunicationScopes}, on an instance. */
  getDefaultCommunicationScopes(): string {
    return ClientCore.getDefaultCommunicationScopes();
  }
  /** {@link ClientCore.getDefaultPresenceScopes}, on an instance. */
  getDefaultPresenceScopes(): string {
    return ClientCore.getDefaultPresenceScopes();
  }

  /** Adds a log callback for `minSeverity` and above; no token ever reaches it, at any severity. */
  addLogCallback(callback: LogCallback, minSeverity: LoggingSeverity = LoggingSeverity.Info): void {
    this.log.addCallback(callback, minSeverity);
  }

  /** The application id `authorize` uses when the arguments leave ClientId unset. */
  setApplicationId(applicationId: string | bigint): void {
    this.applicationId = toApplicationId(applicationId, 'applicationId');
  }
  /** The id of `setApplicationId` (or of the token, once `connect()` checked it). */
  getApplicationId(): string | undefined {
    return this.applicationId;
  }

  /** A fresh PKCE pair: `challenge` for `AuthorizationArgs.setCodeChallenge`, `verifier` for `getToken`. */
  createAuthorizationCodeVerifier(): Promise<AuthorizationCodeVerifier> {
    return createAuthorizationCodeVerifier();
  }

  /** Asks the user, in the host platform client's consent dialog, to authorize the game. */
  authorize(
    args: AuthorizationArgs,
    callback?: (result: ClientResult, code: string, redirectUri: string) => void,
  ): Promise<AuthorizeResult> {
    return settle(
      this.run(() => authorize(this.auth, args)),
      callback && ((result, value) => callback(result, value?.code ?? '', value?.redirectUri ?? '')),
    );
  }

  /** Exchanges the code of `authorize`, with its PKCE verifier and redirect URI, for tokens. */
  getToken(
    applicationId: string,
    code: string,
    codeVerifier: string,
    redirectUri: string,
    callback?: (result: ClientResult, tokens?: TokenResult) => void,
  ): Promise<TokenResult> {
    return settle(
      this.run(() => getToken(this.auth, applicationId, code, codeVerifier, redirectUri)),
      callback,
    );
  }

  /** New tokens for a refresh token; `invalid_grant` means the authorization is gone. */
  refreshToken(
    applicationId: string,
    refresh: string,
    callback?: (result: ClientResult, tokens?: TokenResult) => void,
  ): Promise<TokenResult> {
    return settle(
      this.run(() => refreshToken(this.auth, applicationId, refresh)),
      callback,
    );
  }

  /** Revokes a token and the other half of its pair. */
  revokeToken(applicationId: string, token: string, callback?: (result: ClientResult) => void): Promise<void> {
    return settle(
      this.run(() => revokeToken(this.auth, applicationId, token)),
      callback,
    );
  }

  /**
   * Sets the token that HTTP calls and the gateway use; `connect()` works from then on. A client
   * that is connected with another token reconnects with this one.
   */
  updateToken(
    tokenType: AuthorizationTokenType,
    token: string,
    callback?: (result: ClientResult) => void,
  ): Promise<void> {
    const run = this.run(async () => {
      if (tokenType !== AuthorizationTokenType.Bearer && tokenType !== AuthorizationTokenType.User) {
        throw SdkError.validation('updateToken() takes AuthorizationTokenType.Bearer (or the legacy User).');
      }
      if (typeof token !== 'string' || token === '')
        throw SdkError.validation('updateToken() needs the access token (a non-empty string).');
      this.log.addSecret(token);
      const replaced = this.http.token !== undefined && this.http.token !== token;
      this.http.token = token;
      this.log.info('UpdateToken: token set.');
      // A session belongs to the token it identified with, and a refresh deletes that token (the
      // gateway then ends the session, maybe before this call): connect again with the new one.
      if (replaced && this.#connectWanted) {
        if (this.link.status !== Status.Disconnected) await this.link.disconnect();
        await this.connect();
      }
    });
    return settle(run, callback);
  }

  /** The connection's status. */
  getStatus(): Status {
    return this.link.status;
  }

  /** Called with each status change, why it changed, and a detail code (a close code or an HTTP status). */
  setStatusChangedCallback(callback: StatusChangedCallback | null): void {
    this.#statusCallback = callback;
  }

  /**
   * Connects with the token of `updateToken`: HttpWait (the token is checked at `/oauth2/@me`),
   * Connecting, Connected (Hello), Ready (READY). Resolves once Ready; rejects when the
   * connection fails for good (a refused token, no gateway).
   */
  connect(): Promise<void> {
    return this.run(async () => {
      if (!this.http.token) throw SdkError.notReady('connect() needs a token: call updateToken() first.');
      this.#connectWanted = true;
      await this.link.connect(async () => {
        const me = await this.http.call<{ application: { id: string } }>('GET', '/oauth2/@me');
        this.applicationId ??= me.application.id;
      });
    });
  }

  /** Ends the connection and its session: Disconnecting, then Disconnected. */
  disconnect(): Promise<void> {
    this.#connectWanted = false;
    return this.link.disconnect();
  }

  /** Disconnects and lets go of everything; any later call fails with `ClientDestroyed`. */
  async destroy(): Promise<void> {
    await this.disconnect();
    this.#destroyed = true;
  }

  /** The current user once the client is Ready; undefined before (and after a disconnect). */
  getCurrentUserV2(): User | undefined {
    return this.link.status === Status.Ready || this.link.status === Status.Reconnecting
      ? this.events.currentUser
      : undefined;
  }

  /** Every later HTTP request fails with a timeout error (NetworkError, `timedOut`) past `ms`. */
  setHttpRequestTimeout(ms: number): void {
    if (!Number.isInteger(ms) || ms <= 0)
      throw SdkError.validation('setHttpRequestTimeout() takes a positive whole number of milliseconds.');
    this.http.timeoutMs = ms;
  }
  /** The HTTP request timeout in milliseconds (30000 unless set). */
  getHttpRequestTimeout(): number {
    return this.http.timeoutMs;
  }

  /** True once `destroy()` was called. */
  protected get destroyed(): boolean {
    return this.#destroyed;
  }

  /** Runs an operation unless the client was destroyed. */
  protected run<T>(operation: () => Promise<T>): Promise<T> {
    if (this.#destroyed)
      return Promise.reject(
        new SdkError({ type: ErrorType.ClientDestroyed, message: 'This Client was destroyed; create a new one.' }),
      );
    // Through a promise, so that an argument refused synchronously is a rejection, not a throw.
    return Promise.resolve().then(operation);
  }

  /** Told of each status change before the status callback (the client's calls end when the connection does). */
  protected connectionStatusChanged(_status: Status): void {}

  #statusChanged(status: Status, error: ClientError, detail: number): void {
    if (status === Status.Disconnected) this.events.reset();
    this.connectionStatusChanged(status);
    try {
      this.#statusCallback?.(status, error, detail);
    } catch (thrown) {
      this.log.error(`The status callback threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
    }
  }
}
