/**
 * How an activity's backend reaches the sandbox, which runs in the browser: the dev server
 * relays its requests to an open sandbox page. A backend sends the platform's API requests to
 * `http://localhost:<port>/__platformpp/api/...` (the sandbox control API at
 * `/__platformpp/sandbox/...`) as it would to the platform (`https://discord.com/api/...`);
 * the plugin hands each one to a sandbox page over a server-sent event stream, the page asks
 * its service worker (the platform) and posts the answer back, and the plugin answers the
 * backend with it. One tab at a time listens (a Web Lock in the page), whichever it is: every
 * tab reaches the same platform. Without an open sandbox page there is no platform to ask: 503.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SANDBOX_BASE } from './options';
import { readBody, RELAYED, sendJson } from './relay-http';
import type { Middleware } from './sandbox-server';

/** Where the sandbox page listens for relayed requests, and posts the answers (`<path>/<id>`). */
export const BRIDGE_PATH = `${SANDBOX_BASE}bridge`;
/** How long a page may take to answer one relayed request. */
export const BRIDGE_ANSWER_MS = 15_000;
/** A comment on the event stream this often keeps idle connections open. */
const KEEPALIVE_MS = 15_000;
/** Request headers that belong to the hop to the dev server, not to the platform. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'origin', 'referer', 'cookie', 'keep-alive']);

/** A relayed request, as the page receives it. */
export interface BridgeRequest {
  id: string;
  method: string;
  /** The platform path with its query (`/api/oauth2/token`). */
  path: string;
  headers: [string, string][];
  /** The body, base64, or null. */
  body: string | null;
}

/** The page's answer. */
export interface BridgeResponse {
  status: number;
  headers: [string, string][];
  body: string;
}

/**
 * The relay of one dev or preview server.
 * @example server.middlewares.use(new PlatformBridge().middleware);
 */
export class PlatformBridge {
  /** Pages listening, newest last. */
  readonly #pages: ServerResponse[] = [];
  readonly #pending = new Map<string, (answer: BridgeResponse) => void>();

  /** @param answerMs how long a page may take to answer one request. */
  constructor(private readonly answerMs = BRIDGE_ANSWER_MS) {}

  /** How many sandbox pages listen now. */
  get listening(): number {
    return this.#pages.length;
  }

  /** Handles the bridge's paths; calls `next()` for every other. */
  readonly middleware: Middleware = (req, res, next) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === BRIDGE_PATH && req.method === 'GET') return this.#listen(req, res);
    if (path.startsWith(`${BRIDGE_PATH}/`) && req.method === 'POST')
      return void this.#answer(path.slice(BRIDGE_PATH.length + 1), req, res).catch(next);
    const relayed = RELAYED.exec(path);
    if (relayed) return void this.#relay(req, res).catch(next);
    next();
  };

  #listen(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    res.write(': platformpp bridge\n\n');
    this.#pages.push(res);
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    req.on('close', () => {
      clearInterval(keepalive);
      this.#pages.splice(this.#pages.indexOf(res), 1);
    });
  }

  async #answer(id: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const resolve = this.#pending.get(id);
    if (!resolve) return sendJson(res, 404, { code: 0, message: 'No relayed request has this id (it timed out?)' });
    resolve(JSON.parse((await readBody(req)).toString('utf8')) as BridgeResponse);
    res.writeHead(204);
    res.end();
  }

  async #relay(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const page = this.#pages.at(-1);
    const body = await readBody(req);
    if (!page)
      return sendJson(res, 503, {
        code: 0,
        message: `No sandbox page is open: the platform runs in the browser. Open http://${req.headers.host}${SANDBOX_BASE} and try again.`,
      });
    const url = new URL(req.url ?? '/', 'http://x');
    const request: BridgeRequest = {
      id: randomUUID(),
      method: req.method ?? 'GET',
      path: url.pathname.slice(SANDBOX_BASE.length - 1) + url.search,
      headers: Object.entries(req.headers)
        .filter(([name, value]) => !HOP_HEADERS.has(name) && typeof value === 'string')
        .map(([name, value]) => [name, value as string]),
      body: body.length > 0 ? body.toString('base64') : null,
    };
    const answer = await new Promise<BridgeResponse | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), this.answerMs);
      this.#pending.set(request.id, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      page.write(`data: ${JSON.stringify(request)}\n\n`);
    });
    this.#pending.delete(request.id);
    if (!answer)
      return sendJson(res, 504, {
        code: 0,
        message: `The sandbox page did not answer within ${this.answerMs / 1000} s (closed, or its platform did not start).`,
      });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(answer.body, 'base64'));
  }
}
