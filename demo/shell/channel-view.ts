/**
 * `<demo-channel-view>`: a guild channel. A text channel is a chat (`GET/POST
 * /channels/{id}/messages`, MESSAGE_CREATE on the user's gateway session) with who may see it
 * said in words; a voice channel is where activities run: it launches Tic-Tac-Toe in
 * `<pp-activity-frame>` and shows who is in the channel's instance.
 */
import { LitElement, css, html, nothing } from 'lit';
import { MESSAGE_CONTENT_MAX } from '../../src/platform/core/limits';
import { describeAccess } from './channel-access';
import type { WireChannel } from './client-state';
import type { DemoClient } from './demo-client';
import { reportError } from './errors';
import { CHANNEL_TYPE, canView, isPrivate } from './guild-model';
import { icon } from './icons';
import { StateController } from './state-controller';
import { sharedStyles } from './styles';
import './activity-launch';
import './own-activity';
import './chat-panel';

/** A guild channel. */
export class DemoChannelView extends LitElement {
  static override properties = {
    client: { attribute: false },
    channelId: { type: String, attribute: 'channel-id' },
    loading: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: grid; grid-template-rows: auto minmax(0, 1fr); min-height: 0; height: 100%; }
    header { padding: 0.75rem 1rem; border-bottom: 1px solid var(--line); }
    details { margin-top: 0.25rem; font-size: 0.85rem; }
    summary { cursor: pointer; color: var(--ink-muted); }
    details ul { margin: 0.35rem 0 0.25rem 1.2rem; list-style: disc; }
    .activity { padding: 1rem; overflow: auto; display: grid; }
    .empty { padding: 1rem; }
    @media (max-width: 760px) {
      header { padding: 0.5rem 0.75rem; }
      .activity { padding: 0.5rem; }
    }
  `,
  ];

  declare client: DemoClient | null;
  declare channelId: string;
  declare loading: boolean;
  readonly #state = new StateController(this, () => this.client?.state);
  #loadedFor = '';

  constructor() {
    super();
    this.client = null;
    this.channelId = '';
    this.loading = false;
  }

  protected override willUpdate(): void {
    // A text channel's history, once per channel shown, as soon as the user may read it.
    const channel = this.#channel();
    if (channel && channel.type === CHANNEL_TYPE.TEXT && this.#loadedFor !== channel.id && this.#viewable(channel)) {
      this.#loadedFor = channel.id;
      void this.#loadHistory(channel.id);
    }
  }

  override render() {
    const client = this.client;
    const guild = client?.state.guilds.get(client.world.guild.id);
    const channel = this.#channel();
    if (!client || !guild || !channel) return html`<p class="empty muted" role="status">Looking for the channel…</p>`;
    const voice = channel.type === CHANNEL_TYPE.VOICE;
    const locked = isPrivate(guild, channel);
    return html`
      <header>
        <h2>${icon(voice ? 'voice' : locked ? 'lock' : 'text')} ${channel.name}</h2>
        <p class="muted">${voice ? 'Voice channel: activities run here.' : locked ? 'Private text channel.' : 'Text channel.'}</p>
        ${
          voice
            ? nothing
            : html`<details>
          <summary>Who can see #${channel.name}</summary>
          <ul>${describeAccess(guild, channel).map((line) => html`<li>${line}</li>`)}</ul>
          ${locked ? html`<p>The ${client.world.game.name} bot is no moderator: <a href="#/bot">the bot's view</a> shows this channel obfuscated, as the gateway sends it.</p>` : nothing}
        </details>`
        }
      </header>
      ${
        voice
          ? html`<div class="activity"><demo-activity-launch .client=${client} channel-id=${channel.id}></demo-activity-launch>
              <demo-own-activity .client=${client} channel-id=${channel.id}></demo-own-activity></div>`
          : this.#viewable(channel)
            ? html`<demo-chat
              label=${`#${channel.name}`}
              .messages=${client.state.channelMessages.get(channel.id) ?? []}
              ?loading=${this.loading}
              max-length=${MESSAGE_CONTENT_MAX}
              .send=${(content: string) => client.sendChannelMessage(channel.id, content)}
            ></demo-chat>`
            : html`<p class="empty" role="status">You cannot view #${channel.name}: you lack the View Channel permission.</p>`
      }
    `;
  }

  #channel(): WireChannel | undefined {
    return this.client?.state.guilds.get(this.client.world.guild.id)?.channels.get(this.channelId);
  }

  #viewable(channel: WireChannel): boolean {
    const guild = this.client?.state.guilds.get(this.client.world.guild.id);
    return !!guild && canView(guild, this.client!.user.id, channel);
  }

  async #loadHistory(channelId: string): Promise<void> {
    this.loading = true;
    try {
      await this.client!.loadChannelHistory(channelId);
    } catch (error) {
      reportError(this, 'Reading the channel history', error);
    } finally {
      this.loading = false;
    }
  }
}

customElements.define('demo-channel-view', DemoChannelView);
