/**
 * How the HTTP app runs the webhook outbox. After each request whose commits appended events
 * (the context's announcements say so) or when a retry is due by the platform clock, the outbox
 * runs in the background: inside the service worker the run is handed to the FetchEvent's
 * `waitUntil`, so the browser keeps the worker alive until it is done.
 *
 * Sandbox sinks on the platform's own origin are reached by calling the app directly: a
 * service worker's own `fetch()` bypasses its fetch handler, so a request to
 * `/sandbox/webhook-sinks/{id}` would go to the network (the static server) instead of here.
 */
import type { Context } from 'hono';
import type { PlatformContext } from '../src/platform/core/context';
import type { FetchLike } from '../src/platform/oauth2/oidc';
import { WebhookOutbox } from '../src/platform/webhooks/outbox';
import { isWebhookSinkPath } from '../src/platform/webhooks/sinks';
import type { AppEnv } from './http';
import { stripBasePath, stripProxyPrefix } from './paths';

/** The real network: `globalThis.fetch` looked up on each call (tests may replace it). */
const networkFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/**
 * The outbox of one app and the transport it sends with.
 * @example const webhooks = new AppWebhooks(ctx, fetch); webhooks.serve((r) => app.fetch(r));
 */
export class AppWebhooks {
  /** Origins this app has answered requests for: its sandbox sinks live there. */
  readonly #origins = new Set<string>();
  #app: ((request: Request) => Promise<Response>) | null = null;
  #basePath = '';
  readonly outbox: WebhookOutbox;

  constructor(
    ctx: PlatformContext,
    readonly network: FetchLike = networkFetch,
  ) {
    this.outbox = new WebhookOutbox(ctx, this.send);
    // The outbox hears of the events each commit of this context appended.
    ctx.db.onCommit((commit) => this.outbox.observe(commit));
  }

  /** Gives the transport the app to call for the app's own sinks, and the path the app is served under. */
  serve(app: (request: Request) => Promise<Response>, basePath = ''): void {
    this.#app = app;
    this.#basePath = basePath;
  }

  /** Sends a webhook request: to the app itself for one of its sinks, else to the network. */
  readonly send: FetchLike = (input, init) => {
    const url = new URL(input);
    const path = stripProxyPrefix(stripBasePath(url.pathname, this.#basePath));
    if (this.#app && this.#origins.has(url.origin) && isWebhookSinkPath(path)) {
      return this.#app(new Request(url, init));
    }
    return this.network(input, init);
  };

  /** Notes a request's origin before it is answered. */
  saw(c: Context<AppEnv>): void {
    this.#origins.add(new URL(c.req.url).origin);
  }

  /** After a request: runs the outbox in the background when it has work. */
  kick(c: Context<AppEnv>): void {
    if (!this.outbox.due) return;
    const run = this.outbox.run();
    try {
      c.executionCtx.waitUntil(run);
    } catch {
      // No FetchEvent (unit tests, the outbox's own calls to a sink): the run goes on by itself.
    }
  }
}
