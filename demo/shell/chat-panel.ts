/**
 * `<demo-chat>`: a message log and its composer, for a lobby or a guild text channel alike.
 * The log keeps the newest message in view; the composer sends through `send` and shows a
 * refusal in words (the platform's), keeping what was typed.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { WireUser } from './client-state';
import { reportError } from './errors';
import { avatarColour, initials, sharedStyles } from './styles';
import { displayName } from './world';

/** What the log shows of a message. */
export interface ChatMessage {
  id: string;
  author: WireUser;
  content: string;
  timestamp: string;
}

const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const DAY = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

/** A message log with its composer. */
export class DemoChat extends LitElement {
  static override properties = {
    messages: { attribute: false },
    label: { type: String },
    loading: { type: Boolean },
    empty: { type: String },
    maxLength: { type: Number, attribute: 'max-length' },
    send: { attribute: false },
    sending: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: grid; grid-template-rows: minmax(0, 1fr) auto; min-height: 0; }
    ol { list-style: none; margin: 0; padding: 0.75rem 1rem; overflow: auto; display: grid; align-content: start; gap: 0.85rem; }
    li { display: flex; gap: 0.65rem; }
    .meta { display: flex; gap: 0.5rem; align-items: baseline; }
    .author { font-weight: 600; }
    time { font-size: 0.75rem; color: var(--ink-muted); }
    .content { white-space: pre-wrap; overflow-wrap: anywhere; }
    form { border-top: 1px solid var(--line); padding: 0.75rem 1rem; display: flex; gap: 0.5rem; }
    form input { flex: 1; min-width: 0; }
  `,
  ];

  declare messages: ChatMessage[];
  declare label: string;
  declare loading: boolean;
  /** What the log says when there is no message. */
  declare empty: string;
  declare maxLength: number;
  /** Sends a message; rejects with the platform's refusal. */
  declare send: ((content: string) => Promise<void>) | null;
  declare sending: boolean;
  #shownCount = 0;

  constructor() {
    super();
    this.messages = [];
    this.label = '';
    this.loading = false;
    this.empty = 'No messages yet. Say hello!';
    this.maxLength = 2000;
    this.send = null;
    this.sending = false;
  }

  protected override updated(): void {
    // Keep the newest message in view when one arrives.
    if (this.messages.length !== this.#shownCount) {
      this.#shownCount = this.messages.length;
      const log = this.renderRoot.querySelector('ol');
      if (log) log.scrollTop = log.scrollHeight;
    }
  }

  override render() {
    return html`
      <ol role="log" aria-live="polite" aria-label=${`Messages in ${this.label}`}>
        ${this.messages.length === 0 ? html`<li class="muted">${this.loading ? 'Loading the history…' : this.empty}</li>` : nothing}
        ${this.messages.map((m) => {
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
      <form @submit=${this.#submit}>
        <label class="visually-hidden" for="composer">Message ${this.label}</label>
        <input id="composer" name="content" autocomplete="off" required maxlength=${this.maxLength} placeholder=${`Message ${this.label}`} />
        <button class="primary" type="submit" ?disabled=${this.sending || !this.send}>Send</button>
      </form>
    `;
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const input = (event.currentTarget as HTMLFormElement).elements.namedItem('content') as HTMLInputElement;
    const content = input.value.trim();
    if (!content || !this.send) return;
    this.sending = true;
    try {
      await this.send(content);
      input.value = '';
    } catch (error) {
      reportError(this, 'Sending the message', error);
    } finally {
      this.sending = false;
      input.focus();
    }
  }
}

customElements.define('demo-chat', DemoChat);
