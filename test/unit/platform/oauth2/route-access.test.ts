// @vitest-environment node
/**
 * The access table is the app's: it names every route the app has and no other, every request
 * is checked against it before its route runs (`sw/access.ts`), and `docs/scopes.md` is
 * generated from it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { routeKeyOf } from '../../../../src/platform/oauth2/route-access';
import { accessOf, ROUTE_ACCESS } from '../../../../src/platform/oauth2/route-access-table';
import { SCOPES } from '../../../../src/platform/oauth2/scopes';
import { buildApp } from '../../../../sw/app';
import { createTestClient } from '../../app-harness';
import { renderScopesDoc, SCOPES_DOC } from './scopes-doc';

describe('the access table', () => {
  it('names every route of the app (the server host’s gateway routes included) and no other', async () => {
    const client = await createTestClient();
    const app = buildApp(client.app.ctx, undefined, { gatewayUrl: () => 'ws://platform.test/gateway' });
    const keys = new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => routeKeyOf(r.method, r.path)));
    expect([...keys].filter((key) => !accessOf(key))).toEqual([]);
    expect(Object.keys(ROUTE_ACCESS).filter((key) => !keys.has(key as never))).toEqual([]);
  });

  it('names only scopes the platform knows, and opens no route to both tokens and none', () => {
    for (const [key, access] of Object.entries(ROUTE_ACCESS)) {
      if (access.bearer !== false) for (const scope of access.bearer) expect(SCOPES, key).toContain(scope);
      if (access.open) expect([access.bot, access.bearer], key).toEqual([false, false]);
      else expect(access.bot || access.bearer !== false, key).toBe(true);
    }
  });

  it('is what docs/scopes.md says (PLATFORMPP_WRITE_DOCS=1 writes the page)', async () => {
    const page = renderScopesDoc();
    if (process.env.PLATFORMPP_WRITE_DOCS === '1') await writeFile(SCOPES_DOC, page);
    expect(await readFile(SCOPES_DOC, 'utf8')).toBe(page);
  });
});
