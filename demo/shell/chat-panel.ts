/**
 * `<demo-chat>`: a conversation as a chat client shows it, for a lobby, a guild channel or a
 * direct message alike: the message list (grouped, anchored at the bottom, with each message's
 * actions), who is typing, and the composer, which knows what a reply answers.
 */
import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import type { ReplyTarget } from './composer';
import type { MessageActions } from './message-list';
import { sharedStyles } from './styles';
import { typingText } from './typing-tracker';
import type { WireMessage, WireUser } from './wire';
import { displayName } from './world';
import './composer';
import './message-list';

/** A conversation. */
export class DemoChat extends LitElement {
  static override properties = {
    messages: { attribute: false },
    label: { type: String },
    loading: { type: Boolean },
    empty: { type: String },
    intro: { attribute: false },
    me: { type: String },
    newFrom: { type: String, attribute: 'new-from' },
    maxLength: { type: Number, attribute: 'max-length' },
    send: { attribute: false },
    typing: { attribute: false },
    typists: { attribute: false },
    actions: { attribute: false },
    nameOf: { attribute: false },
    colourOf: { attribute: false },
    replyTo: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: grid; grid-template-rows: minmax(0, 1fr) auto auto; min-height: 0; }
    .typing { min-height: 1.35rem; padding: 0 1rem; font-size: 0.78rem; color: var(--ink-muted); display: flex; align-items: center; gap: 0.4rem; }
    .dots { display: inline-flex; gap: 2px; }
    .dots i { width: 5px; height: 5px; border-radius: 50%; background: currentColor; animation: bounce 1.2s infinite; }
    .dots i:nth-child(2) { animation-delay: 0.15s; }
    .dots i:nth-child(3) { animation-delay: 0.3s; }
    @keyframes bounce { 0%, 60%, 100% { opacity: 0.35; transform: none; } 30% { opacity: 1; transform: translateY(-2px); } }
    @media (prefers-reduced-motion: reduce) { .dots i { animation: none; } }
  `,
  ];

  declare messages: WireMessage[];
  declare label: string;
  declare loading: boolean;
  declare empty: string;
  declare intro: TemplateResult | null;
  declare me: string;
  declare newFrom: string | undefined;
  declare maxLength: number;
  /** Sends a message (as a reply to `replyTo` when given); rejects with the platform's refusal. */
  declare send: ((content: string, replyTo?: string) => Promise<void>) | null;
  declare typing: (() => Promise<void>) | null;
  /** Names of who is typing here now. */
  declare typists: string[];
  declare actions: MessageActions;
  declare nameOf: (user: WireUser) => string;
  declare colourOf: (user: WireUser) => string | undefined;
  declare replyTo: ReplyTarget | null;

  constructor() {
    super();
    this.messages = [];
    this.label = '';
    this.loading = false;
    this.empty = 'No messages yet. Say hello!';
    this.intro = null;
    this.me = '';
    this.newFrom = undefined;
    this.maxLength = 2000;
    this.send = null;
    this.typing = null;
    this.typists = [];
    this.actions = {};
    this.nameOf = displayName;
    this.colourOf = () => undefined;
    this.replyTo = null;
  }

  override render() {
    const actions: MessageActions = this.actions.reply
      ? { ...this.actions, reply: (m) => this.#reply(m) }
      : this.actions;
    const typing = typingText(this.typists);
    return html`
      <demo-message-list
        .messages=${this.messages}
        label=${this.label}
        ?loading=${this.loading}
        .empty=${this.empty}
        .intro=${this.intro}
        me=${this.me}
        .newFrom=${this.newFrom}
        .actions=${actions}
        .nameOf=${this.nameOf}
        .colourOf=${this.colourOf}
      ></demo-message-list>
      <div class="typing" aria-live="polite">${typing ? html`<span class="dots" aria-hidden="true"><i></i><i></i><i></i></span>${typing}` : nothing}</div>
      <demo-composer
        label=${this.label}
        max-length=${this.maxLength}
        .send=${this.send ? (content: string) => this.#send(content) : null}
        .typing=${this.typing}
        .replyTo=${this.replyTo}
        @demo-cancel-reply=${() => (this.replyTo = null)}
      ></demo-composer>
    `;
  }

  #reply(message: WireMessage): void {
    this.replyTo = { id: message.id, author: this.nameOf(message.author) };
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('demo-composer')?.focus());
  }

  async #send(content: string): Promise<void> {
    await this.send!(content, this.replyTo?.id);
    this.replyTo = null;
  }
}

customElements.define('demo-chat', DemoChat);
