/**
 * `<demo-lobby-view>`: a lobby's chat. The history is the platform's newest 200 messages
 * (`GET /lobbies/{id}/messages?limit=200`); new messages arrive as LOBBY_MESSAGE_CREATE on the
 * user's gateway session, from this tab or any other. The header says how many are in it and,
 * when this browser knows it, the secret that lets others join. Above the chat, the lobby's
 * voice call: who is in it with their speaking rings, Join, and once in, Mute, Deafen and
 * Leave. Lobby messages cannot be edited, deleted or pinned on the platform, and lobbies have no
 * typing indicator.
 */
import { LitElement, css, html } from 'lit';
import { LOBBY_MESSAGE_CONTENT_MAX, LOBBY_MESSAGES_MAX } from '../../src/platform/core/limits';
import type { DemoClient } from './demo-client';
import { reportError } from './errors';
import { icon } from './icons';
import { lobbyName, memberCount } from './lobby-name';
import { ReadController } from './read-controller';
import { StateController } from './state-controller';
import { sharedStyles } from './styles';
import { viewStyles } from './view-styles';
import './chat-panel';
import './copy-button';
import './help-tip';
import './voice-panel';

/** A lobby's chat. */
export class DemoLobbyView extends LitElement {
  static override properties = {
    client: { attribute: false },
    lobbyId: { type: String, attribute: 'lobby-id' },
    loading: { state: true },
  };

  static override styles = [
    sharedStyles,
    viewStyles,
    css`
    .secret { display: inline-flex; align-items: center; gap: 0.3rem; }
    .secret code { background: var(--code-bg); padding: 0.05rem 0.35rem; border-radius: 4px; }
    /* Header, tip, the call's bar, then the chat taking the rest. */
    :host { grid-template-rows: auto auto auto minmax(0, 1fr); }
    .view-head ~ .call-bar:not(.tip) { grid-row: 3; }
    .view-head ~ demo-chat:not(.tip) { grid-row: 4; }
    .tip { margin-bottom: 0.6rem; }
  `,
  ];

  declare client: DemoClient | null;
  declare lobbyId: string;
  declare loading: boolean;
  readonly #state = new StateController(this, () => this.client?.state);
  readonly #read = new ReadController(this, () => {
    const client = this.client;
    if (!client || !client.state.lobbies.has(this.lobbyId)) return null;
    const messages = client.state.messages.get(this.lobbyId) ?? [];
    return { reads: client.reads, key: `lobby:${this.lobbyId}`, messages, me: client.user.id };
  });
  #loadedFor = '';

  constructor() {
    super();
    this.client = null;
    this.lobbyId = '';
    this.loading = false;
  }

  protected override willUpdate(): void {
    // Once per lobby shown, as soon as the client knows the lobby (it may learn of it later).
    if (this.client && this.#loadedFor !== this.lobbyId && this.client.state.lobbies.has(this.lobbyId)) {
      this.#loadedFor = this.lobbyId;
      void this.#loadHistory();
    }
  }

  override render() {
    const client = this.client;
    const lobby = client?.state.lobbies.get(this.lobbyId);
    if (!client || !lobby) {
      return html`<p class="empty muted" role="status">You are not in this lobby. Join a lobby by its secret in the left column.</p>`;
    }
    const secret = client.lobbySecret(lobby.id);
    const name = lobbyName(lobby, secret);
    const messages = client.state.messages.get(lobby.id) ?? [];
    return html`
      <header class="view-head">
        <h2>${icon('lobby')} <span>${name}</span></h2>
        <p class="sub muted">
          <span>${memberCount(lobby.members.length)}</span>
          ${
            secret
              ? html`<span class="secret">${icon('key')} Secret <code>${secret}</code><demo-copy .value=${secret} label="Copy the lobby's secret"></demo-copy></span>`
              : html`<span>Joined elsewhere: ask a member for its secret.</span>`
          }
        </p>
        <button type="button" class="head-action" @click=${this.#leave}>Leave lobby</button>
      </header>
      <demo-help tip="lobby" class="tip">
        A lobby is the game SDK's group chat: anyone with its secret joins it (<code>PUT /lobbies</code>). Open the
        demo as someone else in a new tab and join with the secret: they arrive here live.
      </demo-help>
      <demo-voice-panel class="call-bar" bar .client=${client} channel-id=${lobby.id}></demo-voice-panel>
      <demo-chat
        label=${name}
        .messages=${messages}
        ?loading=${this.loading}
        empty="No messages yet. Say hello!"
        .intro=${messages.length < LOBBY_MESSAGES_MAX ? html`<h3 class="intro-title">${name}</h3><p class="muted">The start of this lobby's chat.</p>` : null}
        me=${client.user.id}
        .newFrom=${this.#read.firstUnread}
        max-length=${LOBBY_MESSAGE_CONTENT_MAX}
        .send=${(content: string) => client.conversations.sendLobbyMessage(lobby.id, content)}
      ></demo-chat>
    `;
  }

  async #loadHistory(): Promise<void> {
    const client = this.client!;
    const lobbyId = this.lobbyId;
    this.loading = true;
    try {
      await client.conversations.loadLobbyHistory(lobbyId);
      // Names of members who have not written yet (the client knows its simulated users).
      await Promise.all((client.state.lobbies.get(lobbyId)?.members ?? []).map((m) => client.resolveUser(m.id)));
    } catch (error) {
      reportError(this, 'Reading the lobby history', error);
    } finally {
      this.loading = false;
    }
  }

  async #leave(): Promise<void> {
    try {
      await this.client!.leaveLobby(this.lobbyId);
      location.hash = '#/';
    } catch (error) {
      reportError(this, 'Leaving the lobby', error);
    }
  }
}

customElements.define('demo-lobby-view', DemoLobbyView);
