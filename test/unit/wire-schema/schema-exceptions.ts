/**
 * The exception list of `docs/spec-coverage.md`: the fields where our documented behaviour is
 * right and the official description is stricter than the platform itself. The schema check
 * reads the list from the page, so the page and the check cannot drift apart.
 */
import { readFileSync } from 'node:fs';

/** Where the page is. */
export const SPEC_COVERAGE_DOC = 'docs/spec-coverage.md';

/** The heading of the list in the page. */
export const EXCEPTIONS_HEADING = '## Where the description is stricter than the platform';

/** One excused field of one operation's answer. */
export interface SchemaException {
  /** `GET /users/@me`, as the description writes the path; `*` for every operation. */
  operation: string;
  /**
   * The field's path in the body as the check names it (`author.public_flags`, `[].flags`);
   * ending in `.**`, the field and everything below it; starting with `**.`, that field
   * wherever it is (`**.message_reference.type`: at the top, or in every message of a list).
   */
  field: string;
  why: string;
}

/** The rows of the list's table (`| \`operation\` | \`field\` | why |`). */
export function readSchemaExceptions(page = readFileSync(SPEC_COVERAGE_DOC, 'utf8')): SchemaException[] {
  const start = page.indexOf(EXCEPTIONS_HEADING);
  if (start < 0) return [];
  const section = page.slice(start + EXCEPTIONS_HEADING.length).split(/\n## /)[0];
  return section
    .split('\n')
    .map((line) => /^\| `(\*|[A-Z]+ [^`]+)` \| `([^`]*)` \| (.+) \|$/.exec(line))
    .filter((row) => row !== null)
    .map(([, operation, field, why]) => ({ operation, field, why }));
}

/** Whether an exception excuses an issue at `field` of an answer of `operation`. */
export function excuses(exception: SchemaException, operation: string, field: string): boolean {
  if (exception.operation !== '*' && exception.operation !== operation) return false;
  if (exception.field.startsWith('**.')) {
    const suffix = exception.field.slice(3);
    return field === suffix || field.endsWith(`.${suffix}`) || field.endsWith(`]${suffix}`);
  }
  if (!exception.field.endsWith('.**')) return exception.field === field;
  const below = exception.field.slice(0, -3);
  return field === below || field.startsWith(`${below}.`) || field.startsWith(`${below}[]`);
}
