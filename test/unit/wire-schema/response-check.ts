/**
 * Every answer against the platform's official API description: the request's concrete path is
 * matched to the description's path template (`/api`, `/api/v9`, `/api/v10` and the activity
 * proxy's `/.proxy` cut first), and the body is parsed with the zod schema of that template,
 * method and status. The schemas are non-strict, so fields the description does not name are
 * allowed. Where our documented behaviour is right and the description is stricter than the
 * platform, the exception list of `docs/spec-coverage.md` says so, and the issues it names pass.
 */
import { appendFileSync } from 'node:fs';
import type * as z from 'zod/mini';
import {
  type OfficialMethod,
  type OfficialOperation,
  readOfficialOperations,
  schemaOfType,
} from './official-operations';
import { excuses, readSchemaExceptions, type SchemaException } from './schema-exceptions';

/** One operation with the matcher of its template. */
interface Route {
  operation: OfficialOperation;
  pattern: RegExp;
  /** Literal segments: the more, the more specific (`/users/@me` before `/users/{user_id}`). */
  literals: number;
}

let routes: Route[] | undefined;
let exceptions: SchemaException[] | undefined;
const schemas = new Map<string, z.ZodMiniType>();

/** The description's operations with their matchers, most specific first. */
function officialRoutes(): Route[] {
  routes ??= readOfficialOperations()
    .map((operation) => {
      const segments = operation.template.split('/').slice(1);
      const source = segments
        .map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      return {
        operation,
        pattern: new RegExp(`^/${source}$`),
        literals: segments.filter((s) => !s.startsWith('{')).length,
      };
    })
    .sort((a, b) => b.literals - a.literals);
  return routes;
}

/** The path below `{base_url}`, or undefined for a path that is not the platform's API. */
export function apiPathOf(url: string): string | undefined {
  let path = new URL(url, 'http://platform.test').pathname.replace(/^\/\.proxy(?=\/)/, '');
  const api = /^\/api(?:\/v\d+)?(?=\/)/.exec(path);
  if (api) return path.slice(api[0].length);
  // The OAuth2 routes are also served at the root (docs/scopes.md).
  return path.startsWith('/oauth2/') ? path : undefined;
}

/** The official operation a request is, or undefined when the description has none. */
export function operationOf(method: string, url: string): OfficialOperation | undefined {
  const path = apiPathOf(url);
  if (path === undefined) return undefined;
  const wanted = method.toLowerCase() as OfficialMethod;
  return officialRoutes().find((r) => r.operation.method === wanted && r.pattern.test(path))?.operation;
}

/** The status key of the description an answer's status falls under (`"200"`, `"4XX"`), if any. */
function statusKeyOf(operation: OfficialOperation, status: number): string | undefined {
  const exact = String(status);
  if (operation.responses[exact]) return exact;
  const range = `${exact[0]}XX`;
  return operation.responses[range] ? range : undefined;
}

/** The schema of one response type expression, built once. */
function schemaOf(type: string): z.ZodMiniType {
  let schema = schemas.get(type);
  if (!schema) schemas.set(type, (schema = schemaOfType(type)));
  return schema;
}

/** An issue's path as the exception list writes it: `author.public_flags`, `[].flags`. */
const issuePath = (path: PropertyKey[]) =>
  path
    .map((p) => (typeof p === 'number' ? '[]' : String(p)))
    .join('.')
    .replace(/\.\[\]/g, '[]');

/** What a mismatch says: the operation, the status and each issue with its field. */
export interface SchemaMismatch {
  operation: string;
  status: number;
  issues: string[];
}

/**
 * Checks one answer. Returns undefined when it matches the description (or the description has
 * no such operation), else what is wrong: an undescribed success status, or the zod issues that
 * the exception list does not excuse. With `PLATFORMPP_SCHEMA_TALLY` set to a file, each checked
 * answer appends a line to it, for the figures of `docs/spec-coverage.md`.
 */
export function checkAnswer(method: string, url: string, status: number, body: unknown, json: boolean) {
  const operation = operationOf(method, url);
  if (!operation) return undefined;
  const name = `${operation.method.toUpperCase()} ${operation.template}`;
  const key = statusKeyOf(operation, status);
  let mismatch: SchemaMismatch | undefined;
  if (!key) {
    if (status < 300) {
      const described = Object.keys(operation.responses).filter((s) => s.startsWith('2'));
      mismatch = { operation: name, status, issues: [`status ${status} is not described (${described.join(', ')})`] };
    }
  } else if (json && body !== null) {
    const result = schemaOf(operation.responses[key]).safeParse(body);
    if (!result.success) {
      exceptions ??= readSchemaExceptions();
      const issues = flatIssues(result.error.issues)
        .map((issue) => ({ field: issuePath(issue.path), issue }))
        .filter(({ field }) => !exceptions?.some((e) => excuses(e, name, field)))
        .map(({ field, issue }) => `${field || '(body)'}: ${issue.message} (${issue.code}${expectedOf(issue)})`);
      if (issues.length) mismatch = { operation: name, status, issues };
    }
  }
  const tally = process.env.PLATFORMPP_SCHEMA_TALLY;
  if (tally)
    appendFileSync(tally, `${JSON.stringify({ operation: name, status, ok: !mismatch, issues: mismatch?.issues })}\n`);
  return mismatch;
}

/** What a zod issue expected, when it says. */
const expectedOf = (issue: z.core.$ZodIssue) => ('expected' in issue ? `, expected ${String(issue.expected)}` : '');

/**
 * Issues with a union's failure replaced by the issues of its closest member (the one with the
 * fewest), each with its full path: "`author.public_flags` missing" rather than "invalid union".
 */
function flatIssues(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[] = []): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ ...issue, path }];
    // A member of another type, or whose own tag (`type`) is the wrong literal, is the wrong member.
    const distance = (branch: z.core.$ZodIssue[]) =>
      branch.length +
      100 * branch.filter((i) => i.path.length <= 1 && i.code === 'invalid_value').length +
      100 * branch.filter((i) => i.path.length === 0 && i.code === 'invalid_type').length;
    const closest = issue.errors.reduce((a, b) => (distance(b) < distance(a) ? b : a));
    return flatIssues(closest, path);
  });
}
