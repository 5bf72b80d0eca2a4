/**
 * The voice gateway on the server: a lobby call between two clients of one sandbox over real
 * WebSockets, as two machines make it. Each joins the call on the server's gateway (Voice State
 * Update), opens the voice gateway VOICE_SERVER_UPDATE names (`<sandbox>/voice`), identifies
 * with its voice token, and the server relays their peer signals and E2EE messages. The rules of
 * the browser's voice gateway hold there too: the payload limit, a token of another sandbox, the
 * voice session ending with its gateway session.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VOICE_CLOSE_CODES, VOICE_OPCODES as OP } from '../../src/gateway/voice-protocol';
import { GATEWAY_PAYLOAD_MAX_BYTES } from '../../src/platform/core/limits';
import { connectWire, identifyWire, type WireClient } from './gateway-client';
import { freshSandbox, sandboxClient, startTestServer, type TestServer } from './server-harness';

/** A sandbox with alice and bob (SDK tokens of one game) and a lobby both are members of. */
async function lobbyWorld(base: string) {
  const api = sandboxClient(base);
  const alice = (await api.post('/sandbox/users', { username: 'alice' })).body.user;
  const bob = (await api.post('/sandbox/users', { username: 'bob' })).body.user;
  const app = (await api.post('/sandbox/applications', { name: 'Game', owner_id: alice.id })).body;
  const bearer = async (user_id: string) => {
    const scopes = 'openid sdk.social_layer';
    const token = (await api.post('/sandbox/tokens', { application_id: app.application.id, user_id, scopes })).body;
    return `Bearer ${token.access_token}`;
  };
  const auth = { alice: await bearer(alice.id), bob: await bearer(bob.id) };
  const lobby = (await api.put('/api/v10/lobbies', { secret: 'call' }, auth.alice)).body;
  expect((await api.put('/api/v10/lobbies', { secret: 'call' }, auth.bob)).status).toBe(200);
  return { base, alice, bob, auth, lobby };
}

type World = Awaited<ReturnType<typeof lobbyWorld>>;

/** What a join on the gateway gave: the gateway client, and what Identify on the voice gateway needs. */
interface Join {
  main: WireClient;
  userId: string;
  sessionId: string;
  serverId: string;
  token: string;
  endpoint: string;
}

/** Identifies on the sandbox's gateway as `auth` and joins the lobby's call (Voice State Update). */
async function joinLobbyCall(world: World, auth: string): Promise<Join> {
  const main = await identifyWire(`${world.base.replace(/^http/, 'ws')}/gateway?v=10&encoding=json`, auth);
  const from = main.received.length;
  main.send({ op: 4, d: { guild_id: null, channel_id: world.lobby.id, self_mute: false, self_deaf: false } });
  const server = (await main.waitForDispatch('VOICE_SERVER_UPDATE', from)).d;
  return {
    main,
    userId: main.ready.user.id,
    sessionId: main.ready.session_id,
    serverId: world.lobby.id,
    token: server.token,
    endpoint: server.endpoint,
  };
}

/** Opens the voice gateway at `endpoint` and identifies with `join`'s token (no wait for Ready). */
async function identifyVoice(endpoint: string, join: Join): Promise<WireClient> {
  const voice = await connectWire(`${endpoint}?v=8`, OP.HELLO);
  voice.send({
    op: OP.IDENTIFY,
    d: {
      server_id: join.serverId,
      user_id: join.userId,
      session_id: join.sessionId,
      token: join.token,
      max_dave_protocol_version: 1,
    },
  });
  return voice;
}

/** Identifies, waits for Ready, selects `webrtc` and waits for the Session Description. */
async function connectCall(join: Join): Promise<WireClient & { ready: any; description: any }> {
  const voice = await identifyVoice(join.endpoint, join);
  const ready = (await voice.waitFor((p) => p.op === OP.READY)).d;
  voice.send({ op: OP.SELECT_PROTOCOL, d: { protocol: 'webrtc', data: { mode: ready.modes[0] } } });
  const description = (await voice.waitFor((p) => p.op === OP.SESSION_DESCRIPTION)).d;
  return Object.assign(voice, { ready, description });
}

describe('the voice gateway on the server: calls between clients of one sandbox', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("VOICE_SERVER_UPDATE's endpoint is the sandbox's voice gateway on the server (ws://<sandbox>/voice)", async () => {
    const world = await lobbyWorld(freshSandbox(server.url));
    const join = await joinLobbyCall(world, world.auth.alice);
    expect(join.endpoint).toBe(`${world.base.replace(/^http/, 'ws')}/voice`);
    expect(join.token).toMatch(/\S{16,}/);
    join.main.socket.close(1000);
  });

  it('two clients join one lobby call: Ready, Session Description (webrtc, opus), Clients Connect both ways', async () => {
    const world = await lobbyWorld(freshSandbox(server.url));
    const aliceJoin = await joinLobbyCall(world, world.auth.alice);
    const alice = await connectCall(aliceJoin);
    expect(alice.ready).toMatchObject({
      ssrc: expect.any(Number),
      modes: expect.arrayContaining([expect.any(String)]),
    });
    expect(alice.description).toMatchObject({ mode: alice.ready.modes[0], audio_codec: 'opus' });
    const bobJoin = await joinLobbyCall(world, world.auth.bob);
    const bob = await connectCall(bobJoin);
    expect(bob.ready.ssrc).not.toBe(alice.ready.ssrc);
    const toAlice = await alice.waitFor((p) => p.op === OP.CLIENTS_CONNECT);
    expect(toAlice.d.user_ids).toEqual([world.bob.id]);
    const toBob = await bob.waitFor((p) => p.op === OP.CLIENTS_CONNECT);
    expect(toBob.d.user_ids).toEqual([world.alice.id]);
    for (const socket of [alice, bob, aliceJoin.main, bobJoin.main]) socket.socket.close(1000);
  });

  it('relays PEER_SIGNAL (40) and E2EE_MESSAGE (41) from one client of the server to the other, unread, with the sender', async () => {
    const world = await lobbyWorld(freshSandbox(server.url));
    const aliceJoin = await joinLobbyCall(world, world.auth.alice);
    const alice = await connectCall(aliceJoin);
    const bobJoin = await joinLobbyCall(world, world.auth.bob);
    const bob = await connectCall(bobJoin);
    await alice.waitFor((p) => p.op === OP.CLIENTS_CONNECT);
    // An SDP offer is larger than the platform's 4096-byte payloads: the relay's own bound holds.
    const sdp = `v=0\r\n${'a=candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host\r\n'.repeat(120)}`;
    expect(sdp.length).toBeGreaterThan(GATEWAY_PAYLOAD_MAX_BYTES);
    alice.send({ op: OP.PEER_SIGNAL, d: { user_id: world.bob.id, signal: { type: 'offer', sdp, e2ee: true } } });
    const offer = await bob.waitFor((p) => p.op === OP.PEER_SIGNAL);
    expect(offer.d).toEqual({ user_id: world.alice.id, signal: { type: 'offer', sdp, e2ee: true } });
    bob.send({ op: OP.E2EE_MESSAGE, d: { data: 'sealed-key-for-alice' } });
    const sealed = await alice.waitFor((p) => p.op === OP.E2EE_MESSAGE);
    expect(sealed.d).toEqual({ user_id: world.bob.id, data: 'sealed-key-for-alice' });
    // Nothing comes back to the sender.
    expect(alice.received.some((p) => p.op === OP.PEER_SIGNAL)).toBe(false);
    for (const socket of [alice, bob, aliceJoin.main, bobJoin.main]) socket.socket.close(1000);
  });

  it('closes the voice connection with 4002 for a payload over 4096 bytes (other than a relayed message)', async () => {
    const world = await lobbyWorld(freshSandbox(server.url));
    const join = await joinLobbyCall(world, world.auth.alice);
    const alice = await connectCall(join);
    alice.send({ op: OP.SPEAKING, d: { speaking: 1, delay: 0, ssrc: alice.ready.ssrc, note: 'x'.repeat(4100) } });
    const closed = await alice.closed;
    expect(closed.code).toBe(VOICE_CLOSE_CODES.FAILED_TO_DECODE);
    expect(closed.reason).toMatch(/4096/);
    join.main.socket.close(1000);
  });

  it('refuses a voice token of another sandbox with 4004: a token authenticates nothing elsewhere', async () => {
    const here = await lobbyWorld(freshSandbox(server.url));
    const there = await lobbyWorld(freshSandbox(server.url));
    const hereJoin = await joinLobbyCall(here, here.auth.alice);
    const thereJoin = await joinLobbyCall(there, there.auth.alice);
    // The other sandbox's identity and token, sent to this sandbox's voice gateway.
    const voice = await identifyVoice(hereJoin.endpoint, thereJoin);
    const closed = await voice.closed;
    expect(closed.code).toBe(VOICE_CLOSE_CODES.AUTHENTICATION_FAILED);
    expect(voice.received.some((p) => p.op === OP.READY)).toBe(false);
    // Its own sandbox accepts it.
    const own = await connectCall(thereJoin);
    expect(own.ready.ssrc).toBeGreaterThan(0);
    for (const socket of [own, hereJoin.main, thereJoin.main]) socket.socket.close(1000);
  });

  it("ends a voice session when its gateway session ends: 4014 to it, Client Disconnect to the call's others", async () => {
    const world = await lobbyWorld(freshSandbox(server.url));
    const aliceJoin = await joinLobbyCall(world, world.auth.alice);
    const alice = await connectCall(aliceJoin);
    const bobJoin = await joinLobbyCall(world, world.auth.bob);
    const bob = await connectCall(bobJoin);
    await bob.waitFor((p) => p.op === OP.CLIENTS_CONNECT);
    // A clean close (1000) ends the gateway session, and with it the voice state it held.
    aliceJoin.main.socket.close(1000);
    expect((await alice.closed).code).toBe(VOICE_CLOSE_CODES.DISCONNECTED);
    const left = await bob.waitFor((p) => p.op === OP.CLIENT_DISCONNECT);
    expect(left.d).toEqual({ user_id: world.alice.id });
    for (const socket of [bob, bobJoin.main]) socket.socket.close(1000);
  });

  it('closes a voice connection without a version with 4020 before Hello, as in the browser', async () => {
    const world = await lobbyWorld(freshSandbox(server.url));
    const join = await joinLobbyCall(world, world.auth.alice);
    const socket = new WebSocket(join.endpoint);
    const received: unknown[] = [];
    socket.on('message', (data) => received.push(JSON.parse(String(data))));
    const code = await new Promise<number>((resolve) => socket.on('close', (closeCode) => resolve(closeCode)));
    expect(code).toBe(VOICE_CLOSE_CODES.BAD_REQUEST);
    expect(received).toEqual([]);
    join.main.socket.close(1000);
  });
});
