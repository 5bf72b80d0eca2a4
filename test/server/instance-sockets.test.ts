/**
 * Activity instances on the server: two pages (two devices) keep their frames in one sandbox's
 * instances through their instance sockets (`<sandbox>/activity-instances`), over real
 * WebSockets. Frames of one application and channel share one instance whichever device they
 * run on; each device hears the other join and leave; a socket that drops takes its frames with
 * it; the instance is what `GET /applications/{id}/activity-instances/{instance_id}` answers.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstanceSocketEvent, InstanceSocketRequest } from '../../src/wire/instance-socket';
import { instanceSocketUrl } from '../../src/wire/instance-socket';
import { VOICE_OPCODES } from '../../src/gateway/voice-protocol';
import { connectWire, identifyWire } from './gateway-client';
import { freshSandbox, sandboxClient, startTestServer, type TestServer } from './server-harness';

/** A page's instance socket, with what it heard. */
interface PageSocket {
  socket: WebSocket;
  heard: InstanceSocketEvent[];
  send(request: InstanceSocketRequest): void;
  /** The first event after `from` that `match` accepts. */
  next(match: (event: InstanceSocketEvent) => boolean, from?: number): Promise<InstanceSocketEvent>;
  closed: Promise<{ code: number; reason: string }>;
}

async function openPage(base: string): Promise<PageSocket> {
  const socket = new WebSocket(instanceSocketUrl(`${base.replace(/^http/, 'ws')}/gateway`));
  const heard: InstanceSocketEvent[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    heard.push(JSON.parse(String(data)));
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return {
    socket,
    heard,
    closed,
    send: (request) => socket.send(JSON.stringify(request)),
    next: (match, from = 0) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not heard; heard ${JSON.stringify(heard)}`)), 10_000);
        const look = () => {
          const found = heard.slice(from).find(match);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(look);
          resolve(found);
        };
        waiters.add(look);
        look();
      }),
  };
}

function participant(user: { id: string; username: string }) {
  return {
    id: user.id,
    username: user.username,
    global_name: null,
    discriminator: '0',
    avatar: null,
    bot: false,
    flags: 0,
    premium_type: null,
  };
}

async function world(base: string) {
  const api = sandboxClient(base);
  const alice = (await api.post('/sandbox/users', { username: 'alice' })).body.user;
  const bob = (await api.post('/sandbox/users', { username: 'bob' })).body.user;
  const app = (await api.post('/sandbox/applications', { name: 'Game', owner_id: alice.id })).body;
  return { api, alice, bob, applicationId: app.application.id as string, botAuth: `Bot ${app.bot_token}` };
}

const CHANNEL = '1300000000000000011';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});
const GUILD = '1300000000000000012';

describe('activity instances on the server: every device in one instance', () => {
  it('two devices launching one activity in one channel get one instance_id, and each hears the other join and leave', async () => {
    const base = freshSandbox(server.url);
    const w = await world(base);
    const laptop = await openPage(base);
    const phone = await openPage(base);
    const join = (frame_id: string, user: { id: string; username: string }) => ({
      application_id: w.applicationId,
      channel_id: CHANNEL,
      guild_id: GUILD,
      frame_id,
      user: participant(user),
    });
    laptop.send({ op: 'join', nonce: 1, join: join('laptop-frame', w.alice) });
    const first = (await laptop.next((e) => e.op === 'joined')) as Extract<InstanceSocketEvent, { op: 'joined' }>;
    expect(first.instance.participants.map((p) => p.id)).toEqual([w.alice.id]);
    phone.send({ op: 'join', nonce: 1, join: join('phone-frame', w.bob) });
    const second = (await phone.next((e) => e.op === 'joined')) as Extract<InstanceSocketEvent, { op: 'joined' }>;
    expect(second.instance.instance_id).toBe(first.instance.instance_id);
    expect(second.instance.participants.map((p) => p.id)).toEqual([w.alice.id, w.bob.id]);
    // The laptop may hear its own join too (its page skips the frame that caused it).
    const heardJoin = await laptop.next((e) => e.op === 'participants' && e.frame_id === 'phone-frame');
    expect(heardJoin).toMatchObject({ op: 'participants', frame_id: 'phone-frame', ended: false });
    const path = `/api/v10/applications/${w.applicationId}/activity-instances/${first.instance.instance_id}`;
    const read = await w.api.get(path, w.botAuth);
    expect(read.body).toMatchObject({ users: [w.alice.id, w.bob.id], location: { kind: 'gc', guild_id: GUILD } });

    // The phone's page goes away without a word: its socket's end takes its frame along.
    const from = laptop.heard.length;
    phone.socket.terminate();
    const heardLeave = (await laptop.next(
      (e) => e.op === 'participants' && e.frame_id === 'phone-frame',
      from,
    )) as Extract<InstanceSocketEvent, { op: 'participants' }>;
    expect(heardLeave.instance.participants.map((p) => p.id)).toEqual([w.alice.id]);
    laptop.send({ op: 'leave', frame_id: 'laptop-frame' });
    await expect.poll(async () => (await w.api.get(path, w.botAuth)).status).toBe(404);
    laptop.socket.close();
  });

  it("the rich presence an activity set goes with its user's last frame when the page goes away", async () => {
    const base = freshSandbox(server.url);
    const w = await world(base);
    const scopes = 'openid activities.write';
    const token = (
      await w.api.post('/sandbox/tokens', { application_id: w.applicationId, user_id: w.alice.id, scopes })
    ).body.access_token;
    const auth = `Bearer ${token}`;
    const page = await openPage(base);
    const join = {
      application_id: w.applicationId,
      channel_id: CHANNEL,
      guild_id: null,
      frame_id: 'f',
      user: participant(w.alice),
    };
    page.send({ op: 'join', nonce: 1, join });
    await page.next((e) => e.op === 'joined');
    const set = await w.api.put('/api/v10/users/@me/activities', { activity: { type: 0, state: 'In a match' } }, auth);
    expect(set.status).toBe(200);
    const shown = async () => JSON.stringify((await w.api.get('/api/v10/users/@me/activities', auth)).body);
    expect(await shown()).toContain('In a match');
    page.socket.terminate();
    await expect.poll(shown, { timeout: 10_000 }).not.toContain('In a match');
  });

  it('a rejoin after the socket dropped keeps the instance id while no other instance runs there', async () => {
    const base = freshSandbox(server.url);
    const w = await world(base);
    const page = await openPage(base);
    const join = {
      application_id: w.applicationId,
      channel_id: CHANNEL,
      guild_id: null,
      frame_id: 'f',
      user: participant(w.alice),
    };
    page.send({ op: 'join', nonce: 1, join });
    const joined = (await page.next((e) => e.op === 'joined')) as Extract<InstanceSocketEvent, { op: 'joined' }>;
    page.socket.terminate();
    const again = await openPage(base);
    again.send({ op: 'join', nonce: 2, join: { ...join, instance_id: joined.instance.instance_id } });
    const rejoined = (await again.next((e) => e.op === 'joined')) as Extract<InstanceSocketEvent, { op: 'joined' }>;
    expect(rejoined.instance.instance_id).toBe(joined.instance.instance_id);
    again.socket.close();
  });

  it('a malformed message closes the socket with 4000 naming the field, and joins nothing', async () => {
    const base = freshSandbox(server.url);
    const w = await world(base);
    const page = await openPage(base);
    page.socket.send(
      JSON.stringify({
        op: 'join',
        nonce: 1,
        join: {
          application_id: 'nope',
          channel_id: CHANNEL,
          guild_id: null,
          frame_id: 'f',
          user: participant(w.alice),
        },
      }),
    );
    const closed = await page.closed;
    expect(closed.code).toBe(4000);
    expect(closed.reason).toContain('join.application_id');
  });
});

describe("speaking in a server call reaches the activities of every device (the instance socket's speaking watches)", () => {
  it("a page watching a lobby's call hears SPEAKING start and stop from a client on another device", async () => {
    const base = freshSandbox(server.url);
    const w = await world(base);
    const app = (await w.api.post('/sandbox/applications', { name: 'Call', owner_id: w.alice.id })).body;
    const scopes = 'openid sdk.social_layer';
    const token = (
      await w.api.post('/sandbox/tokens', { application_id: app.application.id, user_id: w.alice.id, scopes })
    ).body.access_token;
    const auth = `Bearer ${token}`;
    const lobby = (await w.api.put('/api/v10/lobbies', { secret: 'call' }, auth)).body;

    // Bob's phone watches the call for its activity.
    const phone = await openPage(base);
    phone.send({ op: 'watch_speaking', watch_id: 7, call_id: lobby.id });

    // Alice's laptop joins the call and speaks, through the server's gateway and voice gateway.
    const main = await identifyWire(`${base.replace(/^http/, 'ws')}/gateway?v=10&encoding=json`, auth);
    main.send({ op: 4, d: { guild_id: null, channel_id: lobby.id, self_mute: false, self_deaf: false } });
    const voiceServer = (await main.waitForDispatch('VOICE_SERVER_UPDATE')).d;
    const voice = await connectWire(`${voiceServer.endpoint}?v=8`, VOICE_OPCODES.HELLO);
    voice.send({
      op: VOICE_OPCODES.IDENTIFY,
      d: {
        server_id: lobby.id,
        user_id: w.alice.id,
        session_id: main.ready.session_id,
        token: voiceServer.token,
        max_dave_protocol_version: 1,
      },
    });
    const ready = (await voice.waitFor((p) => p.op === VOICE_OPCODES.READY)).d;
    voice.send({ op: VOICE_OPCODES.SELECT_PROTOCOL, d: { protocol: 'webrtc', data: { mode: ready.modes[0] } } });
    await voice.waitFor((p) => p.op === VOICE_OPCODES.SESSION_DESCRIPTION);
    voice.send({ op: VOICE_OPCODES.SPEAKING, d: { speaking: 1, delay: 0, ssrc: ready.ssrc } });
    const started = await phone.next((e) => e.op === 'speaking' && e.change.speaking);
    expect(started).toEqual({
      op: 'speaking',
      watch_id: 7,
      change: { user_id: w.alice.id, speaking: true, lobby_id: lobby.id },
    });
    voice.send({ op: VOICE_OPCODES.SPEAKING, d: { speaking: 0, delay: 0, ssrc: ready.ssrc } });
    const stopped = await phone.next((e) => e.op === 'speaking' && !e.change.speaking);
    expect(stopped).toMatchObject({ watch_id: 7, change: { user_id: w.alice.id, speaking: false } });

    // Unwatched: nothing more reaches the page.
    phone.send({ op: 'unwatch_speaking', watch_id: 7 });
    const heard = phone.heard.length;
    voice.send({ op: VOICE_OPCODES.SPEAKING, d: { speaking: 1, delay: 0, ssrc: ready.ssrc } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(phone.heard.length).toBe(heard);
    voice.socket.close();
    main.socket.close();
    phone.socket.close();
  });
});
