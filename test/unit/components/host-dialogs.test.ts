// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { requestInviteConfirmation } from '../../../src/components/activity-invite-dialog';
import { requestImage } from '../../../src/components/image-upload-dialog';
import { requestShareTarget } from '../../../src/components/share-dialog';
import type { ShareRequest } from '../../../src/rpc/context';

const APP = { id: '1234567890', name: 'Chess Club' };

/** The open dialog of the element `tag`, once shown. */
async function opened(tag: string) {
  return vi.waitFor(() => {
    const element = document.body.querySelector(tag);
    const dialog = element?.shadowRoot?.querySelector('dialog');
    if (!element || !dialog?.open) throw new Error(`${tag} not open yet`);
    return { element, dialog, root: element.shadowRoot! };
  });
}

function button(root: ShadowRoot, name: string): HTMLButtonElement {
  const found = [...root.querySelectorAll('button')].find((b) => b.textContent?.trim() === name);
  if (!found) throw new Error(`no button named ${name}`);
  return found;
}

const moment: ShareRequest = {
  kind: 'moment',
  application: APP,
  targets: {
    channels: [
      { id: '11', name: 'general', type: 0, guild_id: '1' },
      { id: '12', name: 'clips', type: 0, guild_id: '1' },
    ],
    friends: [{ id: '21', username: 'bob', global_name: 'Bob' }],
  },
  image_url: 'http://x/attachments/ephemeral/1/2/a.png',
};

afterEach(() => {
  document.body.innerHTML = '';
});

describe('<pp-share-dialog> (OPEN_SHARE_MOMENT_DIALOG, SHARE_INTERACTION): the platform choices, "Share" and "Cancel"', () => {
  it('a labelled modal dialog lists the channels and friends offered, the first chosen; Share answers the one picked', async () => {
    const answer = requestShareTarget(moment);
    const { dialog, root } = await opened('pp-share-dialog');
    expect(root.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent).toContain(
      'Share from Chess Club',
    );
    expect(root.querySelector('img')?.getAttribute('src')).toBe(moment.image_url);
    const labels = [...root.querySelectorAll('label.choice')].map((l) => l.textContent?.trim());
    expect(labels).toEqual(['#general', '#clips', '@Bob']);
    expect((root.querySelectorAll('input[type=radio]')[0] as HTMLInputElement).checked).toBe(true);
    const friend = root.querySelectorAll('input[type=radio]')[2] as HTMLInputElement;
    friend.checked = true;
    friend.dispatchEvent(new Event('change'));
    button(root, 'Share').click();
    expect(await answer).toEqual({ user_id: '21' });
    expect(document.body.querySelector('pp-share-dialog')).toBeNull();
  });

  it('Cancel, Escape and removing the dialog all answer null (the command is never left waiting)', async () => {
    const cancelled = requestShareTarget(moment);
    button((await opened('pp-share-dialog')).root, 'Cancel').click();
    expect(await cancelled).toBeNull();
    const escaped = requestShareTarget(moment);
    (await opened('pp-share-dialog')).dialog.dispatchEvent(new Event('cancel', { cancelable: true }));
    expect(await escaped).toBeNull();
    const removed = requestShareTarget(moment);
    (await opened('pp-share-dialog')).element.remove();
    expect(await removed).toBeNull();
  });

  it("an interaction's dialog shows its text, buttons and the command it runs; with nowhere to share, Share is disabled", async () => {
    const answer = requestShareTarget({
      kind: 'interaction',
      application: APP,
      targets: { channels: [], friends: [] },
      content: 'I scored 42',
      buttons: ['Play'],
      command: 'score',
    });
    const { root } = await opened('pp-share-dialog');
    expect(root.textContent).toContain('I scored 42');
    expect(root.textContent).toContain('/score');
    expect(root.querySelector('[data-part=buttons]')?.textContent).toContain('Play');
    expect(button(root, 'Share').disabled).toBe(true);
    button(root, 'Cancel').click();
    expect(await answer).toBeNull();
  });
});

describe('<pp-image-upload-dialog> (INITIATE_IMAGE_UPLOAD): a file picker for JPEG, PNG and GIF images', () => {
  it('Upload is enabled once an image is picked, and answers it; Cancel answers null', async () => {
    const answer = requestImage(APP);
    const { root } = await opened('pp-image-upload-dialog');
    const input = root.querySelector('input[type=file]') as HTMLInputElement;
    expect(input.getAttribute('accept')).toBe('image/jpeg,image/png,image/gif');
    expect(button(root, 'Upload').disabled).toBe(true);
    const file = new File([new Uint8Array([1])], 'a.png', { type: 'image/png' });
    Object.defineProperty(input, 'files', { value: [file] });
    input.dispatchEvent(new Event('change'));
    await vi.waitFor(() => expect(button(root, 'Upload').disabled).toBe(false));
    button(root, 'Upload').click();
    expect(await answer).toBe(file);
    const cancelled = requestImage(APP);
    button((await opened('pp-image-upload-dialog')).root, 'Cancel').click();
    expect(await cancelled).toBeNull();
  });

  it('a file that is no JPEG, PNG or GIF cannot be uploaded', async () => {
    void requestImage(APP);
    const { root } = await opened('pp-image-upload-dialog');
    const input = root.querySelector('input[type=file]') as HTMLInputElement;
    Object.defineProperty(input, 'files', { value: [new File(['x'], 'a.svg', { type: 'image/svg+xml' })] });
    input.dispatchEvent(new Event('change'));
    await vi.waitFor(() => expect(root.querySelector('[role=alert]')?.textContent).toContain('not a JPEG, PNG or GIF'));
    expect(button(root, 'Upload').disabled).toBe(true);
  });
});

describe('<pp-activity-invite-dialog> (INVITE_USER_EMBEDDED): who is invited to what, "Send invite" and "Cancel"', () => {
  it('names the invitee and the activity, shows the message; Send invite answers true, Cancel false', async () => {
    const user = { id: '21', username: 'bob', global_name: 'Bob' };
    const sent = requestInviteConfirmation({ application: APP, user, content: 'Join us' });
    const { root, dialog } = await opened('pp-activity-invite-dialog');
    expect(root.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent).toBe('Invite Bob to Chess Club');
    expect(root.textContent).toContain('Join us');
    button(root, 'Send invite').click();
    expect(await sent).toBe(true);
    const cancelled = requestInviteConfirmation({ application: APP, user });
    button((await opened('pp-activity-invite-dialog')).root, 'Cancel').click();
    expect(await cancelled).toBe(false);
  });
});
