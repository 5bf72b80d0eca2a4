/**
 * `<pp-consent-dialog>`: the OAuth2 consent screen of the simulated platform client (CONTRACT
 * §5). A real modal `<dialog>` naming the application, listing what each requested scope lets
 * it do, with the buttons "Authorize" and "Cancel". Escape, Cancel, closing the dialog or
 * removing the element all mean "no".
 */
import { LitElement, css, html, nothing } from 'lit';
import { describeScope } from '../platform/oauth2/consent-scopes';

/** The tag `requestConsent` uses. */
export const CONSENT_DIALOG_TAG = 'pp-consent-dialog';

/** What the dialog asks about. */
export interface ConsentOptions {
  application: { id: string; name: string };
  scopes: string[];
  /** The simulated user who is asked, when the host page knows it. */
  user?: { id: string; username: string };
}

/** The detail of the `pp-consent` event the element fires when the user decides. */
export interface ConsentDecision {
  authorized: boolean;
}

/**
 * The consent dialog element. Set `application`, `scopes` (and `user`), then `show()` resolves
 * with the user's answer; a `pp-consent` event (`detail: {authorized}`) announces it as well.
 * @example
 * const el = document.createElement('pp-consent-dialog');
 * Object.assign(el, { application: { id, name: 'Game' }, scopes: ['identify'] });
 * document.body.append(el);
 * const authorized = await el.show();
 */
export class ConsentDialog extends LitElement {
  static override properties = {
    application: { attribute: false },
    scopes: { attribute: false },
    user: { attribute: false },
  };

  // Light or dark as the system asks; a host page can set its own colours with the
  // --pp-dialog-background, --pp-dialog-color and --pp-accent custom properties.
  static override styles = css`
    :host {
      --background: var(--pp-dialog-background, #ffffff);
      --color: var(--pp-dialog-color, #1e1f22);
      --accent: var(--pp-accent, #4f46e5);
      --line: #8a8f98;
    }
    @media (prefers-color-scheme: dark) {
      :host {
        --background: var(--pp-dialog-background, #2b2e35);
        --color: var(--pp-dialog-color, #e6e8eb);
        --accent: var(--pp-accent, #5458e8);
        --line: #6b717c;
      }
    }
    dialog {
      max-width: 26rem; border: none; border-radius: 8px; padding: 1.25rem 1.5rem; font: 14px/1.4 system-ui, sans-serif;
      background: var(--background); color: var(--color); box-shadow: 0 12px 40px rgb(0 0 0 / 0.35);
    }
    dialog::backdrop { background: rgb(0 0 0 / 0.6); }
    h2 { margin: 0 0 0.5rem; font-size: 1.15rem; }
    ul { padding-left: 1.2rem; margin: 0.5rem 0 1rem; }
    li { margin: 0.25rem 0; }
    .actions { display: flex; justify-content: flex-end; gap: 0.5rem; }
    button { font: inherit; padding: 0.45rem 1rem; border-radius: 4px; border: 1px solid var(--line); background: transparent; color: inherit; cursor: pointer; }
    button.primary { background: var(--accent); border-color: var(--accent); color: white; }
    button:focus-visible { outline: 2px solid #00a8fc; outline-offset: 2px; }
  `;

  declare application: ConsentOptions['application'] | undefined;
  declare scopes: string[];
  declare user: ConsentOptions['user'] | undefined;

  #resolve: ((authorized: boolean) => void) | null = null;
  #pending: Promise<boolean> | null = null;

  constructor() {
    super();
    this.scopes = [];
  }

  /** Opens the dialog as a modal, focused on "Authorize"; resolves true (Authorize) or false. */
  async show(): Promise<boolean> {
    // A second show() while one is pending joins it instead of leaving the first unanswered.
    const pending = this.#pending;
    if (pending) return pending;
    const answer = new Promise<boolean>((resolve) => (this.#resolve = resolve));
    this.#pending = answer;
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog && !dialog.open) dialog.showModal();
    this.renderRoot.querySelector<HTMLButtonElement>('button.primary')?.focus();
    return answer;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#decide(false);
  }

  #decide(authorized: boolean): void {
    const resolve = this.#resolve;
    if (!resolve) return;
    this.#resolve = null;
    this.#pending = null;
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog?.open) dialog.close(authorized ? 'authorize' : 'cancel');
    this.dispatchEvent(
      new CustomEvent<ConsentDecision>('pp-consent', { detail: { authorized }, bubbles: true, composed: true }),
    );
    resolve(authorized);
  }

  #onCancel = (event: Event): void => {
    // The browser's Escape handling: answer "no" ourselves so the answer is always delivered.
    event.preventDefault();
    this.#decide(false);
  };

  #onKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape') {
      event.preventDefault();
      this.#decide(false);
    }
  };

  override render() {
    const name = this.application?.name ?? 'An application';
    return html`
      <dialog aria-labelledby="consent-title" aria-describedby="consent-summary" @cancel=${this.#onCancel} @keydown=${this.#onKeydown} @close=${() => this.#decide(false)}>
        <h2 id="consent-title">Authorize ${name}</h2>
        <p id="consent-summary">
          ${name} wants to access your account${this.user ? html` <strong>${this.user.username}</strong>` : nothing}. It will be able to:
        </p>
        <ul aria-label="Permissions requested">
          ${this.scopes.map((scope) => html`<li data-scope=${scope}>${describeScope(scope)}</li>`)}
        </ul>
        <div class="actions">
          <button type="button" class="cancel" @click=${() => this.#decide(false)}>Cancel</button>
          <button type="button" class="primary" autofocus @click=${() => this.#decide(true)}>Authorize</button>
        </div>
      </dialog>
    `;
  }
}

/**
 * Defines `<pp-consent-dialog>` unless it is already defined (the module may load twice).
 * Called by `platformpp-web/components` and by {@link requestConsent}, not when this module
 * loads: the library builds it as a chunk of its own that the game SDK loads on demand, and
 * only `components.js` is declared to have side effects.
 */
export function defineConsentDialog(): void {
  if (!customElements.get(CONSENT_DIALOG_TAG)) customElements.define(CONSENT_DIALOG_TAG, ConsentDialog);
}

/**
 * Shows the consent dialog in the host page and resolves with the user's answer: true for
 * "Authorize", false for "Cancel" or Escape. The dialog is appended to `host` (the document's
 * body by default) and removed once answered.
 * @example
 * if (await requestConsent({ application: { id, name: 'Game' }, scopes: ['openid', 'sdk.social_layer'] })) {
 *   // POST /oauth2/authorize with {authorize: true, user_id}
 * }
 */
export async function requestConsent(options: ConsentOptions, host: HTMLElement = document.body): Promise<boolean> {
  defineConsentDialog();
  const element = document.createElement(CONSENT_DIALOG_TAG) as ConsentDialog;
  element.application = options.application;
  element.scopes = [...options.scopes];
  element.user = options.user;
  host.append(element);
  try {
    return await element.show();
  } finally {
    element.remove();
  }
}
