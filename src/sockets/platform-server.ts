/**
 * Which platform server this document uses (CONTRACT §7), for the code that opens its gateway
 * sockets. A page joins a server with `<pp-platform server="<url>">`, which tells the service
 * worker (`src/wire/server-join.ts`) and records the server here; an activity frame, whose page
 * chose for it, asks the service worker. A document that did neither uses the local sandbox.
 *
 * The record lives on a global symbol, so that every copy of the package a page loads (the
 * library and a prebuilt host script, say) agrees on it.
 */
import {
  isServerJoinMessage,
  type JoinedServer,
  type ServerJoinMessage,
  type ServerJoinReply,
} from '../wire/server-join';

/** How long a document waits for the service worker's answer on the server-join wire. */
export const SERVICE_WORKER_ANSWER_MS = 15_000;

/** The server a page joined: its URL at once, its gateway once the service worker checked it. */
export interface PageServer {
  url: string;
  /** Resolves with the server once joined; rejects with why it could not be. */
  joined: Promise<JoinedServer>;
  /** The joined server once `joined` resolved, else null. */
  current: JoinedServer | null;
}

const KEY = Symbol.for('platformpp.page-server');
type Holder = { [KEY]?: PageServer | null };

/** The server this page joined (or is joining), or null. */
export function pageServer(): PageServer | null {
  return (globalThis as Holder)[KEY] ?? null;
}

/**
 * Records that this page uses the server at `url`, joined once `joined` resolves; null forgets it.
 * @example setPageServer(url, joinServer(url));
 */
export function setPageServer(url: string | null, joined?: Promise<JoinedServer>): void {
  if (url === null || !joined) {
    (globalThis as Holder)[KEY] = null;
    return;
  }
  const record: PageServer = { url, joined, current: null };
  joined.then(
    (server) => (record.current = server),
    () => undefined,
  );
  (globalThis as Holder)[KEY] = record;
}

/**
 * Posts `message` to the service worker that controls this document and resolves with its
 * answer; rejects when none controls it or none answers in time.
 * @example const reply = await askServiceWorker({ type: 'platformpp:which-server' });
 */
export function askServiceWorker(
  message: ServerJoinMessage,
  timeoutMs = SERVICE_WORKER_ANSWER_MS,
): Promise<ServerJoinReply> {
  const controller = typeof navigator !== 'undefined' ? navigator.serviceWorker?.controller : null;
  if (!controller || !isServerJoinMessage(message))
    return Promise.reject(new Error('no service worker controls this page'));
  return new Promise((resolve, reject) => {
    const { port1, port2 } = new MessageChannel();
    const timer = setTimeout(() => {
      port1.close();
      reject(new Error(`the service worker did not answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    port1.onmessage = (event: MessageEvent<ServerJoinReply>) => {
      clearTimeout(timer);
      port1.close();
      resolve(event.data);
    };
    controller.postMessage(message, [port2]);
  });
}

/**
 * The server of the page that embeds this document, for a frame no service worker can tell it to
 * (the browser gives none to a page that is not a secure context): the page of the same origin
 * joined it from itself. Null otherwise, or when the parent is of another origin.
 */
function parentPageServer(): PageServer | null {
  if (typeof window === 'undefined' || window.parent === window || typeof navigator === 'undefined') return null;
  if (navigator.serviceWorker) return null;
  try {
    return (window.parent as unknown as Holder)[KEY] ?? null;
  } catch {
    return null;
  }
}

/** How long a frame's socket waits to hear its server before it takes the local gateway. */
const FRAME_ANSWER_MS = 3_000;

/** Whether this document is an activity's frame under the page's service worker (its page chose the server). */
function inControlledFrame(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.parent !== window &&
    typeof navigator !== 'undefined' &&
    Boolean(navigator.serviceWorker?.controller)
  );
}

/**
 * Where this document's gateway is: `'local'` (the shared worker's, at once), a server (at once,
 * when known), or a promise of either (while the page joins, or a frame asks its service worker).
 */
export function gatewayOfThisDocument(): 'local' | JoinedServer | Promise<'local' | JoinedServer> {
  const page = pageServer() ?? parentPageServer();
  if (page) return page.current ?? page.joined;
  if (!inControlledFrame()) return 'local';
  return askServiceWorker({ type: 'platformpp:which-server' }, FRAME_ANSWER_MS).then(
    (reply) => (reply.ok && reply.server ? reply.server : 'local'),
    // A worker that does not know the question is one from before pages could join servers.
    () => 'local' as const,
  );
}
