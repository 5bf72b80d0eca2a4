// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { FIXTURE_SET_VALUE_MAX_BYTES } from '../../../src/platform/core/limits';
import { createTestClient } from '../app-harness';

const WORLD = { version: 3, users: [{ id: '1', username: 'alice' }], guild: { id: '2' } };

describe('fixture sets (sandbox control API: /sandbox/fixture-sets/{name})', () => {
  it('PUT creates a fixture set (201), GET reads it back, PUT again replaces it (200)', async () => {
    const client = await createTestClient();
    const created = await client.put('/sandbox/fixture-sets/demo-world', { value: WORLD });
    expect(created.status).toBe(201);
    expect(created.body.fixture_set).toEqual({ name: 'demo-world', value: WORLD, updated_at: expect.any(String) });
    const read = await client.get('/sandbox/fixture-sets/demo-world');
    expect([read.status, read.body.fixture_set.value]).toEqual([200, WORLD]);
    const replaced = await client.put('/sandbox/fixture-sets/demo-world', { value: { version: 4 } });
    expect([replaced.status, replaced.body.fixture_set.value]).toEqual([200, { version: 4 }]);
    expect(await client.db.count('fixture_sets')).toBe(1);
  });

  it('If-None-Match: * creates only when there is none: else 412, and the first one stays', async () => {
    const client = await createTestClient();
    const headers = { 'If-None-Match': '*' };
    const first = await client.request('PUT', '/sandbox/fixture-sets/w', { body: { value: { by: 'a' } }, headers });
    expect(first.status).toBe(201);
    const second = await client.request('PUT', '/sandbox/fixture-sets/w', { body: { value: { by: 'b' } }, headers });
    expect([second.status, second.body.code]).toEqual([412, 0]);
    expect((await client.get('/sandbox/fixture-sets/w')).body.fixture_set.value).toEqual({ by: 'a' });
  });

  it('an unknown fixture set is 404; DELETE forgets one (204), then it is unknown', async () => {
    const client = await createTestClient();
    const unknown = await client.get('/sandbox/fixture-sets/nothing-here');
    expect([unknown.status, unknown.body]).toEqual([404, { code: 0, message: 'Unknown Fixture Set' }]);
    await client.put('/sandbox/fixture-sets/gone', { value: {} });
    expect((await client.delete('/sandbox/fixture-sets/gone')).status).toBe(204);
    expect((await client.get('/sandbox/fixture-sets/gone')).status).toBe(404);
    expect((await client.delete('/sandbox/fixture-sets/gone')).status).toBe(404);
  });

  it('a bad name, a value that is no object, or one over 64 KiB is 400 (50035) naming the field, and stores nothing', async () => {
    const client = await createTestClient();
    const badName = await client.put('/sandbox/fixture-sets/Not_Lower', { value: {} });
    expect([badName.status, badName.body.code, Object.keys(badName.body.errors)]).toEqual([400, 50035, ['name']]);
    for (const value of [[1, 2], 'text', null, { big: 'x'.repeat(FIXTURE_SET_VALUE_MAX_BYTES) }]) {
      const res = await client.put('/sandbox/fixture-sets/ok', { value });
      expect([res.status, res.body.code, Object.keys(res.body.errors)]).toEqual([400, 50035, ['value']]);
    }
    expect(await client.db.count('fixture_sets')).toBe(0);
  });

  it('a reset empties the fixture sets with everything else', async () => {
    const client = await createTestClient();
    await client.put('/sandbox/fixture-sets/demo-world', { value: WORLD });
    expect((await client.post('/sandbox/reset')).status).toBe(204);
    expect((await client.get('/sandbox/fixture-sets/demo-world')).status).toBe(404);
  });
});
