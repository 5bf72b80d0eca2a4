/**
 * `<demo-app>`: the platform client a newcomer opens first. Guild, channels, direct messages
 * and lobbies on the left, the selected conversation, bot's view or developer tools in the
 * middle, members and their presence on the right; on a narrow screen the three become tabs. It
 * runs as the tab's user (`?as=bob`; a name it does not know is said, not replaced), says what
 * the platform is doing (installing, offline, seeding) and shows every failure in words.
 */
import { LitElement, html, nothing } from 'lit';
import {
  PLATFORM_STATUS,
  type PlatformElement,
  type PlatformStatus,
  type ServiceWorkerRestartDetail,
} from '../../src/components/platform-element';
import { AnnouncementController } from './announcements';
import type { DemoClient } from './demo-client';
import { errorMessage, type DemoErrorDetail } from './errors';
import { icon } from './icons';
import { EventJournal } from './event-journal';
import { userQuery } from './page-query';
import { parseRoute, routeKey, routeLabel, type Route } from './routes';
import { ShellSession } from './shell-session';
import { StateController } from './state-controller';
import { shellStyles } from './shell-styles';
import { sharedStyles } from './styles';
import { displayName } from './world';
import './bot-view';
import './channel-view';
import './dev-panels';
import './dm-view';
import './lobby-view';
import './members-panel';
import './nav-panel';

type Pane = 'nav' | 'main' | 'members';

/** The demo's client shell. */
export class DemoApp extends LitElement {
  static override properties = {
    status: { state: true },
    statusError: { state: true },
    route: { state: true },
    pane: { state: true },
    errors: { state: true },
  };

  static override styles = [sharedStyles, shellStyles];

  declare status: PlatformStatus;
  declare statusError: string | null;
  declare route: Route | null;
  declare pane: Pane;
  declare errors: (DemoErrorDetail & { id: number })[];
  readonly journal = new EventJournal();
  readonly session: ShellSession;
  readonly #phase = new StateController(this, () => this.session);
  // The header says how the client's gateway session is doing.
  readonly #clientStatus = new StateController(this, () => this.#running, 'status');
  readonly #announcements = new AnnouncementController(this, (a) => {
    if (a.type === 'reset') void this.session.start();
    // The event stream shows each injected fault beside what the sessions received after it.
    if (a.type === 'fault') this.journal.recordFault(a.fault);
  });
  #nextError = 1;

  constructor() {
    super();
    const platform = document.querySelector('pp-platform') as PlatformElement;
    this.session = new ShellSession(platform, this.journal, new URLSearchParams(location.search).get('as'));
    this.status = platform.status;
    this.statusError = platform.error;
    this.route = null;
    this.pane = 'main';
    this.errors = [];
  }

  get #running(): DemoClient | null {
    return this.session.state.phase === 'running' ? this.session.state.client : null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.session.platform.addEventListener('pp-status', this.#onStatus);
    this.session.platform.addEventListener('pp-service-worker-restart', this.#onServiceWorkerRestart);
    addEventListener('hashchange', this.#onHash);
    this.addEventListener('demo-error', this.#onError);
    this.addEventListener('demo-reset-request', this.#onReset);
    this.session.addEventListener('error', this.#onSessionError);
    void this.session.start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.session.platform.removeEventListener('pp-status', this.#onStatus);
    this.session.platform.removeEventListener('pp-service-worker-restart', this.#onServiceWorkerRestart);
    removeEventListener('hashchange', this.#onHash);
    this.session.stop();
  }

  override render() {
    const state = this.session.state;
    const client = this.#running;
    const route = client ? (this.route ?? this.#home(client)) : null;
    return html`
      <div class="app" data-pane=${this.pane}>
        <header class="top">
          <h1><span class="mark" aria-hidden="true">◆</span> platformpp <span class="muted">demo</span></h1>
          <p class="status" data-status=${this.status} role="status">${PLATFORM_STATUS[this.status]}${this.statusError ? `: ${this.statusError}` : ''}</p>
          ${client ? this.#userBar(client) : nothing}
        </header>
        ${
          client && route
            ? html`
            <demo-nav class="pane nav" role="region" aria-label="Guild" .client=${client} route=${routeKey(route)} @click=${this.#onNavClick}></demo-nav>
            <main class="pane main" id="main">${this.#view(client, route)}</main>
            <demo-members class="pane members" role="complementary" aria-label="Members" .client=${client} lobby-id=${route.view === 'lobby' ? route.id : ''} dm-user-id=${route.view === 'dm' ? route.id : ''}></demo-members>
            <nav class="tabs" aria-label="Panels">
              ${(['nav', 'main', 'members'] as const).map(
                (
                  pane,
                ) => html`<button type="button" aria-pressed=${this.pane === pane ? 'true' : 'false'} @click=${() => (this.pane = pane)}>
                ${icon(pane === 'nav' ? 'text' : pane === 'members' ? 'users' : 'lobby')}<span>${pane === 'nav' ? 'Channels' : pane === 'members' ? 'Members' : routeLabel(route)}</span></button>`,
              )}
            </nav>`
            : html`<main class="setup" id="main">${this.#setup(state)}</main>`
        }
      </div>
      <div class="alerts" aria-live="assertive">
        ${this.errors.map(
          (e) => html`<div class="alert" role="alert">
          <p><strong>${e.what} failed.</strong> ${e.message}</p>
          <button type="button" aria-label=${`Dismiss: ${e.what} failed`} @click=${() => (this.errors = this.errors.filter((x) => x.id !== e.id))}>Dismiss</button>
        </div>`,
        )}
      </div>
    `;
  }

  #userBar(client: DemoClient) {
    const others = client.world.users.filter((u) => u.id !== client.user.id);
    return html`<div class="user">
      <span class="gateway" data-state=${client.status}><span class="dot" aria-hidden="true"></span>${client.status === 'ready' ? 'Gateway connected' : client.status === 'connecting' ? 'Gateway connecting…' : `Gateway closed: ${client.closedReason ?? ''}`}</span>
      <label for="as" class="you-are">You are</label>
      <select id="as" @change=${(e: Event) => (location.search = userQuery((e.target as HTMLSelectElement).value))}>
        ${client.world.users.map((u) => html`<option value=${u.username} ?selected=${u.id === client.user.id}>${displayName(u)}</option>`)}
      </select>
      <a class="open-tab" href=${userQuery(others[0].username)} target="_blank" rel="noopener">Open ${displayName(others[0])}<span class="wide-only"> in a new tab</span></a>
    </div>`;
  }

  #view(client: DemoClient, route: Route) {
    switch (route.view) {
      case 'lobby':
        return html`<demo-lobby-view .client=${client} lobby-id=${route.id}></demo-lobby-view>`;
      case 'channel':
        return html`<demo-channel-view .client=${client} channel-id=${route.id}></demo-channel-view>`;
      case 'dm':
        return html`<demo-dm-view .client=${client} user-id=${route.id}></demo-dm-view>`;
      case 'bot':
        return html`<demo-bot-view .client=${client}></demo-bot-view>`;
      case 'dev':
        return html`<demo-dev-panels .client=${client} .journal=${this.journal} panel=${route.panel}></demo-dev-panels>`;
    }
  }

  #setup(state: ShellSession['state']) {
    switch (state.phase) {
      case 'starting':
        if (this.session.platform.server)
          return html`<div class="card stack" role="status"><h2>Joining the platform server ${this.session.platform.server}…</h2>
          <p class="muted">The service worker sends this page's HTTP API there, and the gateway is a WebSocket to it: every browser that joins it shares one sandbox.</p></div>`;
        return html`<div class="card stack" role="status"><h2>Starting the platform in this browser…</h2>
          <p class="muted">The service worker is the HTTP API, IndexedDB the database, a shared worker the gateway. No server, no network.</p></div>`;
      case 'seeding':
        return html`<div class="card stack" role="status"><h2>First visit: seeding the demo data through the platform's API</h2>
          <ol>${state.steps.map((s) => html`<li>${s}…</li>`)}</ol></div>`;
      case 'unknown-user':
        return html`<div class="card stack" role="alert"><h2>There is no user “${state.as}” in this demo</h2>
          <p>The address asks for <code>?as=${state.as}</code>. Open the demo as one of its users:</p>
          <ul class="choices">${state.users.map((u) => html`<li><a href=${userQuery(u.username)}>${displayName(u)} <span class="muted">@${u.username}</span></a></li>`)}</ul></div>`;
      case 'failed':
        return html`<div class="card stack" role="alert"><h2>The demo could not start</h2><p>${state.reason}</p>
          <div class="row"><button class="primary" type="button" @click=${() => this.session.start()}>Try again</button></div></div>`;
      default:
        return nothing;
    }
  }

  #home(client: DemoClient): Route {
    return parseRoute(location.hash, { view: 'lobby', id: client.world.lobby.id });
  }

  readonly #onHash = (): void => {
    const client = this.#running;
    if (client) this.route = this.#home(client);
    this.pane = 'main';
  };

  readonly #onNavClick = (event: Event): void => {
    // On a narrow screen a chosen channel or lobby replaces the list.
    if ((event.composedPath()[0] as HTMLElement).closest?.('a')) this.pane = 'main';
  };

  // The stream shows when a stop_service_worker fault's new start took over this page.
  readonly #onServiceWorkerRestart = (event: Event): void => {
    const { controller, ms } = (event as CustomEvent<ServiceWorkerRestartDetail>).detail;
    this.journal.recordRecovery('service worker', { controller, ms: Math.round(ms) });
  };

  readonly #onStatus = (event: Event): void => {
    const { status, error } = (event as CustomEvent<{ status: PlatformStatus; error: string | null }>).detail;
    this.status = status;
    this.statusError = error;
  };

  readonly #onError = (event: Event): void => {
    this.errors = [...this.errors, { ...(event as CustomEvent<DemoErrorDetail>).detail, id: this.#nextError++ }].slice(
      -4,
    );
  };

  readonly #onSessionError = (event: Event): void => {
    this.errors = [
      ...this.errors,
      {
        what: 'Reading from the platform',
        message: errorMessage((event as CustomEvent).detail),
        id: this.#nextError++,
      },
    ].slice(-4);
  };

  readonly #onReset = (): void => {
    this.session.reset().catch((error) => this.#onSessionError(new CustomEvent('error', { detail: error })));
  };
}

customElements.define('demo-app', DemoApp);
