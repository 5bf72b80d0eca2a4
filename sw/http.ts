/**
 * The HTTP edge shared by every route module: the hono environment, reading and validating
 * request bodies, queries and path parameters (ARCHITECTURE rule 4) with the schemas of the
 * platform's areas (`src/platform/<area>/schemas.ts`), and turning errors into responses.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import type { BearerPrincipal, BotPrincipal, Principal } from '../src/platform/oauth2/auth';
import { requireBearer, requireBot } from '../src/platform/oauth2/auth';
import type { PlatformContext } from '../src/platform/core/context';
import { ApiError, OAuth2Error } from '../src/platform/core/errors';
import { holdsExactIntegers, parseExactJson, withPlainNumbers } from '../src/platform/core/exact-json';
import { JSON_BODY_MAX_BYTES, JSON_BODY_MAX_DEPTH } from '../src/platform/core/limits';
import { redactSecrets } from '../src/platform/core/secrets';
import { snowflakeSchema } from '../src/platform/core/schema-parts';

/** The hono environment of the platform app. */
export interface AppEnv {
  Variables: { ctx: PlatformContext; principal: Principal; publicOrigin: string };
  /**
   * What the host tells about a request: the FetchEvent's client in the service worker;
   * `internal` for the app's calls to itself (deliveries to its own webhook sinks).
   */
  Bindings: { clientId?: string; internal?: boolean } | undefined;
}

/** A hono context of the platform app. */
export type AppContext = Context<AppEnv>;

/**
 * The caller of a route the access table opens to bots only, typed as a bot (the table has
 * already refused anyone else; this only narrows the type, and would refuse if the two disagreed).
 * @example const bot = botOf(c);
 */
export function botOf(c: AppContext): BotPrincipal {
  const principal = c.get('principal');
  requireBot(principal);
  return principal;
}

/**
 * The caller of a route the access table opens to users' OAuth2 tokens only, typed as such.
 * @example const caller = bearerOf(c);
 */
export function bearerOf(c: AppContext): BearerPrincipal {
  const principal = c.get('principal');
  requireBearer(principal);
  return principal;
}

/**
 * Where the platform is reached, as absolute URLs it hands out start: the request's origin, and
 * on a server with several sandboxes the sandbox's path (`http://host/s/team-a`).
 * @example const url = publicOrigin(c) + attachmentPath(channelId, id, name);
 */
export function publicOrigin(c: AppContext): string {
  return c.get('publicOrigin') ?? new URL(c.req.url).origin;
}

/** A valibot schema of any kind. */
type AnySchema = v.GenericSchema;

/** Turns valibot issues into a 400 / 50035 naming each field. */
export function invalidFormFromIssues(issues: readonly v.BaseIssue<unknown>[]): ApiError {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path = v.getDotPath(issue) ?? '_root';
    fields[path] ??= issue.message;
  }
  return ApiError.invalidForm(fields);
}

/**
 * Validates `input` with `schema`; a failure is a 400 / 50035 naming every bad field.
 * @example const body = validate(CreateLobbySchema, json);
 */
export function validate<S extends AnySchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (!result.success) throw invalidFormFromIssues(result.issues);
  // A large integer the schema did not read as an id (a free-form field) is kept as the number
  // it always was: no bigint reaches the store or an answer.
  return holdsExactIntegers(input) ? withPlainNumbers(result.output) : result.output;
}

/**
 * Whether JSON text nests arrays and objects deeper than `max`, read in one pass over the text
 * (brackets inside strings do not count), before anything parses it.
 */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: the next character is escaped
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > max) return true;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return false;
}

/**
 * Parses a JSON request body. Not JSON is 400 / 50109; over `maxBytes` is 413; nested deeper
 * than {@link JSON_BODY_MAX_DEPTH} is 400 / 50035; an empty body is `{}`, so schemas with only
 * optional fields accept it. An integer beyond 2^53 is read exactly (`parseExactJson`), so that
 * an id sent as a JSON number keeps its digits.
 * @example const json = parseJsonBody(form.get('payload_json'));
 */
export function parseJsonBody(text: string, maxBytes = JSON_BODY_MAX_BYTES): unknown {
  if (new TextEncoder().encode(text).byteLength > maxBytes) throw ApiError.of('REQUEST_TOO_LARGE');
  if (text.trim() === '') return {};
  if (nestsDeeperThan(text, JSON_BODY_MAX_DEPTH)) {
    throw ApiError.invalidForm({
      _root: `The body nests arrays and objects more than ${JSON_BODY_MAX_DEPTH} levels deep.`,
    });
  }
  try {
    return parseExactJson(text);
  } catch {
    throw ApiError.of('INVALID_JSON');
  }
}

/**
 * Reads the request's JSON body ({@link parseJsonBody}) and validates it: a body that is not what
 * the schema takes, at its top (an array for an object) or in any nested field, is 400 / 50035
 * naming the field.
 */
export async function readJson<S extends AnySchema>(c: AppContext, schema: S): Promise<v.InferOutput<S>> {
  // Decoded from the bytes the request's body cache holds (the exactly-once guard read them):
  // `c.req.text()` would wrap them in a new Response and read that stream, about 50 µs more.
  const text = UTF8.decode(await c.req.arrayBuffer());
  return validate(schema, parseJsonBody(text));
}

/** Decodes request bodies as `Request.text()` does: UTF-8, a leading BOM dropped, bad bytes replaced. */
const UTF8 = new TextDecoder();

/** Validates the request's query string (every value a string). */
export function readQuery<S extends AnySchema>(c: AppContext, schema: S): v.InferOutput<S> {
  return validate(schema, c.req.query());
}

/** Characters of an audit log reason the platform keeps. */
const AUDIT_LOG_REASON_MAX = 512;

/**
 * The `X-Audit-Log-Reason` header (URL-encoded, as the platform's libraries send it), or null:
 * the reason an audit log entry and a ban record.
 */
export function auditLogReason(c: AppContext): string | null {
  const raw = c.req.header('X-Audit-Log-Reason');
  if (!raw) return null;
  let reason = raw;
  try {
    reason = decodeURIComponent(raw);
  } catch {
    // Not URL-encoded: kept as sent.
  }
  return reason.slice(0, AUDIT_LOG_REASON_MAX) || null;
}

/** A 204 with no body. */
export function noContent(): Response {
  return new Response(null, { status: 204 });
}

/**
 * The response for anything a route threw. API and OAuth2 errors are the client's; an
 * IndexedDB quota error is the browser's (507); anything else is a bug: logged with secrets
 * redacted and answered 500.
 */
export function errorResponse(error: unknown, log: (line: string) => void = console.error): Response {
  if (error instanceof ApiError) {
    const headers: Record<string, string> = {};
    if (error.retryAfter !== undefined) headers['Retry-After'] = String(Math.ceil(error.retryAfter));
    return Response.json(error.toJSON(), { status: error.status, headers });
  }
  if (error instanceof OAuth2Error) {
    return Response.json(error.toJSON(), { status: error.status, headers: { 'Cache-Control': 'no-store' } });
  }
  if (error instanceof DOMException && error.name === 'QuotaExceededError') {
    return Response.json(
      { code: 0, message: 'The browser refused to store more data (storage quota exceeded).' },
      { status: 507 },
    );
  }
  const detail = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
  log(redactSecrets(`platformpp: internal error: ${detail}`));
  return Response.json({ code: 0, message: '500: Internal Server Error' }, { status: 500 });
}

const paramSchemas = new Map<string, AnySchema>();

/**
 * The path parameter `name`, which must be a snowflake: a 400 / 50035 naming it otherwise.
 * @example const userId = snowflakeParam(c, 'user_id');
 */
export function snowflakeParam(c: AppContext, name: string): string {
  let schema = paramSchemas.get(name);
  if (!schema) paramSchemas.set(name, (schema = v.object({ [name]: snowflakeSchema })));
  return (validate(schema, c.req.param()) as Record<string, string>)[name];
}
