/**
 * The service worker → pages wire of the activity proxy's log: after the worker answered a
 * request an activity frame made through `/.proxy/` (or through one of its URL mappings), it
 * posts one {@link ProxiedRequestRecord} on {@link PROXY_LOG_CHANNEL}. The host page's RPC
 * inspector listens; no page listening costs the worker one `postMessage`. One file imported
 * by both ends, types and constants only.
 */

/** The BroadcastChannel the records travel on. */
export const PROXY_LOG_CHANNEL = 'platformpp-proxy-log';

/**
 * The header a URL mapping's answer carries inside the worker to name its target; the worker's
 * log reads it and takes it off before the activity sees the answer.
 */
export const MAPPED_TARGET_HEADER = 'X-Platformpp-Mapped-Target';

/** One request an activity made through the proxy, answered. */
export interface ProxiedRequestRecord {
  type: 'proxied-request';
  /** The frame that asked (from the activity page's query), or null when unknown. */
  frame_id: string | null;
  method: string;
  /** The path and query as the activity asked (credentials in the query not yet redacted). */
  path: string;
  /**
   * Who answered: `platform` (the sandbox's API or its sandbox routes), a URL mapping's target
   * URL, or `network` (passed through to the dev server).
   */
  target: string;
  status: number;
  /** Milliseconds from the request reaching the worker to its answer's headers. */
  duration_ms: number;
  /** `Date.now()` when it was answered. */
  at: number;
}

/** Whether a message is a {@link ProxiedRequestRecord}. */
export function isProxiedRequestRecord(data: unknown): data is ProxiedRequestRecord {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { type?: unknown }).type === 'proxied-request' &&
    typeof (data as { path?: unknown }).path === 'string'
  );
}
