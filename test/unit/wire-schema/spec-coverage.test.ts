// @vitest-environment node
/**
 * `docs/spec-coverage.md` says how many operations of the official description the server
 * knows, generated from the access table and the installed description
 * (PLATFORMPP_WRITE_DOCS=1, or `npm run docs:coverage`, rewrites it), and holds the schema
 * check's exception list, each row of which names a real operation of the description.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { coverageByFamily, renderCoverage, withCoverage } from './coverage-doc';
import { readOfficialOperations } from './official-operations';
import { excuses, readSchemaExceptions, SPEC_COVERAGE_DOC } from './schema-exceptions';

describe('docs/spec-coverage.md', () => {
  it('shows per family how many official operations the server knows, as the route table and the description say (PLATFORMPP_WRITE_DOCS=1 writes it)', async () => {
    const page = await readFile(SPEC_COVERAGE_DOC, 'utf8');
    const expected = withCoverage(page, renderCoverage());
    if (process.env.PLATFORMPP_WRITE_DOCS === '1') await writeFile(SPEC_COVERAGE_DOC, expected);
    expect(await readFile(SPEC_COVERAGE_DOC, 'utf8')).toBe(expected);
  });

  it('counts an operation as known whatever its parameters are named, and by method', () => {
    const operations = readOfficialOperations();
    const families = coverageByFamily(operations, ['GET /lobbies/:id', 'POST /webhooks/:application_id/:token']);
    const known = families.flatMap((f) => f.operations.filter((o) => o.known).map((o) => o.operation));
    expect(known.map((o) => `${o.method} ${o.template}`).sort()).toEqual([
      'get /lobbies/{lobby_id}',
      'post /webhooks/{webhook_id}/{webhook_token}',
    ]);
    expect(families.reduce((n, f) => n + f.operations.length, 0)).toBe(operations.length);
  });

  it('keeps a short exception list whose every row names an operation of the description', () => {
    const exceptions = readSchemaExceptions();
    expect(exceptions.length).toBeGreaterThan(0);
    expect(exceptions.length).toBeLessThanOrEqual(10);
    const names = new Set(readOfficialOperations().map((o) => `${o.method.toUpperCase()} ${o.template}`));
    for (const e of exceptions) {
      if (e.operation !== '*') expect(names, e.operation).toContain(e.operation);
      expect(e.why.length, e.operation).toBeGreaterThan(20);
    }
  });

  it('excuses only the field a row names (or what lies below a `.**` row)', () => {
    const row = { operation: 'GET /users/@me', field: 'locale', why: '' };
    expect(excuses(row, 'GET /users/@me', 'locale')).toBe(true);
    expect(excuses(row, 'GET /users/@me', 'flags')).toBe(false);
    expect(excuses(row, 'GET /users/{user_id}', 'locale')).toBe(false);
    const tree = { operation: '*', field: 'errors.**', why: '' };
    expect(excuses(tree, 'POST /lobbies', 'errors.limit._errors')).toBe(true);
    expect(excuses(tree, 'POST /lobbies', 'errorsx')).toBe(false);
    expect(excuses(tree, 'POST /lobbies', 'message')).toBe(false);
    const anywhere = { operation: '*', field: '**.message_reference.type', why: '' };
    expect(excuses(anywhere, 'GET /x', 'message_reference.type')).toBe(true);
    expect(excuses(anywhere, 'GET /x', '[].message_reference.type')).toBe(true);
    expect(excuses(anywhere, 'GET /x', 'referenced_message.message_reference.type')).toBe(true);
    expect(excuses(anywhere, 'GET /x', 'message_reference.message_id')).toBe(false);
  });
});
