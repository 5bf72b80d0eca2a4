/**
 * `<demo-dm-view user-id>`: direct messages with another user, as the game SDK sends them
 * (`POST` / `GET /users/@me/dms/{user_id}/messages`). The seeded users are friends, so their
 * messages are kept in their DM channel (for 72 hours, by the platform's rule) and arrive as
 * MESSAGE_CREATE in every tab of either user; typing shows through the DM channel's
 * TYPING_START. Direct messages cannot be edited, deleted or pinned on the platform.
 */
import { LitElement, css, html } from 'lit';
import { DM_MESSAGE_CONTENT_MAX, DM_MESSAGES_HISTORY_HOURS } from '../../src/platform/core/limits';
import type { DemoClient } from './demo-client';
import { reportError } from './errors';
import { ReadController } from './read-controller';
import { StateController } from './state-controller';
import { avatarColour, initials, sharedStyles } from './styles';
import { viewStyles } from './view-styles';
import { displayName } from './world';
import './chat-panel';

const STATUS_TEXT: Record<string, string> = {
  online: 'Online',
  idle: 'Idle',
  dnd: 'Do not disturb',
  offline: 'Offline',
};

/** A direct message conversation. */
export class DemoDmView extends LitElement {
  static override properties = {
    client: { attribute: false },
    userId: { type: String, attribute: 'user-id' },
    loading: { state: true },
  };

  static override styles = [
    sharedStyles,
    viewStyles,
    css`
    .view-head h2 .avatar { --dot-ring: var(--paper); }
  `,
  ];

  declare client: DemoClient | null;
  declare userId: string;
  declare loading: boolean;
  readonly #state = new StateController(this, () => this.client?.state);
  readonly #read = new ReadController(this, () => {
    const client = this.client;
    const channelId = client?.state.dmChannelWith(this.userId);
    if (!client || !channelId) return null;
    const messages = client.state.channelMessages.get(channelId) ?? [];
    return { reads: client.reads, key: `channel:${channelId}`, messages, me: client.user.id };
  });
  #loadedFor = '';

  constructor() {
    super();
    this.client = null;
    this.userId = '';
    this.loading = false;
  }

  protected override willUpdate(): void {
    if (this.client && this.#loadedFor !== this.userId) {
      this.#loadedFor = this.userId;
      void this.#loadHistory();
    }
  }

  override render() {
    const client = this.client;
    const other = client?.world.users.find((u) => u.id === this.userId);
    if (!client || !other || other.id === client.user.id)
      return html`<p class="empty muted" role="status">There is no one to message at this address.</p>`;
    const name = displayName(other);
    const status = client.state.presences.get(other.id)?.status ?? 'offline';
    const channelId = client.state.dmChannelWith(other.id);
    const messages = channelId ? (client.state.channelMessages.get(channelId) ?? []) : [];
    const typists = channelId && client.state.typing.typists(channelId).includes(other.id) ? [name] : [];
    return html`
      <header class="view-head">
        <h2>
          <span class="avatar small" style="background:${avatarColour(other.id)}" aria-hidden="true">${initials(name)}</span>
          <span>${name}</span>
        </h2>
        <p class="sub muted"><span>${STATUS_TEXT[status] ?? status}</span><span>@${other.username}</span></p>
      </header>
      <demo-chat
        label=${`@${name}`}
        .messages=${messages}
        ?loading=${this.loading}
        empty=${`No direct messages with ${name} in the last ${DM_MESSAGES_HISTORY_HOURS} hours.`}
        .intro=${html`<h3 class="intro-title">${name}</h3><p class="muted">Your direct messages with ${name}, kept ${DM_MESSAGES_HISTORY_HOURS} hours.</p>`}
        me=${client.user.id}
        .newFrom=${this.#read.firstUnread}
        max-length=${DM_MESSAGE_CONTENT_MAX}
        .send=${(content: string) => client.conversations.sendDm(other.id, content)}
        .typing=${channelId ? () => client.conversations.typing(channelId) : null}
        .typists=${typists}
      ></demo-chat>
    `;
  }

  async #loadHistory(): Promise<void> {
    this.loading = true;
    try {
      await this.client!.conversations.loadDmHistory(this.userId);
    } catch (error) {
      reportError(this, 'Reading the direct messages', error);
    } finally {
      this.loading = false;
    }
  }
}

customElements.define('demo-dm-view', DemoDmView);
