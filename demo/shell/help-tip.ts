/**
 * `<demo-help tip="…">`: a short developer explanation where it helps (what a lobby is, how
 * presence travels), out of the way of the chat: one line that can be dismissed for good (the
 * demo's database remembers it, per browser). The text is the element's content.
 */
import { LitElement, css, html, nothing } from 'lit';
import { icon } from './icons';
import { sharedStyles } from './styles';
import { dismissHelp, loadDismissedHelp } from './world-store';

/** The tips dismissed in this browser, read once per page. */
let dismissed: Promise<Set<string>> | null = null;

/** A dismissible tip. */
export class DemoHelp extends LitElement {
  static override properties = {
    tip: { type: String },
    shown: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: block; }
    :host([hidden]) { display: none; }
    aside { display: flex; gap: 0.6rem; align-items: flex-start; padding: 0.5rem 0.5rem 0.5rem 0.75rem; border-radius: 8px; background: var(--accent-soft); font-size: 0.85rem; }
    .icon { color: var(--link); margin-top: 0.15rem; }
    .text { flex: 1; min-width: 0; }
    button { min-height: 1.7rem; padding: 0.1rem 0.55rem; font-size: 0.8rem; background: transparent; }
  `,
  ];

  /** The tip's id: dismissing it hides every element with this id. */
  declare tip: string;
  declare shown: boolean;

  constructor() {
    super();
    this.tip = '';
    // Shown only once it is known not to be dismissed: no flash of a tip already dismissed.
    this.shown = false;
  }

  protected override updated(): void {
    // Hidden, it takes no room in its parent's layout (gaps included).
    this.toggleAttribute('hidden', !this.shown);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    dismissed ??= loadDismissedHelp()
      .then((ids) => new Set(ids))
      .catch(() => new Set());
    void dismissed.then((ids) => (this.shown = !ids.has(this.tip)));
  }

  override render() {
    if (!this.shown) return nothing;
    return html`<aside aria-label="Tip">
      <span class="icon">${icon('info')}</span>
      <div class="text"><slot></slot></div>
      <button type="button" @click=${this.#dismiss}>Got it</button>
    </aside>`;
  }

  async #dismiss(): Promise<void> {
    this.shown = false;
    (await dismissed)?.add(this.tip);
    await dismissHelp(this.tip).catch((error) =>
      console.error('platformpp demo: remembering a dismissed tip failed', error),
    );
  }
}

customElements.define('demo-help', DemoHelp);
