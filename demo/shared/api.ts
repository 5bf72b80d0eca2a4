/**
 * The platform's HTTP API as the demo calls it: JSON in and out, one Authorization header, and
 * every refusal turned into an {@link ApiRequestError} whose message says in words what the
 * platform answered, so the page can show it instead of swallowing it.
 */

/** The platform refused a request (or could not be reached). */
export class ApiRequestError extends Error {
  constructor(
    /** `GET /lobbies/…`: what was asked. */
    readonly request: string,
    /** The HTTP status, or 0 when no answer came. */
    readonly status: number,
    /** The platform's error code (`code` of the JSON body), when it gave one. */
    readonly code: number | string | null,
    message: string,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

/** Collects `field.sub: message` lines from the platform's field error tree (`{"field": {"_errors": [...]}}`). */
function fieldErrors(tree: unknown, path: string[] = []): string[] {
  if (!tree || typeof tree !== 'object') return [];
  const lines: string[] = [];
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    if (key === '_errors' && Array.isArray(value)) {
      for (const e of value)
        lines.push(`${path.join('.') || 'body'}: ${(e as { message?: string }).message ?? 'invalid'}`);
    } else lines.push(...fieldErrors(value, [...path, key]));
  }
  return lines;
}

/**
 * The words for a refusal: the platform's message, the fields it names, status and code.
 * @example describeRefusal(400, { code: 50035, message: 'Invalid Form Body', errors: {...} })
 * // 'Invalid Form Body: secret: This field is required (HTTP 400, code 50035)'
 */
export function describeRefusal(status: number, body: unknown): { message: string; code: number | string | null } {
  const json = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const code =
    typeof json.code === 'number' || typeof json.code === 'string'
      ? json.code
      : typeof json.error === 'string'
        ? json.error
        : null;
  let text =
    typeof json.message === 'string'
      ? json.message
      : typeof json.error_description === 'string'
        ? json.error_description
        : typeof body === 'string' && body
          ? body
          : 'no explanation given';
  const fields = fieldErrors(json.errors);
  if (fields.length > 0) text += `: ${fields.join('; ')}`;
  if (typeof json.retry_after === 'number') text += ` (retry after ${json.retry_after} s)`;
  return { message: `${text} (HTTP ${status}${code !== null ? `, code ${code}` : ''})`, code };
}

/** Reads a response: its JSON (or text) when it is a success, else an {@link ApiRequestError}. */
export async function readAnswer<T>(request: string, response: Response): Promise<T> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON: keep the text, it is what the platform said.
  }
  if (!response.ok) {
    const { message, code } = describeRefusal(response.status, body);
    throw new ApiRequestError(request, response.status, code, `${request} was refused: ${message}`);
  }
  return body as T;
}

/**
 * An API client for one caller.
 * @example
 * const api = new ApiClient(`Bearer ${token}`);
 * const lobby = await api.put('/lobbies', { secret: 'cafe-lounge' });
 */
export class ApiClient {
  constructor(
    /** The Authorization header (`Bearer <token>` or `Bot <token>`), or a function giving the current one. */
    private readonly authorization: string | (() => string),
    /** The API base: `/api/v10`, or `/.proxy/api/v10` inside an activity. */
    readonly base = '/api/v10',
    /**
     * Called once when the platform answers 401, before the request is tried again: a token
     * dated by the sandbox clock expires when the clock moves on, and the caller may get a new one.
     */
    private readonly renew?: () => Promise<void>,
  ) {}

  get<T>(path: string): Promise<T> {
    return this.#call('GET', path);
  }

  put<T>(path: string, body?: unknown): Promise<T> {
    return this.#call('PUT', path, body);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.#call('POST', path, body);
  }

  patch<T>(path: string, body?: unknown): Promise<T> {
    return this.#call('PATCH', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.#call('DELETE', path);
  }

  async #call<T>(method: string, path: string, body?: unknown, renewed = false): Promise<T> {
    const request = `${method} ${path}`;
    const authorization = typeof this.authorization === 'function' ? this.authorization() : this.authorization;
    const headers: Record<string, string> = { Authorization: authorization };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(this.base + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      // The service worker answers the API; no answer at all means it is not running here.
      const reason = error instanceof Error ? error.message : String(error);
      throw new ApiRequestError(request, 0, null, `${request} got no answer: ${reason}`);
    }
    if (response.status === 401 && this.renew && !renewed) {
      await this.renew();
      return this.#call(method, path, body, true);
    }
    return readAnswer<T>(request, response);
  }
}
