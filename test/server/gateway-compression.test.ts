/**
 * The server's gateway as bot libraries reach it (CONTRACT §4, §7): transport compression
 * (`compress=zlib-stream`: one zlib stream per connection, each payload a binary message ending
 * in `00 00 ff ff`), Identify's payload compression (`compress: true`), and the URL with a
 * trailing `/` that libraries build from `GET /gateway/bot`. The client is a real `ws` socket
 * inflating with Node's own zlib, as discord.py does with its own.
 */
import { constants, createInflate, inflateSync } from 'node:zlib';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSandbox, sandboxClient, startTestServer, type TestServer } from './server-harness';

const SUFFIX = Buffer.from([0x00, 0x00, 0xff, 0xff]);

/** A raw socket to `url`: its messages as they came (text or bytes), and its close. */
function rawSocket(url: string) {
  const socket = new WebSocket(url);
  const messages: { binary: boolean; data: Buffer }[] = [];
  socket.on('message', (data, binary) => messages.push({ binary, data: data as Buffer }));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const until = async (count: number) => {
    for (let i = 0; i < 500 && messages.length < count; i++) await new Promise((r) => setTimeout(r, 10));
    if (messages.length < count) throw new Error(`only ${messages.length} messages`);
  };
  return { socket, messages, closed, opened, until };
}

/** Inflates a zlib-stream connection's messages with one context, as a client keeps it. */
function streamInflater() {
  const inflate = createInflate();
  const payloads: any[] = [];
  let buffer = '';
  inflate.on('data', (chunk: Buffer) => (buffer += chunk.toString('utf8')));
  const feed = (message: Buffer) =>
    new Promise<any>((resolve) => {
      inflate.write(message);
      inflate.flush(constants.Z_SYNC_FLUSH, () => {
        const payload = JSON.parse(buffer);
        buffer = '';
        payloads.push(payload);
        resolve(payload);
      });
    });
  return { feed, payloads };
}

const identify = (token: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    op: 2,
    d: { token, intents: 1, properties: { os: 'linux', browser: 'test', device: 'test' }, ...extra },
  });

describe('gateway compression and URLs on the server', () => {
  let server: TestServer;
  let base: string;
  let botToken: string;

  beforeAll(async () => {
    server = await startTestServer();
    base = freshSandbox(server.url);
    const api = sandboxClient(base);
    const owner = (await api.post('/sandbox/users', { username: 'owner' })).body.user;
    botToken = (await api.post('/sandbox/applications', { name: 'Bot', owner_id: owner.id })).body.bot_token;
  });

  afterAll(async () => {
    await server?.stop();
  });

  const gatewayUrl = (path = '/gateway') => `${base.replace('http', 'ws')}${path}`;

  it('compress=zlib-stream: every payload is one binary message ending in 00 00 ff ff, inflated with one context', async () => {
    const ws = rawSocket(`${gatewayUrl()}?v=10&encoding=json&compress=zlib-stream`);
    await ws.until(1);
    const inflater = streamInflater();
    const hello = await inflater.feed(ws.messages[0].data);
    expect(ws.messages[0].binary).toBe(true);
    expect(ws.messages[0].data.subarray(-4)).toEqual(SUFFIX);
    expect(hello.op).toBe(10);
    ws.socket.send(identify(botToken));
    ws.socket.send(JSON.stringify({ op: 1, d: null }));
    await ws.until(3);
    for (const message of ws.messages.slice(1)) {
      expect(message.binary).toBe(true);
      expect(message.data.subarray(-4)).toEqual(SUFFIX);
      await inflater.feed(message.data);
    }
    const ops = inflater.payloads.map((p) => (p.op === 0 ? p.t : p.op));
    expect(ops).toContain('READY');
    expect(ops).toContain(11);
    // The second message continues the first's stream: alone it does not inflate.
    expect(() => inflateSync(ws.messages[1].data)).toThrow();
    ws.socket.close(1000);
    await ws.closed;
  });

  it("Identify's compress: true: each payload after it is a zlib stream of its own, as a binary message", async () => {
    const ws = rawSocket(`${gatewayUrl()}/?v=10&encoding=json`);
    await ws.until(1);
    expect(ws.messages[0].binary).toBe(false);
    ws.socket.send(identify(botToken, { compress: true }));
    await ws.until(2);
    const ready = ws.messages[1];
    expect(ready.binary).toBe(true);
    const payload = JSON.parse(inflateSync(ready.data).toString('utf8'));
    expect(payload.t).toBe('READY');
    ws.socket.send(JSON.stringify({ op: 1, d: null }));
    await ws.until(3);
    expect(JSON.parse(inflateSync(ws.messages[2].data).toString('utf8')).op).toBe(11);
    ws.socket.close(1000);
    await ws.closed;
  });

  it('an unknown or unoffered compression (zstd-stream, gzip) closes with 4002 naming what is offered', async () => {
    for (const compress of ['zstd-stream', 'gzip']) {
      const ws = rawSocket(`${gatewayUrl()}?v=10&encoding=json&compress=${compress}`);
      const closed = await ws.closed;
      expect(closed.code, compress).toBe(4002);
      expect(closed.reason).toContain('zlib-stream');
    }
  });

  it('/gateway/ with a trailing slash is the gateway; /voice/ the voice gateway', async () => {
    const ws = rawSocket(`${gatewayUrl('/gateway/')}?v=10&encoding=json`);
    await ws.opened;
    await ws.until(1);
    expect(JSON.parse(ws.messages[0].data.toString('utf8')).op).toBe(10);
    ws.socket.close(1000);
    await ws.closed;
    const voice = rawSocket(`${gatewayUrl('/voice/')}?v=8`);
    await voice.opened;
    await voice.until(1);
    expect(JSON.parse(voice.messages[0].data.toString('utf8')).op).toBe(8);
    voice.socket.close(1000);
    await voice.closed;
  });

  it('/api/v9 is the same API on the server: GET /api/v9/gateway/bot answers as /api/v10', async () => {
    const api = sandboxClient(base);
    const v9 = await api.get('/api/v9/gateway/bot', `Bot ${botToken}`);
    const v10 = await api.get('/api/v10/gateway/bot', `Bot ${botToken}`);
    expect(v9.status).toBe(200);
    expect(v9.body).toEqual(v10.body);
  });
});
