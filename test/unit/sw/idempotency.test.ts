// @vitest-environment node
/**
 * Each changing request is applied once: a request the browser dispatches again to a restarted
 * service worker (same client, method, URL and body, its first worker gone) gets the first answer
 * and is not applied twice; a client's retry with the same Idempotency-Key likewise.
 */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../sw/app';
import { IDEMPOTENCY_KEY_TTL_MS, KeptAnswers, type WorkerStarts } from '../../../sw/idempotency';
import { createTestClient, createWorld, type TestClient } from '../app-harness';

/** The same app's context behind a second start of the worker (`running`: the starts still alive). */
function start(client: TestClient, id: string, running: string[] = []) {
  const starts: WorkerStarts = { current: id, isRunning: (other) => running.includes(other) };
  const app = buildApp(client.app.ctx, undefined, { starts });
  return (path: string, init: RequestInit & { clientId?: string }) =>
    app.fetch(new Request(`http://platform.test${path}`, init), { clientId: init.clientId });
}

async function lobbyWithAlice() {
  const client = await createTestClient();
  const world = await createWorld(client);
  const lobby = (await client.put('/api/v10/lobbies', { secret: 'once' }, world.aliceAuth)).body;
  const post = (content: string) => ({
    method: 'POST',
    headers: { Authorization: world.aliceAuth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ content }),
  });
  const messages = async () =>
    (await client.get(`/api/v10/lobbies/${lobby.id}/messages`, world.aliceAuth)).body.map((m: any) => m.content);
  return { client, lobby, post, messages, path: `/api/v10/lobbies/${lobby.id}/messages` };
}

describe('a request dispatched again to a restarted service worker is applied once', () => {
  it('the same POST from the same page reaching a new start while the first is gone gets the first answer, and one message is stored', async () => {
    const { client, post, messages, path } = await lobbyWithAlice();
    const first = await start(client, 'start-a')(path, { ...post('once'), clientId: 'page-1' });
    // The first start stores its answer with its next write, or on its own a moment later.
    await expect
      .poll(async () => (await client.app.ctx.db.getAll('request_records')).every((record) => record.response))
      .toBe(true);
    const again = await start(client, 'start-b')(path, { ...post('once'), clientId: 'page-1' });
    expect(again.status).toBe(first.status);
    expect(await again.json()).toEqual(await first.json());
    expect(await messages()).toEqual(['once']);
  });

  it('a start that has written already recognizes it too: its write finds the first record, runs again and answers as the first time', async () => {
    const { client, post, messages, path } = await lobbyWithAlice();
    const first = await start(client, 'start-a')(path, { ...post('once'), clientId: 'page-1' });
    await expect
      .poll(async () => (await client.app.ctx.db.getAll('request_records')).every((record) => record.response))
      .toBe(true);
    const b = start(client, 'start-b');
    // Its first write looks for expired records; the next ones record their request without a read.
    await b(path, { ...post('first at b'), clientId: 'page-2' });
    await b(path, { ...post('second at b'), clientId: 'page-2' });
    const again = await b(path, { ...post('once'), clientId: 'page-1' });
    expect(again.status).toBe(first.status);
    expect(await again.json()).toEqual(await first.json());
    // A new request after it is applied as usual.
    const third = await b(path, { ...post('third at b'), clientId: 'page-2' });
    expect(third.status).toBe(201);
    expect(await messages()).toEqual(['third at b', 'second at b', 'first at b', 'once']);
  });

  it('records older than an Idempotency-Key is remembered are forgotten by the first write after a start; newer ones stay', async () => {
    const { client, post, path } = await lobbyWithAlice();
    const day = IDEMPOTENCY_KEY_TTL_MS;
    const old = { key: 'key:old', hash: 'old', instance: 'start-0', at: Date.now() - day - 60_000 };
    const recent = { key: 'key:recent', hash: 'recent', instance: 'start-0', at: Date.now() - day / 2 };
    await client.app.ctx.db.put('request_records', old);
    await client.app.ctx.db.put('request_records', recent);
    expect((await start(client, 'start-a')(path, { ...post('prunes'), clientId: 'page-1' })).status).toBe(201);
    const keys = (await client.app.ctx.db.getAll('request_records')).map((record) => record.key);
    expect(keys).toContain('key:recent');
    expect(keys).not.toContain('key:old');
    expect(keys).toHaveLength(2);
  });

  it('answers 409 and applies nothing when the first start stopped before its answer was kept', async () => {
    const { client, post, messages, path } = await lobbyWithAlice();
    const first = start(client, 'start-a');
    await first(path, { ...post('lost answer'), clientId: 'page-1' });
    // The first start stopped between its commit and keeping its answer.
    const records = await client.app.ctx.db.getAll('request_records');
    for (const record of records) await client.app.ctx.db.put('request_records', { ...record, response: undefined });
    const again = await start(client, 'start-b')(path, { ...post('lost answer'), clientId: 'page-1' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 0, message: expect.stringContaining('already applied') });
    expect(await messages()).toEqual(['lost answer']);
  });

  it('applies a repeat that the same start receives, a repeat while the first start still runs, another page’s, and a different body', async () => {
    const { client, post, messages, path } = await lobbyWithAlice();
    const a = start(client, 'start-a');
    await a(path, { ...post('gg'), clientId: 'page-1' });
    await a(path, { ...post('gg'), clientId: 'page-1' });
    await start(client, 'start-b', ['start-a'])(path, { ...post('gg'), clientId: 'page-1' });
    await start(client, 'start-c')(path, { ...post('gg'), clientId: 'page-2' });
    await start(client, 'start-d')(path, { ...post('gg!'), clientId: 'page-1' });
    expect(await messages()).toEqual(['gg!', 'gg', 'gg', 'gg', 'gg']);
  });

  it('the answer sent is the one kept: same status, headers and body, and a 204 is kept without a body', async () => {
    const { client, lobby, post, path } = await lobbyWithAlice();
    const a = start(client, 'start-a');
    const posted = await a(path, { ...post('kept'), clientId: 'page-1' });
    expect(posted.status).toBe(201);
    expect(posted.headers.get('content-type')).toContain('application/json');
    const sent = await posted.json();
    expect(sent).toMatchObject({ content: 'kept', lobby_id: lobby.id });
    const auth = (post('x').headers as Record<string, string>).Authorization;
    const leave = { method: 'DELETE', headers: { Authorization: auth }, clientId: 'page-1' };
    const left = await a(`/api/v10/lobbies/${lobby.id}/members/@me`, leave);
    expect(left.status).toBe(204);
    expect(await left.text()).toBe('');
    await expect
      .poll(async () => (await client.app.ctx.db.getAll('request_records')).filter((r) => r.response).length)
      .toBe(2);
    const records = await client.app.ctx.db.getAll('request_records');
    expect(records.map((r) => r.response?.status).sort()).toEqual([201, 204]);
    expect(JSON.parse(records.find((r) => r.response?.status === 201)?.response?.body ?? '')).toEqual(sent);
    const again = await start(client, 'start-b')(`/api/v10/lobbies/${lobby.id}/members/@me`, leave);
    expect(again.status).toBe(204);
    expect(await again.text()).toBe('');
  });

  it("an answer waits for the next request's write to be stored with it, or is stored on its own a moment later", async () => {
    const { client } = await lobbyWithAlice();
    const answers = new KeptAnswers(client.app.ctx, 50);
    const record = (key: string) => ({
      key,
      hash: key,
      instance: 'start-a',
      at: 0,
      response: { status: 200, headers: [], body: key },
    });
    answers.add(record('a'));
    answers.add(record('b'));
    expect(
      answers.take().map((r) => r.key),
      'what the next write carries',
    ).toEqual(['a', 'b']);
    expect(answers.take()).toEqual([]);
    answers.restore([record('a')]);
    expect(await client.app.ctx.db.getAll('request_records')).toEqual([]);
    await expect.poll(async () => (await client.app.ctx.db.getAll('request_records')).map((r) => r.key)).toEqual(['a']);
  });

  it('the route still reads a body the fingerprint read first: JSON and multipart alike', async () => {
    const { client, post, messages, path } = await lobbyWithAlice();
    const a = start(client, 'start-a');
    expect((await a(path, { ...post('json read twice'), clientId: 'page-1' })).status).toBe(201);
    expect(await messages()).toEqual(['json read twice']);
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2])], { type: 'image/png' }), 'a.png');
    const auth = (post('x').headers as Record<string, string>).Authorization;
    const uploaded = await a('/api/v10/rpc/image-uploads', {
      method: 'POST',
      headers: { Authorization: auth },
      body: form,
      clientId: 'page-1',
    });
    expect(uploaded.status).toBe(201);
  });

  it('reads, failed requests and requests outside a service worker (no client) are not recorded', async () => {
    const { client, post, path } = await lobbyWithAlice();
    const a = start(client, 'start-a');
    await a(path, { method: 'GET', headers: post('x').headers, clientId: 'page-1' });
    await a(path, { ...post(''), clientId: 'page-1' });
    await client.post(path, { content: 'no client' }, (post('x').headers as Record<string, string>).Authorization);
    expect(await client.app.ctx.db.getAll('request_records')).toEqual([]);
  });
});

describe('Idempotency-Key: a retried request is applied once', () => {
  it('a retry with the same key gets the first answer; the key on a different request is 422 and stores nothing', async () => {
    const { client, post, messages, path } = await lobbyWithAlice();
    const a = start(client, 'start-a');
    const keyed = (content: string) => ({
      ...post(content),
      headers: { ...(post(content).headers as Record<string, string>), 'Idempotency-Key': 'k-1' },
    });
    const first = await a(path, keyed('hello'));
    // At once: the first answer is not stored yet, and the same start answers from memory.
    const retry = await a(path, keyed('hello'));
    expect(await retry.json()).toEqual(await first.json());
    const other = await a(path, keyed('a different message'));
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ code: 0 });
    expect(await messages()).toEqual(['hello']);
  });
});
