/**
 * `<demo-channel-view>`: a guild channel. A text channel is a chat (`GET/POST
 * /channels/{id}/messages`, MESSAGE_CREATE on the user's gateway session) whose messages can be
 * answered, edited, deleted and pinned as the user's permissions allow, with who is typing
 * (TYPING_START); who may see it is said in words. A voice channel is a call (join it, talk
 * with the other tabs, mute, deafen, leave; who is in it with their speaking rings) and where
 * activities run: it launches Tic-Tac-Toe in `<pp-activity-frame>`.
 */
import { LitElement, css, html, nothing } from 'lit';
import { MESSAGE_CONTENT_MAX, CHANNEL_MESSAGES_MAX } from '../../src/platform/core/limits';
import { hasPermission, PERMISSIONS } from '../../src/platform/core/permissions';
import { canPin } from '../../src/platform/messages/access';
import { describeAccess } from './channel-access';
import type { GuildState, WireChannel, WireMessage, WireUser } from './client-state';
import type { DemoClient } from './demo-client';
import { reportError } from './errors';
import { CHANNEL_TYPE, canView, channelPermissions, isPrivate, memberName, roleColour, topRole } from './guild-model';
import { icon } from './icons';
import type { MessageActions } from './message-list';
import { ReadController } from './read-controller';
import { StateController } from './state-controller';
import { sharedStyles } from './styles';
import { viewStyles } from './view-styles';
import './activity-launch';
import './own-activity';
import './chat-panel';
import './help-tip';
import './voice-panel';

/** A guild channel. */
export class DemoChannelView extends LitElement {
  static override properties = {
    client: { attribute: false },
    channelId: { type: String, attribute: 'channel-id' },
    loading: { state: true },
  };

  static override styles = [
    sharedStyles,
    viewStyles,
    css`
    details { font-size: 0.8rem; }
    summary { cursor: pointer; }
    details ul { margin: 0.3rem 0 0.2rem 1.1rem; list-style: disc; }
    /* Rows as tall as their content: taller than the view, the column scrolls rather than overlap them. */
    .voice { padding: 1rem; overflow: auto; display: grid; grid-template-columns: minmax(0, 1fr); grid-auto-rows: max-content; align-content: start; gap: 1rem; min-height: 0; }
    .voice > * { min-width: 0; }
    @media (max-width: 760px) { .voice { padding: 0.5rem; gap: 0.5rem; } }
  `,
  ];

  declare client: DemoClient | null;
  declare channelId: string;
  declare loading: boolean;
  readonly #state = new StateController(this, () => this.client?.state);
  readonly #read = new ReadController(this, () => {
    const client = this.client;
    const channel = this.#channel();
    if (!client || !channel || channel.type !== CHANNEL_TYPE.TEXT) return null;
    const messages = client.state.channelMessages.get(channel.id) ?? [];
    return { reads: client.reads, key: `channel:${channel.id}`, messages, me: client.user.id };
  });
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
      <header class="view-head">
        <h2>${icon(voice ? 'voice' : locked ? 'lock' : 'text')} <span>${channel.name}</span></h2>
        <div class="sub muted">
          ${voice ? html`<span>Voice channel: talk with whoever is in it, and run activities together.</span>` : html`<span>${locked ? 'Private text channel' : 'Text channel'}</span>`}
          ${
            voice
              ? nothing
              : html`<details><summary>Who can see #${channel.name}</summary>
                <ul>${describeAccess(guild, channel).map((line) => html`<li>${line}</li>`)}</ul></details>`
          }
        </div>
      </header>
      ${
        locked
          ? html`<demo-help tip="private-channel" class="tip">The ${client.world.game.name} bot is no moderator:
            <a href="#/bot">the bot's view</a> shows this channel obfuscated, as the gateway sends it.</demo-help>`
          : nothing
      }
      ${voice ? this.#voice(client, channel) : this.#text(client, guild, channel)}
    `;
  }

  #voice(client: DemoClient, channel: WireChannel) {
    return html`<div class="voice">
      <demo-voice-panel .client=${client} channel-id=${channel.id} guild-id=${client.world.guild.id}></demo-voice-panel>
      <demo-activity-launch .client=${client} channel-id=${channel.id}></demo-activity-launch>
      <demo-own-activity .client=${client} channel-id=${channel.id}></demo-own-activity>
    </div>`;
  }

  #text(client: DemoClient, guild: GuildState, channel: WireChannel) {
    if (!this.#viewable(channel))
      return html`<p class="empty" role="status">You cannot view #${channel.name}: you lack the View Channel permission.</p>`;
    const me = client.user.id;
    const messages = client.state.channelMessages.get(channel.id) ?? [];
    const perms = channelPermissions(guild, me, channel);
    const may = (bit: bigint) => hasPermission(perms, bit);
    const conversations = client.conversations;
    const actions: MessageActions = {
      reply: () => undefined,
      edit: (m, content) => conversations.editChannelMessage(channel.id, m.id, content),
      remove: (m) => conversations.deleteChannelMessage(channel.id, m.id),
      pin: (m, pinned) => conversations.setPinned(channel.id, m.id, pinned),
      allowed: (m: WireMessage) => ({
        reply: may(PERMISSIONS.SEND_MESSAGES | PERMISSIONS.READ_MESSAGE_HISTORY),
        edit: m.author.id === me,
        remove: m.author.id === me || may(PERMISSIONS.MANAGE_MESSAGES),
        // Pinning follows the spec's 2026-02-23 split (PIN_MESSAGES), by this machine's clock.
        pin: canPin(perms, Date.now()),
      }),
    };
    const nameOf = (user: WireUser) => memberName(guild.members.get(user.id), user);
    const colourOf = (user: WireUser) => {
      const member = guild.members.get(user.id);
      return member ? roleColour(topRole(guild, member)) : undefined;
    };
    const typists = client.state.typing.typists(channel.id).map((id) => {
      const user = client.state.users.get(id);
      return user ? nameOf(user) : 'Someone';
    });
    return html`<demo-chat
      label=${`#${channel.name}`}
      .messages=${messages}
      ?loading=${this.loading}
      .intro=${messages.length < CHANNEL_MESSAGES_MAX && !this.loading ? html`<h3 class="intro-title">Welcome to #${channel.name}!</h3><p class="muted">This is the start of the #${channel.name} channel.</p>` : null}
      me=${me}
      .newFrom=${this.#read.firstUnread}
      max-length=${MESSAGE_CONTENT_MAX}
      .send=${(content: string, replyTo?: string) => conversations.sendChannelMessage(channel.id, content, { replyTo })}
      .typing=${() => conversations.typing(channel.id)}
      .typists=${typists}
      .actions=${actions}
      .nameOf=${nameOf}
      .colourOf=${colourOf}
    ></demo-chat>`;
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
      await this.client!.conversations.loadChannelHistory(channelId);
      await this.client!.conversations.loadPins(channelId);
    } catch (error) {
      reportError(this, 'Reading the channel history', error);
    } finally {
      this.loading = false;
    }
  }
}

customElements.define('demo-channel-view', DemoChannelView);
