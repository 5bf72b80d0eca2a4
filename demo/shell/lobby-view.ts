/**
 * `<demo-lobby-view>`: a lobby's chat. The history is the platform's newest 200 messages
 * (`GET /lobbies/{id}/messages?limit=200`, 72 hours by the sandbox clock); new messages arrive
 * as LOBBY_MESSAGE_CREATE on the user's gateway session, from this tab or any other.
 */
import { LitElement, css, html, nothing } from 'lit';
import { LOBBY_MESSAGE_CONTENT_MAX } from '../../src/platform/limits';
import type { DemoClient } from './demo-client';
import { reportError } from './errors';
import { lobbyName } from './nav-panel';
import { StateController } from './state-controller';
import { icon } from './icons';
import { avatarColour, initials, sharedStyles } from './styles';
import { displayName } from './world';

const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const DAY = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

/** A lobby's chat. */
export class DemoLobbyView extends LitElement {
  static override properties = {
    client: { attribute: false },
    lobbyId: { type: String, attribute: 'lobby-id' },
    sending: { state: true },
    loading: { state: true },
  };

  static override styles = [sharedStyles, css`
    :host { display: grid; grid-template-rows: auto 1fr auto; min-height: 0; height: 100%; }
    header { padding: 0.75rem 1rem; border-bottom: 1px solid var(--line); display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; }
    header .who { flex: 1; min-width: 12rem; }
    ol { list-style: none; margin: 0; padding: 0.75rem 1rem; overflow: auto; display: grid; align-content: start; gap: 0.85rem; }
    li { display: flex; gap: 0.65rem; }
    .meta { display: flex; gap: 0.5rem; align-items: baseline; }
    .author { font-weight: 600; }
    time { font-size: 0.75rem; color: var(--ink-muted); }
    .content { white-space: pre-wrap; overflow-wrap: anywhere; }
    form { border-top: 1px solid var(--line); padding: 0.75rem 1rem; display: flex; gap: 0.5rem; }
    form input { flex: 1; min-width: 0; }
    .empty { padding: 1rem; }
  `];

  declare client: DemoClient | null;
  declare lobbyId: string;
  declare sending: boolean;
  declare loading: boolean;
  readonly #state = new StateController(this, () => this.client?.state);
  #shownCount = 0;
  #loadedFor = '';

  constructor() {
    super();
    this.client = null;
    this.lobbyId = '';
    this.sending = false;
    this.loading = false;
  }

  protected override willUpdate(): void {
    // Once per lobby shown, as soon as the client knows the lobby (it may learn of it later).
    if (this.client && this.#loadedFor !== this.lobbyId && this.client.state.lobbies.has(this.lobbyId)) {
      this.#loadedFor = this.lobbyId;
      void this.#loadHistory();
    }
  }

  protected override updated(): void {
    // Keep the newest message in view when one arrives.
    const count = this.client?.state.messages.get(this.lobbyId)?.length ?? 0;
    if (count !== this.#shownCount) {
      this.#shownCount = count;
      const log = this.renderRoot.querySelector('ol');
      if (log) log.scrollTop = log.scrollHeight;
    }
  }

  override render() {
    const client = this.client;
    const lobby = client?.state.lobbies.get(this.lobbyId);
    if (!client || !lobby) {
      return html`<p class="empty muted" role="status">You are not in this lobby. Join a lobby by its secret in the left column.</p>`;
    }
    const name = lobbyName(lobby);
    const messages = client.state.messages.get(lobby.id) ?? [];
    const memberNames = lobby.members.map((m) => {
      const user = client.state.users.get(m.id);
      return user ? displayName(user) : m.id;
    });
    return html`
      <header>
        <div class="who">
          <h2>${icon('lobby')} ${name}</h2>
          <p class="muted">${lobby.members.length} ${lobby.members.length === 1 ? 'member' : 'members'}: ${memberNames.join(', ')}</p>
        </div>
        <button type="button" @click=${this.#leave}>Leave lobby</button>
      </header>
      <ol role="log" aria-live="polite" aria-label=${`Messages in ${name}`}>
        ${this.loading && messages.length === 0 ? html`<li class="muted">Loading the history…</li>` : nothing}
        ${!this.loading && messages.length === 0 ? html`<li class="muted">No messages in the last 72 hours (by the sandbox clock). Say hello!</li>` : nothing}
        ${messages.map((m) => {
          const when = new Date(m.timestamp);
          const author = displayName(m.author);
          return html`<li data-message-id=${m.id}>
            <span class="avatar" style="background:${avatarColour(m.author.id)}" aria-hidden="true">${initials(author)}</span>
            <div>
              <div class="meta"><span class="author">${author}</span><time datetime=${m.timestamp}>${DAY.format(when)} ${TIME.format(when)}</time></div>
              <div class="content">${m.content}</div>
            </div>
          </li>`;
        })}
      </ol>
      <form @submit=${this.#send}>
        <label class="visually-hidden" for="composer">Message ${name}</label>
        <input id="composer" name="content" autocomplete="off" required maxlength=${LOBBY_MESSAGE_CONTENT_MAX} placeholder=${`Message ${name}`} />
        <button class="primary" type="submit" ?disabled=${this.sending}>Send</button>
      </form>
    `;
  }

  async #loadHistory(): Promise<void> {
    const lobbyId = this.lobbyId;
    this.loading = true;
    try {
      await this.client!.loadHistory(lobbyId);
      // Names of members who have not written yet (the client knows its simulated users).
      const lobby = this.client!.state.lobbies.get(lobbyId);
      await Promise.all((lobby?.members ?? []).map((m) => this.client!.resolveUser(m.id)));
    } catch (error) {
      reportError(this, 'Reading the lobby history', error);
    } finally {
      this.loading = false;
    }
  }

  async #send(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const input = form.elements.namedItem('content') as HTMLInputElement;
    const content = input.value.trim();
    if (!content || !this.client) return;
    this.sending = true;
    try {
      await this.client.sendMessage(this.lobbyId, content);
      input.value = '';
    } catch (error) {
      reportError(this, 'Sending the message', error);
    } finally {
      this.sending = false;
      input.focus();
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
