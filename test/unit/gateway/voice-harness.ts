/**
 * A voice gateway next to the gateway harness's gateway, on the same context and manual timers,
 * as the shared worker runs both: fake voice clients connect through a recording transport,
 * and `flush()` forwards announcements (and the hub's own writes) to both gateways.
 */
import { VoiceGateway } from '../../../src/gateway/voice-gateway';
import type { VoiceConnection } from '../../../src/gateway/voice-connection';
import type { VoicePayload } from '../../../src/gateway/voice-protocol';
import { createGatewayHarness, type FakeClient } from './gateway-harness';

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
  const voice = new VoiceGateway(h.ctx, h.timers, (line) => h.errors.push(line));
  const lobby = (await h.api.put('/api/v10/lobbies', { secret: 'voice' }, h.world.aliceAuth)).body;
  await h.api.put('/api/v10/lobbies', { secret: 'voice' }, h.world.bobAuth);
  let forwarded = 0;

  /** Forwards the app's announcements to both gateways; the voice gateway also reads the hub's own writes. */
  async function flush(): Promise<void> {
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

  return { ...h, voice, lobby, flush, connectVoice, joinVoice, joinLobbyCall, identifyVoice, setClock };
}
