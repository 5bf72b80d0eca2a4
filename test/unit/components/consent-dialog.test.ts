// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CONSENT_DIALOG_TAG,
  ConsentDialog,
  defineConsentDialog,
  requestConsent,
} from '../../../src/components/consent-dialog';
import { describeScope } from '../../../src/platform/oauth2/consent-scopes';

const APP = { id: '1234567890', name: 'Space Game' };
let tagCounter = 0;

/** A fresh tag per test for elements created directly (lit's generateElementName idea). */
function freshTag(): string {
  const tag = `pp-consent-test-${++tagCounter}`;
  customElements.define(tag, class extends ConsentDialog {});
  return tag;
}

/** The open dialog `requestConsent` put in the page, once it is shown. */
async function openDialog(host: ParentNode = document.body) {
  return vi.waitFor(() => {
    const element = host.querySelector(CONSENT_DIALOG_TAG) as ConsentDialog | null;
    const dialog = element?.shadowRoot?.querySelector('dialog');
    if (!element || !dialog?.open) throw new Error('consent dialog not open yet');
    return { element, dialog, root: element.shadowRoot! };
  });
}

function button(root: ShadowRoot, name: string): HTMLButtonElement {
  const found = [...root.querySelectorAll('button')].find((b) => b.textContent?.trim() === name);
  if (!found) throw new Error(`no button named ${name}`);
  return found;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('<pp-consent-dialog> (CONTRACT §5: a real dialog with the app name, the scopes, "Authorize" and "Cancel")', () => {
  it('shows a real, labelled <dialog> naming the application and describing each scope asked for', async () => {
    const answer = requestConsent({
      application: APP,
      scopes: ['openid', 'sdk.social_layer', 'guilds'],
      user: { id: '9', username: 'alice' },
    });
    const { dialog, root } = await openDialog();
    expect(dialog).toBeInstanceOf(HTMLDialogElement);
    const title = root.getElementById(dialog.getAttribute('aria-labelledby')!);
    expect(title?.textContent).toContain('Space Game');
    expect(root.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent).toContain('alice');
    const items = [...root.querySelectorAll('li')].map((li) => li.textContent?.trim());
    expect(items).toEqual([describeScope('openid'), describeScope('sdk.social_layer'), describeScope('guilds')]);
    expect(items.every((text) => text && !/^[a-z_.]+$/.test(text))).toBe(true);
    expect(button(root, 'Authorize')).toBeTruthy();
    expect(button(root, 'Cancel')).toBeTruthy();
    button(root, 'Cancel').click();
    await answer;
  });

  it('focuses the primary button, "Authorize", when it opens', async () => {
    const answer = requestConsent({ application: APP, scopes: ['identify'] });
    const { root } = await openDialog();
    expect(root.activeElement).toBe(button(root, 'Authorize'));
    button(root, 'Cancel').click();
    await answer;
  });

  it('"Authorize" resolves true and removes the dialog', async () => {
    const answer = requestConsent({ application: APP, scopes: ['identify'] });
    const { root, dialog } = await openDialog();
    button(root, 'Authorize').click();
    expect(await answer).toBe(true);
    expect(dialog.open).toBe(false);
    expect(document.querySelector(CONSENT_DIALOG_TAG)).toBeNull();
  });

  it('"Cancel" resolves false and removes the dialog', async () => {
    const answer = requestConsent({ application: APP, scopes: ['identify'] });
    const { root } = await openDialog();
    button(root, 'Cancel').click();
    expect(await answer).toBe(false);
    expect(document.querySelector(CONSENT_DIALOG_TAG)).toBeNull();
  });

  it("Escape cancels (keydown Escape, and the dialog's own cancel event)", async () => {
    const byKey = requestConsent({ application: APP, scopes: ['identify'] });
    const first = await openDialog();
    first.dialog.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(await byKey).toBe(false);

    const byCancel = requestConsent({ application: APP, scopes: ['identify'] });
    const second = await openDialog();
    const cancel = new Event('cancel', { cancelable: true });
    second.dialog.dispatchEvent(cancel);
    expect(await byCancel).toBe(false);
    expect(cancel.defaultPrevented).toBe(true);
    expect(document.querySelector(CONSENT_DIALOG_TAG)).toBeNull();
  });

  it('appends to the given host element instead of the body', async () => {
    const host = document.createElement('section');
    document.body.append(host);
    const answer = requestConsent({ application: APP, scopes: ['identify'] }, host);
    const { root } = await openDialog(host);
    expect(host.querySelector(CONSENT_DIALOG_TAG)).not.toBeNull();
    button(root, 'Authorize').click();
    expect(await answer).toBe(true);
    expect(host.childElementCount).toBe(0);
  });

  it('an element used directly fires pp-consent with the decision; removing it answers false', async () => {
    const tag = freshTag();
    const element = document.createElement(tag) as ConsentDialog;
    element.application = APP;
    element.scopes = ['identify'];
    document.body.append(element);
    const decisions: boolean[] = [];
    element.addEventListener('pp-consent', (e) =>
      decisions.push((e as CustomEvent<{ authorized: boolean }>).detail.authorized),
    );
    const first = element.show();
    await element.updateComplete;
    button(element.shadowRoot!, 'Authorize').click();
    expect(await first).toBe(true);
    const second = element.show();
    await element.updateComplete;
    element.remove();
    expect(await second).toBe(false);
    expect(decisions).toEqual([true, false]);
  });

  it('defining it again is harmless (guarded definition)', () => {
    expect(() => defineConsentDialog()).not.toThrow();
    expect(customElements.get(CONSENT_DIALOG_TAG)).toBe(ConsentDialog);
  });
});
