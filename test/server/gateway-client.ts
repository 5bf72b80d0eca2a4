/**
 * A raw gateway client over a real WebSocket (the `ws` package), for tests that look at the
 * wire itself: what arrived, in order, and how the connection closed.
 */
import WebSocket from 'ws';

/** A connected gateway client. */
export interface WireClient {
  socket: WebSocket;
  received: any[];
  closed: Promise<{ code: number; reason: string }>;
  send(payload: unknown): void;
  sendRaw(text: string): void;
  /** The first payload from index `from` that `match` accepts, waiting for it. */
  waitFor(match: (payload: any) => boolean, from?: number): Promise<any>;
  waitForDispatch(t: string, from?: number): Promise<any>;
}

/**
 * Opens `url` (a `ws://` gateway URL with its query) and resolves once Hello arrived: op 10 on
 * the gateway, op 8 on the voice gateway.
 */
export async function connectWire(url: string, helloOp = 10): Promise<WireClient> {
  const socket = new WebSocket(url);
  const received: any[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    received.push(JSON.parse(String(data)));
    for (const wake of waiters) wake();
  });
  let isClosed = false;
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => {
      resolve({ code, reason: String(reason) });
      // Before the waiters look: one still waiting on a closed socket fails.
      isClosed = true;
      for (const wake of waiters) wake();
    }),
  );
  const client: WireClient = {
    socket,
    received,
    closed,
    send: (payload) => socket.send(JSON.stringify(payload)),
    sendRaw: (text) => socket.send(text),
    waitFor: (match, from = 0) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const hit = received.slice(from).find(match);
          if (hit) {
            waiters.delete(check);
            resolve(hit);
          } else if (isClosed) {
            waiters.delete(check);
            reject(new Error(`closed while waiting; received ${received.map((p) => p.t ?? p.op).join(', ')}`));
          }
        };
        waiters.add(check);
        check();
      }),
    waitForDispatch: (t, from) => client.waitFor((p) => p.op === 0 && p.t === t, from),
  };
  await client.waitFor((p) => p.op === helloOp);
  return client;
}

/** Connects and identifies with `token`; resolves with READY's data once it arrived. */
export async function identifyWire(url: string, token: string, d: Record<string, unknown> = {}) {
  const client = await connectWire(url);
  client.send({ op: 2, d: { token, properties: { os: 'linux', browser: 'test', device: 'test' }, ...d } });
  const ready = await client.waitForDispatch('READY');
  return Object.assign(client, { ready: ready.d });
}
