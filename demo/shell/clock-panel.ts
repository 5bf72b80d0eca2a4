/**
 * `<demo-clock-panel>`: the sandbox clock (`GET/PUT/DELETE /sandbox/clock`) and the spec's dated
 * rules on either side of it. Setting a date changes what the platform does at once, in every
 * tab: the bot's channel list next to the clock is read again when the clock moves.
 */
import { LitElement, css, html, nothing } from 'lit';
import { inForce, RULE_DATES } from '../../src/platform/core/dates';
import type { PlatformElement } from '../../src/components/platform-element';
import { AnnouncementController } from './announcements';
import type { DemoClient } from './demo-client';
import { reportError } from './errors';
import { sharedStyles } from './styles';
import './bot-channels';

/** What each dated rule changes, in a line. */
const RULES: { key: keyof typeof RULE_DATES; text: string }[] = [
  { key: 'UPLOAD_LIMIT_10_MIB', text: 'Webhook and interaction uploads limited to 10 MiB' },
  { key: 'CREATE_GUILD_REMOVED', text: 'POST /guilds unavailable to apps' },
  { key: 'REQUEST_ALL_MEMBERS_LIMITED', text: 'All-members requests: 1 per guild per 30 s' },
  { key: 'PERMISSION_SPLIT', text: 'Pinning needs PIN_MESSAGES; new bypass and creation bits' },
  { key: 'E2EE_CALLS_ONLY', text: 'Only end-to-end encrypted calls' },
  { key: 'STUDIO_CONNECTIONS_HIDDEN', text: 'Legacy game-studio connections no longer returned' },
  { key: 'NETWORK_CONNECTIONS_HIDDEN', text: 'Game-network connections no longer returned' },
  { key: 'CHANNEL_LIST_OMITS_HIDDEN', text: 'Channel list omits channels the bot cannot view' },
];

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The clock panel. */
export class DemoClockPanel extends LitElement {
  static override properties = {
    client: { attribute: false },
    clock: { state: true },
    busy: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 22rem), 1fr)); align-items: start; }
    form { display: flex; gap: 0.5rem; flex-wrap: wrap; align-items: end; }
    label { display: grid; gap: 0.15rem; font-size: 0.8rem; color: var(--ink-muted); }
    table { border-collapse: collapse; width: 100%; font-size: 0.85rem; }
    th, td { text-align: left; padding: 0.3rem 0.4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
    td.state { white-space: nowrap; font-weight: 600; }
    td.state.on { color: var(--ok); }
    td.state.off { color: var(--ink-muted); }
    .rules { grid-column: 1 / -1; }
    td button { white-space: nowrap; padding: 0.1rem 0.5rem; min-height: 1.6rem; font-size: 0.8rem; }
  `,
  ];

  declare client: DemoClient | null;
  declare clock: { now: string; frozen: boolean } | null;
  declare busy: boolean;
  readonly #announcements = new AnnouncementController(this, (a) => a.type !== 'events' && void this.#read());

  constructor() {
    super();
    this.client = null;
    this.clock = null;
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
    const now = this.clock ? Date.parse(this.clock.now) : null;
    return html`
      <section class="card stack" aria-labelledby="clock-title">
        <h3 id="clock-title">Sandbox clock</h3>
        <p role="status">${now === null ? 'Reading the clock…' : html`Now: <strong>${new Date(now).toUTCString()}</strong> ${this.clock!.frozen ? '(set by hand)' : '(real time)'}`}</p>
        <form @submit=${this.#set}>
          <label>Set the date (12:00 UTC)<input type="date" name="date" required .value=${now === null ? '' : isoDay(now)} /></label>
          <button class="primary" type="submit" ?disabled=${this.busy}>Set clock</button>
          <button type="button" ?disabled=${this.busy || !this.clock?.frozen} @click=${this.#realTime}>Back to real time</button>
        </form>
      </section>
      ${
        this.client
          ? html`<section class="card stack" aria-labelledby="bot-list-title">
            <h3 id="bot-list-title">The bot's channel list at this clock</h3>
            <demo-bot-channels .client=${this.client}></demo-bot-channels>
          </section>`
          : nothing
      }
      <section class="card stack rules" aria-labelledby="rules-title">
        <h3 id="rules-title">The spec's dated rules</h3>
        <div class="table-scroll" tabindex="0" role="region" aria-label="The spec's dated rules, scrollable table"><table>
          <caption class="visually-hidden">The spec's dated rules at this clock</caption>
          <thead><tr><th scope="col">From</th><th scope="col">Rule</th><th scope="col">At this clock</th></tr></thead>
          <tbody>${RULES.map(({ key, text }) => {
            const date = RULE_DATES[key];
            const on = now !== null && inForce(date, now);
            return html`<tr>
              <td><button type="button" aria-label=${`Set the clock to ${isoDay(date)}`} @click=${() => this.#setTo(`${isoDay(date)}T12:00:00Z`)}>${isoDay(date)}</button></td>
              <td>${text}</td>
              <td class="state ${on ? 'on' : 'off'}">${now === null ? '…' : on ? 'In force' : 'Not yet'}</td>
            </tr>`;
          })}</tbody>
        </table></div>
      </section>
    `;
  }

  async #read(): Promise<void> {
    try {
      this.clock = await this.#sandbox.getClock();
    } catch (error) {
      reportError(this, 'Reading the sandbox clock', error);
    }
  }

  #set(event: SubmitEvent): void {
    event.preventDefault();
    const date = String(new FormData(event.currentTarget as HTMLFormElement).get('date') ?? '');
    if (date) void this.#setTo(`${date}T12:00:00Z`);
  }

  async #setTo(iso: string): Promise<void> {
    await this.#change('Setting the sandbox clock', () => this.#sandbox.setClock(iso));
  }

  async #realTime(): Promise<void> {
    await this.#change('Putting the clock back to real time', () => this.#sandbox.resetClock());
  }

  async #change(what: string, run: () => Promise<{ now: string; frozen: boolean }>): Promise<void> {
    this.busy = true;
    try {
      this.clock = await run();
    } catch (error) {
      reportError(this, what, error);
    } finally {
      this.busy = false;
    }
  }
}

customElements.define('demo-clock-panel', DemoClockPanel);
