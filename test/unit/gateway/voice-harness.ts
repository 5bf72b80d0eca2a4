/**
 * A voice gateway next to the gateway harness's gateway, on the same context and manual timers,
 * as the shared worker runs both: fake voice clients connect through a recording transport,
 * and `flush()` forwards announcements (and the hub's own writes) to both gateways.
 *
 * One suite, two hosts: on the server host (`PLATFORMPP_HOST=server`) the voice clients are
 * real WebSockets to the voice gateway of the harness's sandbox (`<sandbox>/voice`), next to
 * the gateway clients; the voice gateway object is then in the server's process, and tests
 * that use it (or the timers) are `itInProcess`.
 */
import WebSocket from 'ws';
import { VoiceGateway } from '../../../src/gateway/voice-gateway';
import type { VoiceConnection } from '../../../src/gateway/voice-connection';
import type { VoicePayload } from '../../../src/gateway/voice-protocol';
import { VOICE_SERVER_ENDPOINT } from '../../../src/platform/voice/join';
import { ON_SERVER } from '../app-harness';
import { createGatewayHarness, type FakeClient } from './gateway-harness';
import { unreachable } from './server-gateway-clients';

/** A client of the voice gateway: what it received, how it was closed. */
export interface FakeVoiceClient {
  connection: VoiceConnection;
  received: VoicePayload<any>[];
  closed: { code: number; reason: string } | null;
  send(payload: unknown): void;
  /** The client closes (a code other than 1000/1001 keeps the session for Resume). */
  disconnect(code?: number): void;
  waitFor(match: (p: VoicePayload<any>) => boolean, from?: number): Promise<VoicePayload<any>>;
  waitForOp(op: number, from?: number): Promise<VoicePayload<any>>;
  waitForClose(): Promise<{ code: number; reason: string }>;
  ops(op: number): VoicePayload<any>[];
}

/** What a join over the gateway gave: the voice server, and the session ids Identify needs. */
export interface VoiceJoin {
  main: FakeClient;
  userId: string;
  sessionId: string;
  serverId: string;
  token: string;
  endpoint: string;
}

/** The harness. */
export type VoiceHarness = Awaited<ReturnType<typeof createVoiceHarness>>;

/**
 * The gateway harness plus a voice gateway, and a lobby alice and bob are members of.
 * @example const h = await createVoiceHarness(); const a = await h.joinLobbyCall(h.world.aliceAuth);
 */
export async function createVoiceHarness() {
  const h = await createGatewayHarness();
  const voice = ON_SERVER
    ? unreachable<VoiceGateway>('voice')
    : new VoiceGateway(h.ctx, h.timers, (line) => h.errors.push(line));
  const lobby = (await h.api.put('/api/v10/lobbies', { secret: 'voice' }, h.world.aliceAuth)).body;
  await h.api.put('/api/v10/lobbies', { secret: 'voice' }, h.world.bobAuth);
  let forwarded = 0;

  /** Forwards the app's announcements to both gateways; the voice gateway also reads the hub's own writes. */
  async function flush(): Promise<void> {
    if (ON_SERVER) return h.flush();
    while (forwarded < h.api.announcements.length) {
      const message = h.api.announcements[forwarded++];
      await h.gateway.announce(message);
      await voice.announce(message);
    }
    await voice.announce({ type: 'events', seq: 0 });
  }

  function connectVoice(url = '/voice?v=8'): FakeVoiceClient {
    const client: FakeVoiceClient = {
      connection: undefined as unknown as VoiceConnection,
      received: [],
      closed: null,
      send: (payload) => client.connection.receive(JSON.stringify(payload)),
      disconnect: (code = 4000) => client.connection.clientClosed(code),
      async waitFor(match, from = 0) {
        for (let i = 0; i < 400; i++) {
          await flush();
          const hit = client.received.slice(from).find(match);
          if (hit) return hit;
          if (client.closed) throw new Error(`closed ${client.closed.code} ${client.closed.reason} while waiting`);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        throw new Error(`timed out; received ops: ${client.received.map((p) => p.op).join(', ')}`);
      },
      waitForOp: (op, from) => client.waitFor((p) => p.op === op, from),
      async waitForClose() {
        for (let i = 0; i < 400 && !client.closed; i++) {
          await flush();
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        if (!client.closed) throw new Error(`not closed; received ops: ${client.received.map((p) => p.op).join(', ')}`);
        return client.closed;
      },
      ops: (op) => client.received.filter((p) => p.op === op),
    };
    if (ON_SERVER) return overWebSocket(client, `${h.api.origin.replace(/^http/, 'ws')}${url}`);
    client.connection = voice.connect(url, {
      send: (text) => client.received.push(JSON.parse(text)),
      close: (code, reason) => (client.closed = { code, reason }),
    });
    return client;
  }

  /** Identifies on the gateway as `auth` and sends Voice State Update; resolves with the voice server. */
  async function joinVoice(
    auth: string,
    d: { guild_id: string | null; channel_id: string },
    identify: Record<string, unknown> = {},
  ): Promise<VoiceJoin> {
    const main = await h.identify(auth, identify);
    const from = main.received.length;
    main.send({ op: 4, d: { ...d, self_mute: false, self_deaf: false } });
    const server = (await main.waitForDispatch('VOICE_SERVER_UPDATE', from)).d;
    return {
      main,
      userId: main.ready.user.id,
      sessionId: main.ready.session_id,
      serverId: d.guild_id ?? d.channel_id,
      token: server.token,
      endpoint: server.endpoint,
    };
  }

  /** Joins the lobby's call over the gateway. */
  function joinLobbyCall(auth: string): Promise<VoiceJoin> {
    return joinVoice(auth, { guild_id: null, channel_id: lobby.id });
  }

  /** Connects to the voice gateway and identifies with a join's token; resolves after Ready (or rejects on a close). */
  async function identifyVoice(
    join: VoiceJoin,
    options: { url?: string; max_dave_protocol_version?: number | null } = {},
  ) {
    const client = connectVoice(options.url);
    const dave = options.max_dave_protocol_version === undefined ? 1 : options.max_dave_protocol_version;
    client.send({
      op: 0,
      d: {
        server_id: join.serverId,
        user_id: join.userId,
        session_id: join.sessionId,
        token: join.token,
        ...(dave === null ? {} : { max_dave_protocol_version: dave }),
      },
    });
    await client.waitForOp(2);
    return client;
  }

  /** Sets the sandbox clock and lets both gateways hear of it. */
  async function setClock(iso: string): Promise<void> {
    await h.api.put('/sandbox/clock', { now: iso });
    await flush();
  }

  /** VOICE_SERVER_UPDATE's `endpoint`: the browser's `/voice`, or the server's voice gateway URL of the sandbox. */
  const voiceEndpoint = ON_SERVER
    ? `${h.api.origin.replace(/^http/, 'ws')}${VOICE_SERVER_ENDPOINT}`
    : VOICE_SERVER_ENDPOINT;

  return { ...h, voice, voiceEndpoint, lobby, flush, connectVoice, joinVoice, joinLobbyCall, identifyVoice, setClock };
}

/**
 * `client` over a real WebSocket to `url` (the server host): what the socket receives and how it
 * closes, and sends queued until it is open. The connection object is in the server's process.
 */
function overWebSocket(client: FakeVoiceClient, url: string): FakeVoiceClient {
  const ws = new WebSocket(url);
  const queued: string[] = [];
  ws.on('open', () => {
    for (const text of queued.splice(0)) ws.send(text);
  });
  ws.on('message', (data) => client.received.push(JSON.parse(String(data))));
  ws.on('close', (code, reason) => (client.closed = { code, reason: String(reason) }));
  client.connection = unreachable<VoiceConnection>('connection');
  client.send = (payload) => {
    const text = JSON.stringify(payload);
    if (ws.readyState === WebSocket.CONNECTING) queued.push(text);
    else if (ws.readyState === WebSocket.OPEN) ws.send(text);
  };
  client.disconnect = (code = 4000) => ws.close(code);
  return client;
}
