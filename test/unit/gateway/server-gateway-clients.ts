/**
 * The gateway harness's clients on the server host: real WebSockets (the `ws` package) to a
 * sandbox of the test server, with the same shape as the in-process fake clients. `flush()`
 * waits until the server sent every dispatch committed so far (the test hook `settle`), then
 * until each open client received what was sent before: a Heartbeat (with no sequence, so it
 * acknowledges nothing) whose ACK comes after them on the same socket. Those ACKs are the
 * harness's own and never reach `received`.
 */
import WebSocket from 'ws';
import { GATEWAY_OPCODES, type GatewayPayload } from '../../../src/gateway/protocol';
import type { FakeClient } from './gateway-harness';

/** How long a client waits for a payload or a close before it gives up. */
const WAIT_MS = 10_000;

/** What lives in the server's process: any use throws, naming the test's mistake. */
export function unreachable<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      throw new Error(
        `${name}.${String(property)} lives in the server's process on the server host: the test must be itInProcess.`,
      );
    },
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Clients of the gateway of the sandbox at `origin` (`http://127.0.0.1:port/s/name`). */
export function serverGatewayClients(origin: string) {
  const barriers = new Set<() => Promise<void>>();

  function connect(url: string): FakeClient {
    const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}${url}`);
    const queued: string[] = [];
    const acks: (() => void)[] = [];
    ws.on('open', () => {
      for (const text of queued.splice(0)) ws.send(text);
    });
    const sendRaw = (text: string) => {
      if (ws.readyState === WebSocket.CONNECTING) queued.push(text);
      else if (ws.readyState === WebSocket.OPEN) ws.send(text);
    };
    const client: FakeClient = {
      connection: unreachable('connection'),
      received: [],
      closed: null,
      send: (payload) => sendRaw(JSON.stringify(payload)),
      sendRaw,
      disconnect: (code = 4000) => ws.close(code),
      async waitFor(match, from = 0) {
        for (const until = Date.now() + WAIT_MS; Date.now() < until; await sleep(5)) {
          const hit = client.received.slice(from).find(match);
          if (hit) return hit;
          if (client.closed) throw new Error(`closed ${client.closed.code} ${client.closed.reason} while waiting`);
        }
        throw new Error(`timed out; received: ${client.received.map((p) => p.t ?? p.op).join(', ')}`);
      },
      waitForDispatch: (t, from) => client.waitFor((p) => p.op === 0 && p.t === t, from),
      async waitForClose() {
        for (const until = Date.now() + WAIT_MS; Date.now() < until && !client.closed; ) await sleep(5);
        if (!client.closed) throw new Error('not closed');
        return client.closed;
      },
      dispatches: (t) =>
        client.received.filter((p) => p.op === GATEWAY_OPCODES.DISPATCH && (t === undefined || p.t === t)),
    };
    ws.on('message', (data) => {
      const payload = JSON.parse(String(data)) as GatewayPayload<any>;
      const ack = payload.op === GATEWAY_OPCODES.HEARTBEAT_ACK ? acks.shift() : undefined;
      if (ack) ack();
      else client.received.push(payload);
    });
    /** Resolves once everything the server sent before now has arrived (or the socket closed). */
    const barrier = () =>
      new Promise<void>((resolve) => {
        if (ws.readyState !== WebSocket.OPEN) return resolve();
        acks.push(resolve);
        ws.send(JSON.stringify({ op: GATEWAY_OPCODES.HEARTBEAT, d: null }));
      });
    barriers.add(barrier);
    ws.on('close', (code, reason) => {
      client.closed = { code, reason: String(reason) };
      barriers.delete(barrier);
      for (const ack of acks.splice(0)) ack();
    });
    return client;
  }

  /** Waits for the server's dispatches (`settle`), then for each open client to receive them. */
  async function flush(settle: () => Promise<void>): Promise<void> {
    await settle();
    await Promise.all([...barriers].map((barrier) => barrier()));
  }

  return { connect, flush };
}
