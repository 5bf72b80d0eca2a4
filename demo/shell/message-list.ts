/**
 * `<demo-message-list>`: a conversation's messages as a chat client shows them: anchored at the
 * bottom, grouped by author (message-groups.ts), a line for each day and one above the first
 * unread message, replies with what they answer, "(edited)" and pinned marks. Each message has
 * its actions on hover (or focus, or a tap on a touch screen): those the platform allows for it
 * (reply, edit, delete, pin), and copying its id. Editing and deleting happen in place.
 */
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { copyText } from './copy-button';
import { reportError } from './errors';
import { icon } from './icons';
import { messageListStyles } from './message-list-styles';
import { messageRows } from './message-groups';
import { avatarColour, initials, sharedStyles } from './styles';
import type { WireMessage, WireUser } from './wire';
import { displayName } from './world';

/** What may be done with a message, and how (absent: not offered). */
export interface MessageActions {
  reply?(message: WireMessage): void;
  edit?(message: WireMessage, content: string): Promise<void>;
  remove?(message: WireMessage): Promise<void>;
  pin?(message: WireMessage, pinned: boolean): Promise<void>;
  /** Per message: which of the above the user may do (default: all that are given). */
  allowed?(message: WireMessage): { reply?: boolean; edit?: boolean; remove?: boolean; pin?: boolean };
}

const TIME = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const DATE = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const DAY = new Intl.DateTimeFormat(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });

/** "Today at 14:02", "Yesterday at 09:15", or the date and time. */
export function when(date: Date, now = new Date()): string {
  const days = Math.round(
    (new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime() -
      new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime()) /
      86_400_000,
  );
  if (days === 0) return `Today at ${TIME.format(date)}`;
  if (days === 1) return `Yesterday at ${TIME.format(date)}`;
  return `${DATE.format(date)} ${TIME.format(date)}`;
}

/** The message list. */
export class DemoMessageList extends LitElement {
  static override properties = {
    messages: { attribute: false },
    label: { type: String },
    loading: { type: Boolean },
    empty: { type: String },
    intro: { attribute: false },
    me: { type: String },
    newFrom: { type: String, attribute: 'new-from' },
    actions: { attribute: false },
    nameOf: { attribute: false },
    colourOf: { attribute: false },
    editing: { state: true },
    confirming: { state: true },
    selected: { state: true },
  };

  static override styles = [sharedStyles, messageListStyles];

  declare messages: WireMessage[];
  declare label: string;
  declare loading: boolean;
  declare empty: string;
  /** What the top of a complete history says ("This is the start of #general"). */
  declare intro: TemplateResult | null;
  declare me: string;
  /** The first message that was unread when the conversation was opened. */
  declare newFrom: string | undefined;
  declare actions: MessageActions;
  declare nameOf: (user: WireUser) => string;
  declare colourOf: (user: WireUser) => string | undefined;
  declare editing: string | null;
  declare confirming: string | null;
  declare selected: string | null;
  #shownLast = '';
  #stickToBottom = true;

  constructor() {
    super();
    this.messages = [];
    this.label = '';
    this.loading = false;
    this.empty = 'No messages yet. Say hello!';
    this.intro = null;
    this.me = '';
    this.newFrom = undefined;
    this.actions = {};
    this.nameOf = displayName;
    this.colourOf = () => undefined;
    this.editing = null;
    this.confirming = null;
    this.selected = null;
  }

  protected override updated(): void {
    // The newest message stays in view when one arrives, unless the reader scrolled up to read.
    const last = this.messages.at(-1)?.id ?? '';
    const scroller = this.renderRoot.querySelector<HTMLElement>('.scroller');
    if (scroller && last !== this.#shownLast && this.#stickToBottom) scroller.scrollTop = scroller.scrollHeight;
    this.#shownLast = last;
  }

  override render() {
    const rows = messageRows(this.messages, { newFrom: this.newFrom });
    // The log is the scroller (focusable, so the keyboard scrolls the history); its list stays a list.
    return html`<div class="scroller" role="log" aria-live="polite" aria-label=${`Messages in ${this.label}`} tabindex="0" @scroll=${this.#onScroll}>
      <ol>
        ${this.intro ? html`<li class="intro">${this.intro}</li>` : nothing}
        ${this.messages.length === 0 ? html`<li class="empty muted">${this.loading ? 'Loading the history…' : this.empty}</li>` : nothing}
        ${repeat(
          rows,
          (row) => row.key,
          (row) =>
            row.kind === 'day'
              ? html`<li class="divider"><span role="separator" aria-label=${DAY.format(row.date)}>${DAY.format(row.date)}</span></li>`
              : row.kind === 'new'
                ? html`<li class="divider new"><span role="separator" aria-label="New messages">New</span></li>`
                : this.#message(row.message, row.head),
        )}
      </ol>
    </div>`;
  }

  #message(m: WireMessage, head: boolean) {
    const at = new Date(m.timestamp);
    const name = this.nameOf(m.author);
    const selected = this.selected === m.id;
    return html`<li
      class="message ${head ? 'head' : 'cont'} ${selected ? 'selected' : ''} ${m.author.id === this.me ? 'mine' : ''}"
      data-message-id=${m.id}
      @click=${(e: Event) => this.#select(e, m.id)}
    >
      ${
        head
          ? html`<span class="avatar" style="background:${avatarColour(m.author.id)}" aria-hidden="true">${initials(name)}</span>`
          : html`<time class="gutter" datetime=${m.timestamp} aria-hidden="true">${TIME.format(at)}</time>`
      }
      <div class="body">
        ${m.type === 19 ? this.#replyContext(m.referenced_message) : nothing}
        ${
          head
            ? html`<div class="meta"><span class="author ${this.colourOf(m.author) ? 'coloured' : ''}" style=${this.colourOf(m.author) ? `--role:${this.colourOf(m.author)}` : ''}>${name}</span>${m.author.bot ? html`<span class="tag">BOT</span>` : nothing}<time datetime=${m.timestamp}>${when(at)}</time></div>`
            : html`<span class="visually-hidden">${name}, ${when(at)}:</span>`
        }
        ${this.editing === m.id ? this.#editor(m) : html`<div class="content">${m.content}${m.edited_timestamp ? html` <span class="edited muted">(edited)</span>` : nothing}</div>`}
        ${m.pinned ? html`<div class="pinned muted">${icon('pin')} Pinned</div>` : nothing}
        ${this.confirming === m.id ? this.#confirmDelete(m) : nothing}
      </div>
      ${this.editing === m.id ? nothing : this.#toolbar(m)}
    </li>`;
  }

  #replyContext(original: WireMessage | null | undefined) {
    if (!original) return html`<div class="reply-to muted">${icon('reply')} The original message was deleted</div>`;
    return html`<div class="reply-to muted">${icon('reply')} <strong>${this.nameOf(original.author)}</strong> <span class="snippet">${original.content}</span></div>`;
  }

  #toolbar(m: WireMessage) {
    const a = this.actions;
    const allowed = a.allowed?.(m) ?? { reply: true, edit: true, remove: true, pin: true };
    const button = (label: string, name: Parameters<typeof icon>[0], run: () => void, danger = false) =>
      html`<button type="button" class="ghost ${danger ? 'danger' : ''}" aria-label=${label} title=${label} @click=${run}>${icon(name)}</button>`;
    return html`<div class="actions" role="toolbar" aria-label="Message actions">
      ${a.reply && allowed.reply ? button('Reply', 'reply', () => a.reply!(m)) : nothing}
      ${a.pin && allowed.pin ? button(m.pinned ? 'Unpin' : 'Pin', 'pin', () => void this.#run(m.pinned ? 'Unpinning the message' : 'Pinning the message', () => a.pin!(m, !m.pinned))) : nothing}
      ${a.edit && allowed.edit ? button('Edit', 'edit', () => (this.editing = m.id)) : nothing}
      ${a.remove && allowed.remove ? button('Delete', 'trash', () => (this.confirming = m.id), true) : nothing}
      ${button('Copy message ID', 'id', () => void this.#run('Copying the message ID', () => copyText(m.id)))}
    </div>`;
  }

  #editor(m: WireMessage) {
    const save = async (field: HTMLTextAreaElement) => {
      const content = field.value.trim();
      if (!content || content === m.content) return void (this.editing = null);
      if (await this.#run('Editing the message', () => this.actions.edit!(m, content))) this.editing = null;
    };
    return html`<div class="edit">
      <label class="visually-hidden" for="edit-${m.id}">Edit the message</label>
      <textarea id="edit-${m.id}" .value=${m.content}
        @keydown=${(e: KeyboardEvent) => {
          if (e.key === 'Escape') this.editing = null;
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            void save(e.target as HTMLTextAreaElement);
          }
        }}></textarea>
      <p class="muted hint">Escape to <button type="button" class="link" @click=${() => (this.editing = null)}>cancel</button> · Enter to <button type="button" class="link" @click=${(e: Event) => save((e.target as HTMLElement).closest('.edit')!.querySelector('textarea')!)}>save</button></p>
    </div>`;
  }

  #confirmDelete(m: WireMessage) {
    return html`<div class="confirm" role="group" aria-label="Delete this message?">
      <span>Delete this message?</span>
      <button type="button" class="danger" @click=${async () => {
        if (await this.#run('Deleting the message', () => this.actions.remove!(m))) this.confirming = null;
      }}>Delete</button>
      <button type="button" @click=${() => (this.confirming = null)}>Cancel</button>
    </div>`;
  }

  /** Runs an action; a refusal is shown in words. Resolves true when it succeeded. */
  async #run(what: string, action: () => Promise<void>): Promise<boolean> {
    try {
      await action();
      return true;
    } catch (error) {
      reportError(this, what, error);
      return false;
    }
  }

  #select(event: Event, id: string): void {
    // A tap shows a message's actions on a touch screen; a click on a control does its own thing.
    if ((event.composedPath()[0] as HTMLElement).closest?.('button, textarea, a')) return;
    this.selected = this.selected === id ? null : id;
  }

  readonly #onScroll = (event: Event): void => {
    const scroller = event.currentTarget as HTMLElement;
    this.#stickToBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
  };
}

customElements.define('demo-message-list', DemoMessageList);
