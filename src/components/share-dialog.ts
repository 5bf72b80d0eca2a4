/**
 * `<pp-share-dialog>`: the host page's share dialog for OPEN_SHARE_MOMENT_DIALOG and
 * SHARE_INTERACTION. It shows what is shared (the image; an interaction's text, preview image
 * and buttons, and the command it runs) and the places the platform offers (its channels, and
 * for a moment the user's friends), one of them chosen, with the buttons "Share" and "Cancel".
 */
import { html, nothing } from 'lit';
import type { ShareChoice, ShareRequest } from '../rpc/context';
import { ModalDialog, dialogStyles, showModal } from './modal-dialog';

/** The tag {@link requestShareTarget} uses. */
export const SHARE_DIALOG_TAG = 'pp-share-dialog';

/** A place's value in the form: `channel:<id>` or `user:<id>`. */
function choiceValue(choice: ShareChoice): string {
  return 'channel_id' in choice ? `channel:${choice.channel_id}` : `user:${choice.user_id}`;
}

/**
 * The share dialog. Set `request`, then `show()` resolves with the place the user shares to, or
 * null for Cancel, Escape or closing.
 * @example const choice = await showModal(Object.assign(document.createElement('pp-share-dialog'), { request }));
 */
export class ShareDialog extends ModalDialog<ShareChoice | null> {
  static override properties = { request: { attribute: false }, selected: { state: true } };
  static override styles = dialogStyles;

  declare request: ShareRequest | undefined;
  declare selected: string | null;
  protected readonly cancelled = null;

  constructor() {
    super();
    this.selected = null;
  }

  /** Every place offered, in order: channels, then friends. */
  #choices(): { value: ShareChoice; label: string }[] {
    const targets = this.request?.targets ?? { channels: [], friends: [] };
    return [
      ...targets.channels.map((c) => ({ value: { channel_id: c.id }, label: `#${c.name}` })),
      ...targets.friends.map((f) => ({ value: { user_id: f.id }, label: `@${f.global_name ?? f.username}` })),
    ];
  }

  #share(): void {
    const picked = this.#choices().find((c) => choiceValue(c.value) === this.#selected());
    if (picked) this.decide(picked.value);
  }

  #selected(): string | null {
    const first = this.#choices()[0];
    return this.selected ?? (first ? choiceValue(first.value) : null);
  }

  override render() {
    const request = this.request;
    const name = request?.application.name ?? 'An application';
    const choices = this.#choices();
    const selected = this.#selected();
    const what = request?.kind === 'interaction' ? 'this' : 'this image';
    return html`
      <dialog aria-labelledby="share-title" @cancel=${this.onCancel} @close=${this.onClose}>
        <h2 id="share-title">Share from ${name}</h2>
        <p>${name} wants to share ${what}.${request?.command ? html` Sharing runs its command <code>/${request.command}</code> there as you.` : nothing}</p>
        ${request?.content ? html`<p class="content" data-part="content">${request.content}</p>` : nothing}
        ${request?.image_url ? html`<img class="preview" src=${request.image_url} alt=${request.kind === 'moment' ? 'The image to share' : 'Preview'} />` : nothing}
        ${request?.buttons?.length ? html`<p data-part="buttons">${request.buttons.map((b) => html`<button type="button" disabled>${b}</button> `)}</p>` : nothing}
        <fieldset>
          <legend>Share to</legend>
          ${choices.length === 0 ? html`<p>There is nowhere you may share this.</p>` : nothing}
          ${choices.map(
            (c) =>
              html`<label class="choice"><input type="radio" name="target" .value=${choiceValue(c.value)} .checked=${choiceValue(c.value) === selected} @change=${(e: Event) => (this.selected = (e.target as HTMLInputElement).value)} />${c.label}</label>`,
          )}
        </fieldset>
        <div class="actions">
          <button type="button" class="cancel" @click=${() => this.decide(null)}>Cancel</button>
          <button type="button" class="primary" autofocus ?disabled=${selected === null} @click=${() => this.#share()}>Share</button>
        </div>
      </dialog>
    `;
  }
}

/** Defines `<pp-share-dialog>` unless it already is. */
export function defineShareDialog(): void {
  if (!customElements.get(SHARE_DIALOG_TAG)) customElements.define(SHARE_DIALOG_TAG, ShareDialog);
}

/**
 * Shows the share dialog in the host page and resolves with where the user shares, or null.
 * @example const choice = await requestShareTarget({ kind: 'moment', application, targets, image_url });
 */
export function requestShareTarget(request: ShareRequest, host?: HTMLElement): Promise<ShareChoice | null> {
  defineShareDialog();
  const element = document.createElement(SHARE_DIALOG_TAG) as ShareDialog;
  element.request = request;
  return showModal(element, host);
}

declare global {
  interface HTMLElementTagNameMap {
    'pp-share-dialog': ShareDialog;
  }
}
