/**
 * The one place where the host side of the activity RPC can be watched: every `<pp-activity-frame>`
 * of the page reports each message its iframe posted (and the host accepted as the activity's)
 * and each message the host posted back. Nothing is copied or timed while no one watches, so a
 * page without an inspector pays one size check per message.
 */

/** One message on a frame's RPC wire. */
export interface RpcWireRecord {
  frame_id: string;
  /** The user the frame runs as. */
  user_id: string;
  application_id: string;
  /** `received`: the activity posted it to the host; `sent`: the host posted it to the activity. */
  direction: 'received' | 'sent';
  /** The message as posted (`[opcode, payload]`); not a copy: watchers must not change it. */
  message: unknown;
  /** `performance.now()` when the host saw it. */
  at: number;
}

/** Hears each record. */
export type RpcWireWatcher = (record: RpcWireRecord) => void;

const watchers = new Set<RpcWireWatcher>();

/**
 * Starts watching every frame's RPC wire in this page; returns the function that stops.
 * @example const stop = watchRpcWire((record) => log.add(record));
 */
export function watchRpcWire(watcher: RpcWireWatcher): () => void {
  watchers.add(watcher);
  return () => void watchers.delete(watcher);
}

/** Whether anyone watches (a frame skips building records otherwise). */
export function rpcWireWatched(): boolean {
  return watchers.size > 0;
}

/** Reports one message to the watchers (called by `<pp-activity-frame>` only). */
export function tapRpcWire(record: Omit<RpcWireRecord, 'at'>): void {
  if (watchers.size === 0) return;
  const full = { ...record, at: performance.now() };
  for (const watcher of watchers) {
    try {
      watcher(full);
    } catch (error) {
      // A broken watcher must never break the activity's RPC.
      console.error('platformpp: an RPC wire watcher failed', error);
    }
  }
}
