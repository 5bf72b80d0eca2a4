/**
 * `<pp-activity-invite-dialog>`: INVITE_USER_EMBEDDED's confirmation in the host page. It names
 * who is invited to which activity and shows the activity's message, with the buttons
 * "Send invite" and "Cancel": an activity cannot message someone on the user's behalf unasked.
 */
import { html, nothing } from 'lit';
import { ModalDialog, dialogStyles, showModal } from './modal-dialog';

/** The tag {@link requestInviteConfirmation} uses. */
export const ACTIVITY_INVITE_DIALOG_TAG = 'pp-activity-invite-dialog';

/** What the invite dialog asks about. */
export interface ActivityInviteRequest {
  application: { id: string; name: string };
  user: { id: string; username: string; global_name: string | null };
  content?: string;
}

/** The invite dialog: `show()` resolves true for "Send invite", false otherwise. */
export class ActivityInviteDialog extends ModalDialog<boolean> {
  static override properties = { request: { attribute: false } };
  static override styles = dialogStyles;

  declare request: ActivityInviteRequest | undefined;
  protected readonly cancelled = false;

  override render() {
    const request = this.request;
    const who = request ? (request.user.global_name ?? request.user.username) : 'someone';
    const name = request?.application.name ?? 'an activity';
    return html`
      <dialog aria-labelledby="invite-title" @cancel=${this.onCancel} @close=${this.onClose}>
        <h2 id="invite-title">Invite ${who} to ${name}</h2>
        <p>${who} gets a direct message with an invite to join you in ${name}.</p>
        ${request?.content ? html`<p data-part="content">Message: ${request.content}</p>` : nothing}
        <div class="actions">
          <button type="button" class="cancel" @click=${() => this.decide(false)}>Cancel</button>
          <button type="button" class="primary" autofocus @click=${() => this.decide(true)}>Send invite</button>
        </div>
      </dialog>
    `;
  }
}

/** Defines `<pp-activity-invite-dialog>` unless it already is. */
export function defineActivityInviteDialog(): void {
  if (!customElements.get(ACTIVITY_INVITE_DIALOG_TAG))
    customElements.define(ACTIVITY_INVITE_DIALOG_TAG, ActivityInviteDialog);
}

/**
 * Shows the invite dialog in the host page; resolves true when the user sends the invite.
 * @example if (await requestInviteConfirmation({ application, user })) { ... }
 */
export function requestInviteConfirmation(request: ActivityInviteRequest, host?: HTMLElement): Promise<boolean> {
  defineActivityInviteDialog();
  const element = document.createElement(ACTIVITY_INVITE_DIALOG_TAG) as ActivityInviteDialog;
  element.request = request;
  return showModal(element, host);
}

declare global {
  interface HTMLElementTagNameMap {
    'pp-activity-invite-dialog': ActivityInviteDialog;
  }
}
