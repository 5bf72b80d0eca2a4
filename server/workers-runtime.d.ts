/**
 * The few workerd APIs the server uses, typed here rather than through
 * `@cloudflare/workers-types` (whose globals clash with the DOM library the rest of the tree
 * is checked against).
 */

declare module 'cloudflare:workers' {
  /** The base class of a Durable Object. */
  export abstract class DurableObject<Env = unknown> {
    protected readonly ctx: DurableObjectState;
    protected readonly env: Env;
    constructor(ctx: DurableObjectState, env: Env);
  }
}

/** A Durable Object's state: its storage and its hibernatable WebSockets. */
interface DurableObjectState {
  readonly storage: DurableObjectStorage;
  waitUntil(promise: Promise<unknown>): void;
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
  acceptWebSocket(socket: WebSocket, tags?: string[]): void;
  getWebSockets(tag?: string): WebSocket[];
  /** The tags a socket was accepted with. */
  getTags(socket: WebSocket): string[];
}

/** A SQLite-backed Durable Object's storage. */
interface DurableObjectStorage {
  sql: { exec(query: string, ...bindings: unknown[]): { toArray(): Record<string, unknown>[] } };
  transaction<T>(closure: () => Promise<T>): Promise<T>;
  get<T = unknown>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
  deleteAlarm(): Promise<void>;
}

/** How a Worker reaches the objects of one class. */
interface DurableObjectNamespace {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): DurableObjectStub;
}

interface DurableObjectId {
  toString(): string;
}

interface DurableObjectStub {
  fetch(request: Request): Promise<Response>;
}

/** workerd's server-side WebSocket pair. */
declare class WebSocketPair {
  0: WebSocket;
  1: WebSocket;
}

interface ResponseInit {
  /** The client end of a WebSocketPair, for a 101 answer. */
  webSocket?: WebSocket | null;
}

interface Response {
  readonly webSocket?: WebSocket | null;
}
