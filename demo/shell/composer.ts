/**
 * `<demo-composer>`: the message box. It grows with what is typed (Enter sends, Shift+Enter
 * starts a new line), never cuts a paste: near the limit it counts, and over it says by how
 * much and holds the message back (the platform would refuse it). It tells the conversation
 * that the user is typing (`typing`), and shows what a reply answers, with a way out.
 */
import { LitElement, css, html, nothing } from 'lit';
import { reportError } from './errors';
import { icon } from './icons';
import { sharedStyles } from './styles';

/** The count shows once this few characters are left. */
const COUNT_FROM_REMAINING = 200;

/** What a reply being written answers. */
export interface ReplyTarget {
  id: string;
  author: string;
}

/** The composer; fires `demo-cancel-reply` when the reply is dropped. */
export class DemoComposer extends LitElement {
  static override properties = {
    label: { type: String },
    maxLength: { type: Number, attribute: 'max-length' },
    send: { attribute: false },
    typing: { attribute: false },
    replyTo: { attribute: false },
    length: { state: true },
    sending: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: block; padding: 0 1rem 1rem; }
    .box { border-radius: 8px; background: var(--elev); border: 1px solid var(--line); }
    /* The field draws no outline of its own: the whole box is ringed instead, 2px as everywhere else. */
    .box:focus-within { border-color: var(--link); box-shadow: 0 0 0 1px var(--link); }
    .reply { display: flex; align-items: center; gap: 0.5rem; padding: 0.35rem 0.5rem 0.35rem 0.75rem; font-size: 0.85rem; color: var(--ink-muted); border-bottom: 1px solid var(--line); }
    .reply span { flex: 1; }
    .reply button { min-height: 1.6rem; width: 1.6rem; padding: 0; display: grid; place-items: center; background: transparent; border: 0; }
    form { display: flex; align-items: flex-end; gap: 0.5rem; padding: 0.35rem 0.35rem 0.35rem 0.75rem; }
    /* It grows in height only: its width is the box's, and a long word wraps inside it. */
    textarea { flex: 1 1 0; width: 0; min-width: 0; border: 0; background: transparent; resize: none; padding: 0.4rem 0; min-height: 2.1rem; max-height: 40vh; field-sizing: content; line-height: 1.4; overflow-wrap: anywhere; }
    textarea:focus-visible { outline: none; }
    .send { display: inline-flex; align-items: center; gap: 0.35rem; }
    .count { font-size: 0.75rem; color: var(--ink-muted); align-self: center; white-space: nowrap; }
    .count.over { color: var(--danger); font-weight: 700; }
    .too-long { margin: 0.35rem 0.1rem 0; font-size: 0.8rem; color: var(--danger); }
    @media (max-width: 760px) { :host { padding: 0 0.5rem 0.5rem; } .send span { display: none; } }
  `,
  ];

  declare label: string;
  declare maxLength: number;
  /** Sends the message; rejects with the platform's refusal (the text is kept). */
  declare send: ((content: string) => Promise<void>) | null;
  /** Tells the conversation the user is typing (absent where the platform has no typing). */
  declare typing: (() => Promise<void>) | null;
  declare replyTo: ReplyTarget | null;
  declare length: number;
  declare sending: boolean;

  constructor() {
    super();
    this.label = '';
    this.maxLength = 2000;
    this.send = null;
    this.typing = null;
    this.replyTo = null;
    this.length = 0;
    this.sending = false;
  }

  /** Puts the keyboard in the box (after choosing to reply). */
  override focus(): void {
    this.renderRoot.querySelector('textarea')?.focus();
  }

  override render() {
    const over = this.length - this.maxLength;
    const showCount = this.length > this.maxLength - COUNT_FROM_REMAINING;
    return html`
      <div class="box">
        ${
          this.replyTo
            ? html`<div class="reply">${icon('reply')}<span>Replying to <strong>${this.replyTo.author}</strong></span>
              <button type="button" aria-label="Cancel the reply" @click=${this.#cancelReply}>${icon('close')}</button></div>`
            : nothing
        }
        <form @submit=${this.#submit}>
          <label class="visually-hidden" for="composer">Message ${this.label}</label>
          <textarea id="composer" name="content" rows="1" autocomplete="off" placeholder=${`Message ${this.label}`}
            aria-describedby="count" aria-invalid=${over > 0 ? 'true' : 'false'}
            @input=${this.#onInput} @keydown=${this.#onKeydown}></textarea>
          ${showCount ? html`<span id="count" class="count ${over > 0 ? 'over' : ''}" aria-live="polite">${this.length} / ${this.maxLength}</span>` : html`<span id="count" hidden></span>`}
          <button class="primary send" type="submit" aria-label="Send" ?disabled=${this.sending || !this.send || over > 0}>${icon('send')}<span>Send</span></button>
        </form>
      </div>
      ${over > 0 ? html`<p class="too-long" role="alert">Too long by ${over} ${over === 1 ? 'character' : 'characters'}: a message here holds at most ${this.maxLength}.</p>` : nothing}
    `;
  }

  readonly #onInput = (event: Event): void => {
    const value = (event.target as HTMLTextAreaElement).value;
    this.length = [...value].length;
    if (value.trim() && this.typing)
      this.typing().catch((error) => reportError(this, 'Telling others you type', error));
  };

  readonly #onKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      (event.target as HTMLTextAreaElement).form?.requestSubmit();
    }
    if (event.key === 'Escape' && this.replyTo) this.#cancelReply();
  };

  readonly #cancelReply = (): void => {
    this.dispatchEvent(new CustomEvent('demo-cancel-reply', { bubbles: true, composed: true }));
  };

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const field = (event.currentTarget as HTMLFormElement).elements.namedItem('content') as HTMLTextAreaElement;
    const content = field.value.trim();
    if (!content || !this.send || [...content].length > this.maxLength) return;
    this.sending = true;
    // Cleared at once, as a chat client does: what the user types while the message is on its
    // way is the next message, which the answer must not wipe. A failed send gives the text back.
    field.value = '';
    this.length = 0;
    try {
      await this.send(content);
    } catch (error) {
      if (!field.value) {
        field.value = content;
        this.length = [...content].length;
      }
      reportError(this, 'Sending the message', error);
    } finally {
      this.sending = false;
      field.focus();
    }
  }
}

customElements.define('demo-composer', DemoComposer);
