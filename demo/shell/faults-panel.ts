/**
 * `<demo-faults-panel>`: faults and rate limits on demand (docs/faults.md) by hand. The sandbox's
 * HTTP rate limits on or off; a gateway fault for the user's sessions, the bot's or everyone's;
 * the next HTTP requests on a path failing or held; the shared worker stopped now. Each injected
 * fault also shows in the gateway event stream, and the list below says what is still pending.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { PlatformElement } from '../../src/components/platform-element';
import type { FaultRequest, InjectedFault, RateLimitSettingsView } from '../../src/components/sandbox-faults';
import { AnnouncementController } from './announcements';
import type { DemoClient } from './demo-client';
import { reportError } from './errors';
import { sharedStyles } from './styles';

/** The gateway faults offered, with their labels. */
const GATEWAY_FAULTS: { id: string; label: string; fault: FaultRequest }[] = [
  { id: 'reconnect', label: 'RECONNECT (op 7)', fault: { type: 'reconnect' } },
  { id: 'invalid', label: 'INVALID_SESSION, not resumable', fault: { type: 'invalid_session', resumable: false } },
  { id: 'invalid-resume', label: 'INVALID_SESSION, resumable', fault: { type: 'invalid_session', resumable: true } },
  { id: 'zombie', label: 'Stop acknowledging heartbeats (zombie)', fault: { type: 'zombie' } },
  { id: 'close', label: 'Close with 4000 (unknown error)', fault: { type: 'close', code: 4000 } },
  { id: 'hold', label: 'Hold dispatches for 5 s', fault: { type: 'hold_dispatches', duration_ms: 5000 } },
];

const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** The faults panel. */
export class DemoFaultsPanel extends LitElement {
  static override properties = {
    client: { attribute: false },
    limits: { state: true },
    faults: { state: true },
    busy: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 22rem), 1fr)); align-items: start; }
    form { display: flex; gap: 0.5rem; flex-wrap: wrap; align-items: end; }
    label { display: grid; gap: 0.15rem; font-size: 0.8rem; color: var(--ink-muted); }
    label.check { display: flex; gap: 0.35rem; align-items: center; color: var(--ink); font-size: 0.9rem; }
    .faults { grid-column: 1 / -1; }
    ol { margin: 0; padding-left: 1.2rem; font-size: 0.85rem; }
    code { font-size: 0.8rem; }
  `,
  ];

  declare client: DemoClient | null;
  declare limits: RateLimitSettingsView | null;
  declare faults: { pending: InjectedFault[]; history: InjectedFault[] } | null;
  declare busy: boolean;
  readonly #announcements = new AnnouncementController(
    this,
    (a) => (a.type === 'fault' || a.type === 'reset') && void this.#read(),
  );

  constructor() {
    super();
    this.client = null;
    this.limits = null;
    this.faults = null;
    this.busy = false;
  }

  get #sandbox() {
    return (document.querySelector('pp-platform') as PlatformElement).sandbox;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#read();
  }

  override render() {
    const history = [...(this.faults?.history ?? [])].reverse().slice(0, 10);
    return html`
      <section class="card stack" aria-labelledby="limits-title">
        <h3 id="limits-title">HTTP rate limits</h3>
        <label class="check"><input type="checkbox" .checked=${this.limits?.enabled ?? false} ?disabled=${this.busy || !this.limits} @change=${this.#toggleLimits} />Rate limit this sandbox as the platform does</label>
        <p class="muted" role="status">${this.limits ? `${this.limits.route_limit} requests per ${this.limits.route_window_seconds} s per route bucket, ${this.limits.global_per_second} per second in all.` : 'Reading the setting…'}</p>
      </section>
      <section class="card stack" aria-labelledby="gateway-fault-title">
        <h3 id="gateway-fault-title">Gateway</h3>
        <form @submit=${this.#injectGateway}>
          <label>Fault<select name="fault">${GATEWAY_FAULTS.map((f) => html`<option value=${f.id}>${f.label}</option>`)}</select></label>
          <label>Sessions<select name="target">
            <option value="user">${this.client ? `${this.client.user.username}'s` : "The user's"}</option>
            <option value="bot">The bot's</option>
            <option value="all">Everyone's</option>
          </select></label>
          <button class="primary" type="submit" ?disabled=${this.busy}>Inject</button>
        </form>
        <button type="button" ?disabled=${this.busy} @click=${() => this.#inject({ type: 'stop_shared_worker' })}>Stop the shared worker now</button>
        <button type="button" ?disabled=${this.busy} @click=${() => this.#inject({ type: 'stop_service_worker' })}>Stop the service worker now</button>
      </section>
      <section class="card stack" aria-labelledby="http-fault-title">
        <h3 id="http-fault-title">HTTP</h3>
        <form @submit=${this.#injectHttp}>
          <label>Answer<select name="status">
            <option value="429">429 rate limited</option><option value="500">500</option><option value="502">502</option><option value="503">503</option><option value="delay">Delay 3 s</option>
          </select></label>
          <label>Method<select name="method">${['*', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => html`<option>${m}</option>`)}</select></label>
          <label>Path<input name="path" required value="/api/v10/channels/*/messages" /></label>
          <label>Next requests<input name="count" type="number" min="1" max="100" value="1" /></label>
          <button class="primary" type="submit" ?disabled=${this.busy}>Inject</button>
        </form>
      </section>
      <section class="card stack faults" aria-labelledby="faults-title">
        <h3 id="faults-title">Faults</h3>
        <p role="status">${this.faults ? `${this.faults.pending.length} pending` : 'Reading…'}</p>
        ${
          history.length === 0
            ? html`<p class="muted">None injected since the last reset.</p>`
            : html`<ol aria-label="Latest faults, newest first">${history.map(
                (f) =>
                  html`<li><code>${f.type}</code> ${describe(f)} <span class="muted">${TIME.format(f.created_at)}${f.remaining ? `, ${f.remaining} left` : nothing}</span></li>`,
              )}</ol>`
        }
        <button type="button" ?disabled=${this.busy || !this.faults?.pending.length} @click=${this.#clear}>Clear pending faults</button>
      </section>
    `;
  }

  async #read(): Promise<void> {
    try {
      [this.limits, this.faults] = await Promise.all([this.#sandbox.getRateLimits(), this.#sandbox.listFaults()]);
    } catch (error) {
      reportError(this, 'Reading the faults and rate limits', error);
    }
  }

  #toggleLimits(event: Event): void {
    const enabled = (event.target as HTMLInputElement).checked;
    void this.#run('Changing the rate limits', async () => {
      this.limits = await this.#sandbox.setRateLimits({ enabled });
    });
  }

  #injectGateway(event: SubmitEvent): void {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const chosen = GATEWAY_FAULTS.find((f) => f.id === form.get('fault')) ?? GATEWAY_FAULTS[0];
    const target = form.get('target');
    const who =
      target === 'user' && this.client
        ? { user_id: this.client.user.id }
        : target === 'bot' && this.client
          ? { user_id: this.client.world.game.bot_user_id }
          : {};
    void this.#inject({ ...chosen.fault, ...who } as FaultRequest);
  }

  #injectHttp(event: SubmitEvent): void {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const status = String(form.get('status'));
    const match = {
      path: String(form.get('path')),
      method: String(form.get('method')) as 'GET',
      count: Number(form.get('count') || 1),
    };
    void this.#inject(
      status === 'delay'
        ? { type: 'http_delay', delay_ms: 3000, ...match }
        : { type: 'http_error', status: Number(status) as 429, ...match },
    );
  }

  async #inject(fault: FaultRequest): Promise<void> {
    await this.#run('Injecting the fault', async () => {
      await this.#sandbox.injectFault(fault);
      await this.#read();
    });
  }

  #clear(): void {
    void this.#run('Clearing the faults', async () => {
      await this.#sandbox.clearFaults();
      await this.#read();
    });
  }

  async #run(what: string, body: () => Promise<void>): Promise<void> {
    this.busy = true;
    try {
      await body();
    } catch (error) {
      reportError(this, what, error);
    } finally {
      this.busy = false;
    }
  }
}

/** A fault's own fields, in a few words. */
function describe(fault: InjectedFault): string {
  const { id: _id, created_at: _at, remaining: _left, type: _type, ...rest } = fault as Record<string, unknown>;
  return Object.entries(rest)
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(', ');
}

customElements.define('demo-faults-panel', DemoFaultsPanel);
