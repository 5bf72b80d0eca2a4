/**
 * `<demo-copy>`: a small button that copies a value (an id, a secret) to the clipboard and says
 * "Copied" for a moment. `copyText` is the same for any caller.
 */
import { LitElement, css, html } from 'lit';
import { icon } from './icons';
import { reportError } from './errors';
import { sharedStyles } from './styles';

/**
 * Copies `text` to the clipboard: the Clipboard API, else the selection of a hidden field (a
 * page without clipboard permission still copies on a click).
 */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Denied or missing: the older way below works on a user's click.
  }
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.cssText = 'position:fixed;opacity:0;pointer-events:none';
  document.body.append(field);
  field.select();
  const copied = document.execCommand('copy');
  field.remove();
  if (!copied) throw new Error('the browser refused to copy to the clipboard');
}

/** The copy button; `label` names what it copies ("Copy the lobby's secret"). */
export class DemoCopy extends LitElement {
  static override properties = {
    value: { type: String },
    label: { type: String },
    copied: { state: true },
  };

  static override styles = [
    sharedStyles,
    css`
    :host { display: inline-flex; vertical-align: middle; }
    button { display: inline-flex; align-items: center; gap: 0.25rem; min-height: 1.6rem; padding: 0.1rem 0.45rem; font-size: 0.75rem; color: var(--ink-muted); background: transparent; }
    button:hover { color: var(--ink); background: var(--hover); }
    .done { color: var(--ok); }
  `,
  ];

  declare value: string;
  declare label: string;
  declare copied: boolean;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.value = '';
    this.label = 'Copy';
    this.copied = false;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#timer);
  }

  override render() {
    return html`<button type="button" aria-label=${this.label} title=${this.label} @click=${this.#copy}>
      ${this.copied ? html`<span class="done">${icon('check')} Copied</span>` : html`${icon('copy')}<span>Copy</span>`}
    </button>`;
  }

  async #copy(): Promise<void> {
    try {
      await copyText(this.value);
      this.copied = true;
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => (this.copied = false), 1500);
    } catch (error) {
      reportError(this, this.label, error);
    }
  }
}

customElements.define('demo-copy', DemoCopy);
