/**
 * `<demo-lobby-view>`: a lobby's chat. The history is the platform's newest 200 messages
 * (`GET /lobbies/{id}/messages?limit=200`); new messages arrive
 * as LOBBY_MESSAGE_CREATE on the user's gateway session, from this tab or any other.
 */
import { LitElement, css, html } from 'lit';
import { LOBBY_MESSAGE_CONTENT_MAX } from '../../src/platform/core/limits';
import type { DemoClient } from './demo-client';
import { reportError } from './errors';
import { icon } from './icons';
import { lobbyName } from './nav-panel';
import { StateController } from './state-controller';
import { sharedStyles } from './styles';
import { displayName } from './world';
import './chat-panel';

/** A lobby's chat. */
export class DemoLobbyView extends LitElement {
  static override properties = {
    client: { attribute: false },
    lobbyId: { type: String, attribute: 'lobby-id' },
    loading: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: grid; grid-template-rows: auto minmax(0, 1fr); min-height: 0; height: 100%; }
    header { padding: 0.75rem 1rem; border-bottom: 1px solid var(--line); display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; }
    header .who { flex: 1; min-width: 12rem; }
    .empty { padding: 1rem; }
  `,
  ];

  declare client: DemoClient | null;
  declare lobbyId: string;
  declare loading: boolean;
  readonly #state = new StateController(this, () => this.client?.state);
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
    const name = lobbyName(lobby);
    const memberNames = lobby.members.map((m) => {
      const user = client.state.users.get(m.id);
      return user ? displayName(user) : 'someone new';
    });
    return html`
      <header>
        <div class="who">
          <h2>${icon('lobby')} ${name}</h2>
          <p class="muted">${lobby.members.length} ${lobby.members.length === 1 ? 'member' : 'members'}: ${memberNames.join(', ')}</p>
        </div>
        <button type="button" @click=${this.#leave}>Leave lobby</button>
      </header>
      <demo-chat
        label=${name}
        .messages=${client.state.messages.get(lobby.id) ?? []}
        ?loading=${this.loading}
        empty="No messages in the last 72 hours (by the sandbox clock). Say hello!"
        max-length=${LOBBY_MESSAGE_CONTENT_MAX}
        .send=${(content: string) => client.sendMessage(lobby.id, content)}
      ></demo-chat>
    `;
  }

  async #loadHistory(): Promise<void> {
    const client = this.client!;
    const lobbyId = this.lobbyId;
    this.loading = true;
    try {
      await client.loadHistory(lobbyId);
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
