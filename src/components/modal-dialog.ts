/**
 * What the host page's dialogs share (the share dialog, the image upload, the activity invite):
 * a real modal `<dialog>` whose `show()` resolves with the user's answer, exactly once. Escape,
 * the dialog closing by any other way, or the element leaving the page all answer "cancel", so
 * a command waiting on a dialog never hangs.
 */
import { LitElement, css } from 'lit';

/** The look of the host's dialogs (the consent dialog's). */
export const dialogStyles = css`
  dialog { max-width: 28rem; border: none; border-radius: 8px; padding: 1.25rem 1.5rem; font: 14px/1.4 system-ui, sans-serif; color: #1e1f22; }
  dialog::backdrop { background: rgb(0 0 0 / 0.6); }
  h2 { margin: 0 0 0.5rem; font-size: 1.15rem; }
  p { margin: 0.4rem 0; }
  fieldset { border: 1px solid #d4d7dc; border-radius: 6px; margin: 0.75rem 0; padding: 0.5rem 0.75rem; max-height: 14rem; overflow: auto; }
  legend { padding: 0 0.25rem; font-weight: 600; }
  label.choice { display: flex; gap: 0.5rem; align-items: center; padding: 0.2rem 0; }
  img.preview { display: block; max-width: 100%; max-height: 12rem; margin: 0.5rem 0; border-radius: 4px; }
  .actions { display: flex; justify-content: flex-end; gap: 0.5rem; margin-top: 1rem; }
  button { font: inherit; padding: 0.45rem 1rem; border-radius: 4px; border: 1px solid #8a8f98; background: transparent; cursor: pointer; }
  button.primary { background: #5865f2; border-color: #5865f2; color: white; }
  button:disabled { opacity: 0.5; cursor: not-allowed; }
  button:focus-visible, input:focus-visible { outline: 2px solid #00a8fc; outline-offset: 2px; }
`;

/**
 * A modal dialog answering `T`; subclasses render a `<dialog>` wired to {@link onCancel} and
 * {@link onClose}, and call {@link decide} with the user's answer.
 */
export abstract class ModalDialog<T> extends LitElement {
  #resolve: ((answer: T) => void) | null = null;
  #pending: Promise<T> | null = null;

  /** The answer of a dialog the user dismissed. */
  protected abstract readonly cancelled: T;

  /** Opens the dialog as a modal and resolves with the user's answer (a second call joins the first). */
  async show(): Promise<T> {
    const pending = this.#pending;
    if (pending) return pending;
    const answer = new Promise<T>((resolve) => (this.#resolve = resolve));
    this.#pending = answer;
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog && !dialog.open) dialog.showModal();
    this.renderRoot.querySelector<HTMLElement>('[autofocus]')?.focus();
    return answer;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.decide(this.cancelled);
  }

  /** Closes the dialog with `answer` (once: later calls do nothing). */
  protected decide(answer: T): void {
    const resolve = this.#resolve;
    if (!resolve) return;
    this.#resolve = null;
    this.#pending = null;
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog?.open) dialog.close();
    resolve(answer);
  }

  /** The browser's Escape handling: answered here so the answer is always delivered. */
  protected readonly onCancel = (event: Event): void => {
    event.preventDefault();
    this.decide(this.cancelled);
  };

  /** The dialog closed without an answer: a cancel. */
  protected readonly onClose = (): void => this.decide(this.cancelled);
}

/**
 * Puts `element` in the page (the document's body by default), shows it and removes it once
 * answered.
 * @example const answer = await showModal(Object.assign(document.createElement('pp-share-dialog'), { request }));
 */
export async function showModal<T>(element: ModalDialog<T>, host: HTMLElement = document.body): Promise<T> {
  host.append(element);
  try {
    return await element.show();
  } finally {
    element.remove();
  }
}
