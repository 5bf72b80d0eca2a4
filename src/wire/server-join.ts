/**
 * How a page tells the service worker which platform server it uses (CONTRACT §7: a page joins a
 * server), in one file both ends import. Each message is posted to the controlling service
 * worker with a `MessagePort` in `ports[0]`, on which the worker answers a {@link ServerJoinReply}.
 *
 * The choice is per client (a tab, a frame): two tabs may use two servers, or one a server and
 * one the local sandbox. A page that sends nothing uses the local sandbox.
 * - `join-server`: this page uses the server at `server` (null: the local sandbox). The worker
 *   asks the server for its gateway (`GET <server>/api/v10/gateway`) before it answers, so an
 *   answer `ok` means the server was reached and is a platformpp server.
 * - `frame-server`: the activity frame `frame_id` this page is about to load uses this page's
 *   choice (its navigation carries `frame_id`, CONTRACT §5).
 * - `which-server`: what this client uses (an activity frame asks, its page having chosen).
 *
 * A leaf of the tree (it imports nothing): the service worker, the components and the sockets
 * load it.
 */

/** A server a client uses: its URL (with a sandbox's `/s/<name>` prefix) and its gateway's. */
export interface JoinedServer {
  /** `http://127.0.0.1:8787` or `https://host/s/team-a`: no trailing slash, no query. */
  url: string;
  /** The WebSocket URL `GET <url>/api/v10/gateway` names (`ws://127.0.0.1:8787/gateway`). */
  gateway_url: string;
}

/** What a page posts to the service worker. */
export type ServerJoinMessage =
  | { type: 'platformpp:join-server'; server: string | null }
  | { type: 'platformpp:frame-server'; frame_id: string }
  | { type: 'platformpp:which-server' };

/** The worker's answer: the client's server (null: the local sandbox), or why it could not join. */
export type ServerJoinReply = { ok: true; server: JoinedServer | null } | { ok: false; error: string };

/** Whether `data` is one of the messages of this wire. */
export function isServerJoinMessage(data: unknown): data is ServerJoinMessage {
  const type = (data as { type?: unknown } | null)?.type;
  return type === 'platformpp:join-server' || type === 'platformpp:frame-server' || type === 'platformpp:which-server';
}

/**
 * The server URL as the platform keeps it: an absolute `http:` or `https:` URL, without query,
 * fragment or trailing slash. Throws a `TypeError` saying what is wrong.
 * @example normalizeServerUrl('http://127.0.0.1:8787/') // 'http://127.0.0.1:8787'
 */
export function normalizeServerUrl(server: string): string {
  let url: URL;
  try {
    url = new URL(server.trim());
  } catch {
    throw new TypeError(`"${server}" is no URL: give the server's address, e.g. http://127.0.0.1:8787`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`"${server}" is no http: or https: URL: give the server's address, e.g. http://127.0.0.1:8787`);
  if (url.search || url.hash || url.username || url.password)
    throw new TypeError(`"${server}" has a query, a fragment or credentials: give the server's address only`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
