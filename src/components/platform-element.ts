/**
 * `<pp-platform>`: puts the platform into a page. It registers the service worker (the HTTP
 * API), connects to the shared worker (the gateway and RPC hub), and exposes the sandbox
 * control API as methods. It shows its state instead of failing silently: installing, ready,
 * offline (the platform keeps working: it runs in this browser), or error with the reason.
 *
 * With `server="<url>"` the page joins a platform server (CONTRACT §7) instead of the sandbox in
 * this browser: the service worker sends the page's HTTP API there, `GatewaySocket` opens real
 * WebSockets to its gateway, and the activity RPC stays in the shared worker. The element is
 * ready only once the service worker reached the server; a server it cannot reach is an error
 * naming it. A page the browser gives no service worker (not a secure context) runs only on a
 * server reached through its own origin (`server` = `location.origin`), as the Vite plugin's dev
 * server offers it to a phone on the LAN.
 */
import type * as Comlink from 'comlink';
import { LitElement, css, html } from 'lit';
import { Workbox } from 'workbox-window';
import { hub, hubStarted, onHubRestart } from '../sockets/hub-link';
import { HUB_WORKER_NAME, type HubApi } from '../hub/protocol';
import { askServiceWorker, setPageServer } from '../sockets/platform-server';
import { type JoinedServer, normalizeServerUrl } from '../wire/server-join';
import { SandboxClient } from './sandbox-client';
import {
  SERVICE_WORKER_TYPE,
  scriptToRegister,
  type ServiceWorkerRestart,
  watchServiceWorkerStops,
} from './service-worker-restart';

/** The states `<pp-platform>` shows (and reflects as its `status` attribute). */
export const PLATFORM_STATUS = {
  installing: 'Installing the platform…',
  ready: 'Platform ready',
  offline: 'Offline: the platform keeps running in this browser',
  error: 'Platform error',
} as const;
/** One of {@link PLATFORM_STATUS}. */
export type PlatformStatus = keyof typeof PLATFORM_STATUS;

/** The detail of `pp-status` events. */
export interface PlatformStatusDetail {
  status: PlatformStatus;
  error: string | null;
}

/** The tag of {@link PlatformElement}. */
export const PLATFORM_TAG = 'pp-platform';

/** The detail of `pp-hub-restart` events: the hub was gone and a new one answers. */
export interface HubRestartDetail {
  incarnation: string;
}

/** The detail of `pp-service-worker-restart` events: a `stop_service_worker` fault replaced the worker. */
export type ServiceWorkerRestartDetail = ServiceWorkerRestart;

/**
 * The platform element.
 * @example
 * <pp-platform current-user-id="…"></pp-platform>
 * <pp-platform server="http://127.0.0.1:8787"></pp-platform> <!-- a platform server instead -->
 * const platform = document.querySelector('pp-platform');
 * platform.addEventListener('pp-status', (e) => console.log(e.detail.status));
 * platform.addEventListener('pp-hub-restart', () => rejoin(platform.hub));
 * await platform.whenReady();
 * const { user } = await platform.sandbox.createUser({ username: 'alice' });
 * platform.currentUserId = user.id;
 */
export class PlatformElement extends LitElement {
  static override properties = {
    currentUserId: { type: String, attribute: 'current-user-id', reflect: true },
    serviceWorkerUrl: { type: String, attribute: 'service-worker-url' },
    hubName: { type: String, attribute: 'hub-name' },
    server: { type: String },
    status: { type: String, reflect: true },
    error: { attribute: false },
  };

  static override styles = css`
    :host { display: block; }
    [part='status'] { display: inline-block; font: 12px/1.6 system-ui, sans-serif; padding: 0 0.5rem; border-radius: 999px; background: #e3e5e8; color: #1e1f22; }
    :host([status='ready']) [part='status'] { background: #d1f5dd; }
    :host([status='offline']) [part='status'] { background: #fff1c2; }
    :host([status='error']) [part='status'] { background: #fddcdc; color: #8b0000; }
  `;

  /** The simulated user of this page: `<pp-activity-frame>`s without `user-id` run as this user. */
  declare currentUserId: string | null;
  /** Where the service worker is (`/sw.js`). */
  declare serviceWorkerUrl: string;
  /** The shared worker's name (a different name is a different hub, e.g. one per test). */
  declare hubName: string;
  /**
   * The platform server this page joins (`http://127.0.0.1:8787`, `https://host/s/team-a`), read
   * when the element starts; null: the sandbox in this browser.
   */
  declare server: string | null;
  /** The server once joined (its URL and gateway URL), else null. */
  joinedServer: JoinedServer | null = null;
  /**
   * True once the element runs without a service worker (the browser gives this page none): the
   * page's platform paths are then answered by its own origin's server, on the platform server,
   * and nothing works offline.
   */
  withoutServiceWorker = false;
  declare status: PlatformStatus;
  /** Why the status is `error`, else null. */
  declare error: string | null;
  /** The sandbox control API (CONTRACT §3) as methods. */
  readonly sandbox = new SandboxClient();
  /**
   * The shared worker's API (gateway, activity instances), or null before ready or where
   * shared workers do not exist. After `pp-hub-restart` it is the new hub's.
   */
  hub: Comlink.Remote<HubApi> | null = null;
  #unwatchHub: (() => void) | null = null;
  #unwatchServiceWorker: (() => void) | null = null;

  #started: Promise<void> | null = null;
  #settle!: { resolve(): void; reject(error: Error): void };
  readonly #ready = new Promise<void>((resolve, reject) => (this.#settle = { resolve, reject }));

  constructor() {
    super();
    this.currentUserId = null;
    this.serviceWorkerUrl = '/sw.js';
    this.hubName = HUB_WORKER_NAME;
    this.server = null;
    this.status = 'installing';
    this.error = null;
    // Whoever awaits whenReady() hears of a failure; the element shows it in any case.
    this.#ready.catch(() => undefined);
  }

  /** Resolves once the platform answers (status `ready` or `offline`); rejects with the reason of `error`. */
  whenReady(): Promise<void> {
    return this.#ready;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('online', this.#onNetwork);
    addEventListener('offline', this.#onNetwork);
    this.#started ??= this.#start();
    if (typeof SharedWorker !== 'undefined') this.#unwatchHub = onHubRestart(this.hubName, this.#onHubRestart);
    this.#unwatchServiceWorker = watchServiceWorkerStops(this.#onServiceWorkerRestart);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener('online', this.#onNetwork);
    removeEventListener('offline', this.#onNetwork);
    this.#unwatchHub?.();
    this.#unwatchHub = null;
    this.#unwatchServiceWorker?.();
    this.#unwatchServiceWorker = null;
  }

  override render() {
    const label = PLATFORM_STATUS[this.status];
    return html`<output part="status" role="status" aria-live="polite">${this.error ? `${label}: ${this.error}` : label}</output><slot></slot>`;
  }

  async #start(): Promise<void> {
    try {
      if (!('serviceWorker' in navigator)) return await this.#startWithoutServiceWorker();
      const controlled = this.#controlled();
      // The hub starts beside the service worker: neither needs the other to start.
      const hub = this.#connectHub();
      const hubUp = hub ? hubStarted(this.hubName) : undefined;
      // Its failure is awaited below, once the service worker is there (or has failed first).
      hubUp?.catch(() => undefined);
      if (this.server) {
        const url = normalizeServerUrl(this.server);
        const joined = controlled.then(() => joinServer(url));
        // Sockets opened from now on wait for the join (never the local gateway meanwhile).
        setPageServer(url, joined);
        this.joinedServer = await joined;
      } else await controlled;
      // Never "ready" while the gateway and the activity hub cannot run.
      await hubUp;
      this.hub = hub;
      this.#setStatus(navigator.onLine || this.joinedServer ? 'ready' : 'offline');
      this.#settle.resolve();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      console.error(`platformpp: <pp-platform> did not start: ${reason}`);
      this.#setStatus('error', reason);
      this.#settle.reject(new Error(`the platform did not start: ${reason}`));
    }
  }

  /**
   * Without service workers (a page that is not a secure context, such as a phone opening the
   * laptop's LAN address) nothing in the browser can answer the platform's paths: the element
   * runs only when `server` is this page's own origin, whose server sends them on to the platform
   * server (the Vite plugin's dev server does). The gateway is the server's, reached the same way;
   * the activity RPC stays in the page.
   */
  async #startWithoutServiceWorker(): Promise<void> {
    const url = this.server ? normalizeServerUrl(this.server) : null;
    if (url === null || new URL(url).origin !== location.origin)
      throw new Error(
        'this browser gives this page no service worker (it has none, or the page is not a secure context: http:// on another host than localhost), ' +
          "and the platform's HTTP API in the browser needs one. Open the page on localhost or over https, or join a platform server through this page's own origin (the Vite plugin with platformpp({ server }) serves it so).",
      );
    const hub = this.#connectHub();
    const hubUp = hub ? hubStarted(this.hubName) : undefined;
    hubUp?.catch(() => undefined);
    const joined = joinServerFromPage(url);
    setPageServer(url, joined);
    this.joinedServer = await joined;
    this.withoutServiceWorker = true;
    await hubUp;
    this.hub = hub;
    this.#setStatus('ready');
    this.#settle.resolve();
  }

  /** Registers the service worker and waits until it controls this page. */
  async #controlled(): Promise<void> {
    const container = navigator.serviceWorker;
    // After a stop fault the worker runs under a start mark: registering the bare URL would
    // replace it once more.
    const script = await scriptToRegister(this.serviceWorkerUrl, container);
    const workbox = new Workbox(script, { type: SERVICE_WORKER_TYPE, scope: '/' });
    let registration: ServiceWorkerRegistration | undefined;
    try {
      // A page the worker already controls has its registration: no need to wait for the load event.
      registration = await workbox.register({ immediate: container.controller !== null });
    } catch (error) {
      // The browser's words name the cause (a 404, a page served instead of a script, a scope
      // the script may not control); say where the worker should come from.
      throw new Error(
        `the service worker ${this.serviceWorkerUrl} (the platform's HTTP API) could not be registered: ${error instanceof Error ? error.message : String(error)} ` +
          "Serve the package's service worker there (with Vite: platformpp() from platformpp-web/vite serves it at /__platformpp/sw.js), " +
          'or point service-worker-url at it.',
      );
    }
    if (!registration) throw new Error(`the service worker ${this.serviceWorkerUrl} could not be registered`);
    if (container.controller) return;
    const changed = new Promise((resolve) => container.addEventListener('controllerchange', resolve, { once: true }));
    // A hard reload leaves the page uncontrolled although the worker is active: ask it to claim.
    const active = (await container.ready).active;
    active?.postMessage({ type: 'claim' });
    await changed;
  }

  /**
   * Tells the service worker that the activity frame `frameId`, about to load, uses this page's
   * server (its requests and gateway go there too). Nothing to do on the local sandbox.
   */
  async shareServerWithFrame(frameId: string): Promise<void> {
    // Without a service worker the frame's requests reach this origin, which sends them on itself.
    if (!this.joinedServer || this.withoutServiceWorker) return;
    const reply = await askServiceWorker({ type: 'platformpp:frame-server', frame_id: frameId });
    if (!reply.ok) throw new Error(reply.error);
  }

  /** The hub, or null where shared workers do not exist (frames then keep instances per page). */
  #connectHub(): Comlink.Remote<HubApi> | null {
    return typeof SharedWorker === 'undefined' ? null : hub(this.hubName);
  }

  // The browser stopped or lost the hub and a new one runs: frames rejoin their instances on it.
  readonly #onHubRestart = (incarnation: string): void => {
    if (!this.hub) return;
    this.hub = hub(this.hubName);
    this.dispatchEvent(
      new CustomEvent<HubRestartDetail>('pp-hub-restart', { detail: { incarnation }, bubbles: true, composed: true }),
    );
  };

  // A stop fault replaced the service worker: the page is controlled by the new start.
  readonly #onServiceWorkerRestart = (restart: ServiceWorkerRestart): void => {
    this.dispatchEvent(
      new CustomEvent<ServiceWorkerRestartDetail>('pp-service-worker-restart', {
        detail: restart,
        bubbles: true,
        composed: true,
      }),
    );
  };

  // On a server the platform is not in this browser: the network's state says nothing of it, and
  // a server that cannot be reached answers each request with a 502 naming it.
  readonly #onNetwork = (): void => {
    if (this.joinedServer) return;
    if (this.status === 'ready' || this.status === 'offline') this.#setStatus(navigator.onLine ? 'ready' : 'offline');
  };

  #setStatus(status: PlatformStatus, error: string | null = null): void {
    if (status === this.status && error === this.error) return;
    this.status = status;
    this.error = error;
    this.dispatchEvent(
      new CustomEvent<PlatformStatusDetail>('pp-status', { detail: { status, error }, bubbles: true, composed: true }),
    );
  }
}

/**
 * Has the service worker join `url` for this page: it checks that the server answers as a
 * platformpp server and finds its gateway. Rejects with an error naming the server otherwise.
 */
async function joinServer(url: string): Promise<JoinedServer> {
  const reply = await askServiceWorker({ type: 'platformpp:join-server', server: url });
  if (!reply.ok || !reply.server) throw new Error(reply.ok ? `the service worker did not join ${url}` : reply.error);
  return reply.server;
}

/**
 * Joins the server at `url` (this page's own origin) from the page itself, as the service worker
 * does for the pages it controls: it must answer `GET /api/v10/gateway` as a platformpp server.
 */
async function joinServerFromPage(url: string): Promise<JoinedServer> {
  let response: Response;
  try {
    response = await fetch(`${url}/api/v10/gateway`, { signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw new Error(
      `the platform server behind ${url} could not be reached (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const body = (await response.json().catch(() => null)) as { url?: unknown } | null;
  if (!response.ok || response.headers.get('X-Served-By') !== 'platformpp-server' || typeof body?.url !== 'string')
    throw new Error(
      `${url} answered GET /api/v10/gateway with ${response.status}, not as a platformpp server does: its server does not send the platform's paths on to one`,
    );
  return { url, gateway_url: body.url };
}

/** Defines `<pp-platform>` unless it already is (the module may load twice). */
export function definePlatformElement(): void {
  if (!customElements.get(PLATFORM_TAG)) customElements.define(PLATFORM_TAG, PlatformElement);
}

declare global {
  interface HTMLElementTagNameMap {
    'pp-platform': PlatformElement;
  }
}
