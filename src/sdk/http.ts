/**
 * The SDK's HTTP: JSON calls to `{base_url}` (`/api/v10`) with the client's token, form posts to
 * the OAuth2 endpoints, a timeout on every request (`setHttpRequestTimeout`, default
 * SDK_HTTP_TIMEOUT_DEFAULT_MS), and every failure as an `SdkError` saying what went wrong.
 * `fetch` is injected: the service worker answers it in a page, the HTTP app in a unit test.
 */
import { SDK_HTTP_TIMEOUT_DEFAULT_MS } from '../platform/core/limits';
import { ErrorType, SdkError } from './errors';
import type { SdkLogger } from './logger';

/** Sends one request: `globalThis.fetch` in a page, the platform's `app.fetch` in a test. */
export type SdkFetch = (request: Request) => Promise<Response>;

/** The API prefix of `{base_url}` (CONTRACT §2). */
export const API_BASE = '/api/v10';

/** Options of one call. */
export interface CallOptions {
  /** JSON body. */
  body?: unknown;
  /** `application/x-www-form-urlencoded` body (OAuth2 token endpoints). */
  form?: Record<string, string | undefined>;
  /** Send the client's Bearer token (default true for API paths). */
  auth?: boolean;
  /** A token other than the client's (e.g. the parent token of a child-token exchange). */
  token?: string;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | undefined>;
}

type ErrorBody = {
  code?: unknown;
  message?: unknown;
  errors?: unknown;
  error?: unknown;
  error_description?: unknown;
  retry_after?: unknown;
};

/** `a.b: message; c: message` from the platform's field error tree (names and messages, never values). */
function fieldErrors(tree: unknown, path: string[] = []): string[] {
  if (!tree || typeof tree !== 'object') return [];
  return Object.entries(tree as Record<string, unknown>).flatMap(([key, value]) =>
    key === '_errors' && Array.isArray(value)
      ? [`${path.join('.') || 'body'}: ${value.map((e) => (e as { message?: string }).message ?? '').join(' ')}`]
      : fieldErrors(value, [...path, key]),
  );
}

/**
 * The client's HTTP transport.
 * @example const http = new SdkHttp({ fetch: app.fetch, baseUrl: 'http://x', log }); await http.call('GET', '/users/@me');
 */
export class SdkHttp {
  timeoutMs = SDK_HTTP_TIMEOUT_DEFAULT_MS;
  /** The Bearer token HTTP calls carry (set by `updateToken`). */
  token: string | null = null;

  constructor(private readonly options: { fetch: SdkFetch; baseUrl: string; log: SdkLogger }) {}

  /**
   * One call. `path` starting with `/oauth2` or `/sandbox` is taken as is; any other path is
   * under `/api/v10`. Resolves with the parsed JSON body (null for 204).
   */
  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    return (await this.dated<T>(method, path, options)).body;
  }

  /**
   * One call, with the answer's `Date` header in epoch ms: the platform's clock as the client
   * sees it (to the second; null when the answer has none).
   */
  async dated<T>(method: string, path: string, options: CallOptions = {}): Promise<{ body: T; date: number | null }> {
    const absolute = path.startsWith('/oauth2') || path.startsWith('/sandbox');
    const url = new URL(absolute ? path : `${API_BASE}${path}`, this.options.baseUrl);
    for (const [key, value] of Object.entries(options.query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));
    const headers = new Headers();
    const token = options.token ?? (options.auth === false ? null : this.token);
    if (!absolute && options.auth !== false && !token)
      throw SdkError.notReady(`${method} ${path} needs a token: call updateToken() first.`);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    let body: string | undefined;
    if (options.form) {
      headers.set('Content-Type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(
        Object.entries(options.form).filter((e): e is [string, string] => e[1] !== undefined),
      ).toString();
    } else if (options.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(options.body);
    }
    const what = `${method} ${url.pathname}`;
    const timeoutMs = this.timeoutMs;
    const signal = AbortSignal.timeout(timeoutMs);
    this.options.log.verbose(`HTTP ${what}`);
    let response: Response;
    let text: string;
    try {
      response = await this.#race(this.options.fetch(new Request(url, { method, headers, body, signal })), signal);
      // The timeout covers the whole answer: a body that stalls after the headers is a timeout too.
      text = await this.#race(response.text(), signal);
    } catch (error) {
      const timedOut = signal.aborted;
      const message = timedOut
        ? `${what} timed out after ${timeoutMs} ms (setHttpRequestTimeout).`
        : `${what} got no answer: ${error instanceof Error ? error.message : String(error)}`;
      this.options.log.warning(message);
      throw new SdkError({ type: ErrorType.NetworkError, message, retryable: true, timedOut, cause: error });
    }
    let parsed: unknown = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON: the status decides.
    }
    if (response.ok) {
      const date = Date.parse(response.headers.get('Date') ?? '');
      return { body: parsed as T, date: Number.isNaN(date) ? null : date };
    }
    const error = this.#error(what, response, parsed as ErrorBody | null);
    this.options.log.warning(error.message);
    throw error;
  }

  /** Settles with `request`, or rejects when the timeout fires first (a fetch or a body may ignore the signal). */
  #race<T>(request: Promise<T>, signal: AbortSignal): Promise<T> {
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      request.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  #error(what: string, response: Response, body: ErrorBody | null): SdkError {
    const status = response.status;
    const retryAfter =
      typeof body?.retry_after === 'number' ? body.retry_after : Number(response.headers.get('Retry-After')) || null;
    const retryable = status === 429 || status >= 500;
    if (typeof body?.error === 'string') {
      const description = typeof body.error_description === 'string' ? `: ${body.error_description}` : '';
      return new SdkError({
        type: ErrorType.AuthorizationFailed,
        status,
        code: body.error,
        retryable,
        retryAfter,
        message: `${what} refused: ${body.error}${description}`,
      });
    }
    const code = typeof body?.code === 'number' ? body.code : null;
    const fields = fieldErrors(body?.errors);
    const detail = typeof body?.message === 'string' ? body.message : `HTTP ${status}`;
    const message = `${what} failed with ${status}${code !== null ? ` (${code})` : ''}: ${detail}${fields.length ? ` - ${fields.join('; ')}` : ''}`;
    return new SdkError({ type: ErrorType.HTTPError, status, code, retryable, retryAfter, message });
  }
}
