/**
 * A lobby call placed from a page of the built site with the game SDK on
 * `globalThis.platformpp`, and what one of its participants hears: shared by the voice tests of
 * two tabs and of two machines on a server.
 */
import type { Page } from 'playwright-core';

/**
 * Waits until `page`'s platform is ready (its service worker controls it) and the exports are
 * on `globalThis.platformpp`, as a page must be before it places a call.
 */
export async function platformReady(page: Page, timeout: number): Promise<void> {
  await page.waitForFunction(
    () => document.documentElement.dataset.status === 'ready' && navigator.serviceWorker.controller !== null,
    undefined,
    { timeout },
  );
  await page.waitForFunction(() => typeof (globalThis as any).platformpp?.Client === 'function', undefined, {
    timeout: 10_000,
  });
}

/** Starts `userId`'s client in the page and joins the lobby `secret`'s call; the call waits on `globalThis.voice`. */
export function joinCall(page: Page, o: { applicationId: string; userId: string; token: string; secret: string }) {
  return page.evaluate(async (o) => {
    const { Client, AuthorizationTokenType } = (globalThis as any).platformpp;
    const client = new Client({ applicationId: o.applicationId, userId: o.userId });
    await client.updateToken(AuthorizationTokenType.Bearer, o.token);
    await client.connect();
    const lobby = await client.createOrJoinLobby(o.secret);
    (globalThis as any).voice = { client, call: client.startCall(lobby.id) };
  }, o);
}

/** What the page's call heard of `speakerId`: the peak level over 2 s, once over 50 frames were decrypted. */
export interface Heard {
  /** The loudest level sampled, in dBFS. */
  peak: number;
  e2ee: boolean;
  decrypted: number;
  undecryptable: number;
}

/** Waits (up to 15 s) until the page's call has decrypted over 50 frames of `speakerId`, then samples their level for 2 s. */
export function listen(page: Page, speakerId: string): Promise<Heard> {
  return page.evaluate(async (speaker) => {
    const { call } = (globalThis as any).voice;
    for (let i = 0; i < 750; i++) {
      const peer = (await call.getMediaStats())?.peers[speaker];
      if (peer && peer.framesDecrypted > 50) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    let peak = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < 100; i++) {
      peak = Math.max(peak, call.getAudioLevel(speaker));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const stats = (await call.getMediaStats()).peers[speaker];
    return { peak, e2ee: stats.e2ee, decrypted: stats.framesDecrypted, undecryptable: stats.framesUndecryptable };
  }, speakerId);
}

/** A call to the sandbox control API (CONTRACT §3), made from a page or from the test's own process. */
export type SandboxCall = (method: string, path: string, body?: unknown) => Promise<any>;

/**
 * Creates an application called `o.name` and one user per username with an access token of it
 * (`openid sdk.social_layer`), and joins the first page to the lobby `o.secret`'s call as the
 * first user and the second page as the second. Resolves to the users, in that order.
 */
export async function joinTwo(
  call: SandboxCall,
  pages: [Page, Page],
  o: { name: string; usernames: [string, string]; secret: string },
): Promise<{ id: string; token: string }[]> {
  const app = (await call('POST', '/sandbox/applications', { name: o.name })).application;
  const users = [];
  for (const username of o.usernames) {
    const user = (await call('POST', '/sandbox/users', { username })).user;
    const tokens = await call('POST', '/sandbox/tokens', {
      application_id: app.id,
      user_id: user.id,
      scopes: 'openid sdk.social_layer',
    });
    users.push({ id: user.id as string, token: tokens.access_token as string });
  }
  for (const [i, page] of pages.entries()) {
    await joinCall(page, { applicationId: app.id, userId: users[i].id, token: users[i].token, secret: o.secret });
  }
  return users;
}

/** Ends each page's call by destroying its client. */
export async function hangUp(pages: Page[]): Promise<void> {
  for (const page of pages) await page.evaluate(() => (globalThis as any).voice.client.destroy());
}
