/**
 * `<demo-bot-channels>`: the guild's channel list as the bot reads it over HTTP
 * (`GET /guilds/{id}/channels` with its bot token), next to the sandbox clock. From 2026-11-16
 * by that clock the platform omits the channels the bot cannot view; before, it lists them in
 * full. The list is read again whenever the clock changes, in this tab or another.
 */
import { LitElement, css, html, nothing } from 'lit';
import { inForce, RULE_DATES } from '../../src/platform/core/dates';
import type { WireChannel } from './client-state';
import type { DemoClient } from './demo-client';
import { AnnouncementController } from './announcements';
import { errorMessage } from './errors';
import { CHANNEL_TYPE, canView } from './guild-model';
import { icon } from './icons';
import { StateController } from './state-controller';
import { sharedStyles } from './styles';

/** The rule's date as the spec writes it. */
export const OMIT_HIDDEN_DATE = new Date(RULE_DATES.CHANNEL_LIST_OMITS_HIDDEN).toISOString().slice(0, 10);

/** The bot's HTTP channel list. */
export class DemoBotChannels extends LitElement {
  static override properties = {
    client: { attribute: false },
    channels: { state: true },
    clock: { state: true },
    failure: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: block; }
    li { padding: 0.2rem 0; display: flex; gap: 0.5rem; align-items: baseline; }
    .icon { width: 1.1rem; text-align: center; color: var(--ink-muted); }
    .rule { padding: 0.5rem 0.75rem; border-radius: 6px; background: var(--paper-alt); }
    .rule.on { background: var(--accent-soft); }
  `,
  ];

  declare client: DemoClient | null;
  declare channels: WireChannel[] | null;
  declare clock: { now: string; frozen: boolean } | null;
  declare failure: string | null;
  readonly #announcements = new AnnouncementController(this, (a) => a.type === 'clock' && void this.reload());
  readonly #state = new StateController(this, () => this.client?.state);

  constructor() {
    super();
    this.client = null;
    this.channels = null;
    this.clock = null;
    this.failure = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.reload();
  }

  /** Reads the clock and the channel list again. */
  async reload(): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      const sandbox = document.querySelector('pp-platform')!.sandbox;
      const [clock, channels] = await Promise.all([
        sandbox.getClock(),
        client.botApi.get<WireChannel[]>(`/guilds/${client.world.guild.id}/channels`),
      ]);
      this.clock = clock;
      this.channels = channels;
      this.failure = null;
    } catch (error) {
      // Shown in place: the list is what this panel is for.
      this.failure = errorMessage(error);
    }
  }

  override render() {
    const client = this.client;
    if (!client) return nothing;
    const now = this.clock ? Date.parse(this.clock.now) : null;
    const omits = now !== null && inForce(RULE_DATES.CHANNEL_LIST_OMITS_HIDDEN, now);
    const listed = (this.channels ?? []).filter((c) => c.type !== CHANNEL_TYPE.CATEGORY);
    // What the bot may view, computed from the guild as the user's session knows it (roles, the bot's member roles).
    const guild = client.state.guilds.get(client.world.guild.id);
    const hidden = (c: WireChannel) =>
      guild?.members.has(client.world.game.bot_user_id) ? !canView(guild, client.world.game.bot_user_id, c) : false;
    const missing = this.channels
      ? listed.length <
        [...(client.botState.guilds.get(client.world.guild.id)?.channels.values() ?? [])].filter(
          (c) => c.type !== CHANNEL_TYPE.CATEGORY,
        ).length
      : false;
    return html`
      <div class="stack">
        <p class="rule ${omits ? 'on' : ''}" role="status">
          ${
            now === null
              ? 'Reading the sandbox clock…'
              : html`Sandbox clock: <strong>${new Date(now).toUTCString()}</strong>${this.clock?.frozen ? ' (set)' : ' (real time)'}.
            ${
              omits
                ? html`The ${OMIT_HIDDEN_DATE} rule is in force: channels the bot cannot view are <strong>omitted</strong>.`
                : html`Before ${OMIT_HIDDEN_DATE}: channels the bot cannot view are still <strong>listed in full</strong>.`
            }`
          }
        </p>
        ${this.failure ? html`<p class="error" role="alert">Reading the bot's channel list failed: ${this.failure}</p>` : nothing}
        ${
          this.channels
            ? html`<ul aria-label="Channels in the bot's HTTP list">${listed.map((c) => html`<li><span class="icon">${icon(c.type === CHANNEL_TYPE.VOICE ? 'voice' : 'text')}</span><span>${c.name}</span>${hidden(c) ? html`<span class="muted">the bot cannot view it</span>` : nothing}</li>`)}</ul>
            <p class="muted">${listed.length} channels listed${missing ? ', fewer than the gateway told the bot of' : ''}.</p>`
            : nothing
        }
      </div>
    `;
  }
}

customElements.define('demo-bot-channels', DemoBotChannels);
