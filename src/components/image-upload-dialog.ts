/**
 * `<pp-image-upload-dialog>`: INITIATE_IMAGE_UPLOAD's file picker in the host page. A browser
 * opens a file chooser only from a user's gesture, so the dialog holds the picker itself: a
 * file input taking JPEG, PNG and GIF images (the platform client's), "Upload" once an image is
 * chosen, and "Cancel".
 */
import { html, nothing } from 'lit';
import { IMAGE_UPLOAD_TYPES } from '../platform/core/limits';
import { ModalDialog, dialogStyles, showModal } from './modal-dialog';

/** The tag {@link requestImage} uses. */
export const IMAGE_UPLOAD_DIALOG_TAG = 'pp-image-upload-dialog';

/**
 * The image upload dialog. Set `application`, then `show()` resolves with the picked image, or
 * null for Cancel, Escape or closing.
 */
export class ImageUploadDialog extends ModalDialog<File | null> {
  static override properties = { application: { attribute: false }, file: { state: true } };
  static override styles = dialogStyles;

  declare application: { id: string; name: string } | undefined;
  declare file: File | null;
  protected readonly cancelled = null;

  constructor() {
    super();
    this.file = null;
  }

  #picked(event: Event): void {
    this.file = (event.target as HTMLInputElement).files?.[0] ?? null;
  }

  override render() {
    const name = this.application?.name ?? 'An application';
    const wrongType = this.file !== null && !(IMAGE_UPLOAD_TYPES as readonly string[]).includes(this.file.type);
    return html`
      <dialog aria-labelledby="upload-title" @cancel=${this.onCancel} @close=${this.onClose}>
        <h2 id="upload-title">Upload an image to ${name}</h2>
        <p>Choose a JPEG, PNG or GIF image. It is uploaded, and ${name} gets a link to it.</p>
        <p><input type="file" aria-label="Image" accept=${IMAGE_UPLOAD_TYPES.join(',')} autofocus @change=${this.#picked} /></p>
        ${wrongType ? html`<p role="alert">This file is not a JPEG, PNG or GIF image.</p>` : nothing}
        <div class="actions">
          <button type="button" class="cancel" @click=${() => this.decide(null)}>Cancel</button>
          <button type="button" class="primary" ?disabled=${this.file === null || wrongType} @click=${() => this.decide(this.file)}>Upload</button>
        </div>
      </dialog>
    `;
  }
}

/** Defines `<pp-image-upload-dialog>` unless it already is. */
export function defineImageUploadDialog(): void {
  if (!customElements.get(IMAGE_UPLOAD_DIALOG_TAG)) customElements.define(IMAGE_UPLOAD_DIALOG_TAG, ImageUploadDialog);
}

/**
 * Shows the image upload dialog in the host page and resolves with the picked image, or null.
 * @example const image = await requestImage({ id, name: 'Chess Club' });
 */
export function requestImage(application: { id: string; name: string }, host?: HTMLElement): Promise<File | null> {
  defineImageUploadDialog();
  const element = document.createElement(IMAGE_UPLOAD_DIALOG_TAG) as ImageUploadDialog;
  element.application = application;
  return showModal(element, host);
}

declare global {
  interface HTMLElementTagNameMap {
    'pp-image-upload-dialog': ImageUploadDialog;
  }
}
