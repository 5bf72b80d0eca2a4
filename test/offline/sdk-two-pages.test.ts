/**
 * The game SDK's `Client` on the built site, one page per user (issue: "a page using Client
 * authorizes through the consent dialog, gets tokens, joins a lobby with a second page's user,
 * and both exchange messages through the gateway"). Each page runs its own `Client` from the
 * package exports the host page exposes on `globalThis.platformpp` (CONTRACT §4), answers the
 * consent dialog with a real click on "Authorize", and hears the other page's messages through
 * the one shared-worker gateway. Every wait is on a condition, never on time.
 */
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { world } from './demo-page';
import { launchChromium, serveSite, type SiteServer } from './site-server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What a page's game keeps between evaluations, on `globalThis.game`. */
interface PageGame {
  signIn: Promise<{ userId: string; hasRefreshToken: boolean }>;
  heard: { content: string; authorId: string }[];
  joined: string[];
}

/** A sandbox fixture call from the page, answered by its service worker. */
function sandbox(page: Page, path: string, body: unknown): Promise<any> {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status !== 201) throw new Error(`${path} answered ${response.status}`);
      return response.json();
    },
    { path, body },
  );
}

/**
 * Starts the SDK's account flow in the page as `userId`: authorize (which opens the consent
 * dialog and waits for the user), getToken with the PKCE verifier, updateToken, connect. The
 * flow waits in the page; the test answers the dialog.
 */
function startSignIn(page: Page, applicationId: string, userId: string): Promise<void> {
  return page.evaluate(
    ({ applicationId, userId }) => {
      const { Client, AuthorizationArgs, AuthorizationTokenType } = (globalThis as any).platformpp;
      const client = new Client({ applicationId, userId });
      const game: PageGame & { client: unknown } = { client, heard: [], joined: [], signIn: null as never };
      client.setMessageCreatedCallback((_id: string, message: { content: string; author: { id: string } }) =>
        game.heard.push({ content: message.content, authorId: message.author.id }),
      );
      client.setLobbyMemberAddedCallback((_lobbyId: string, memberId: string) => game.joined.push(memberId));
      game.signIn = (async () => {
        const { challenge, verifier } = await client.createAuthorizationCodeVerifier();
        const args = new AuthorizationArgs();
        args.setScopes(Client.getDefaultCommunicationScopes());
        args.setCodeChallenge(challenge);
        const { code, redirectUri } = await client.authorize(args);
        const tokens = await client.getToken(applicationId, code, verifier, redirectUri);
        await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
        await client.connect();
        return { userId: client.getCurrentUserV2()?.id, hasRefreshToken: typeof tokens.refreshToken === 'string' };
      })();
      (globalThis as any).game = game;
    },
    { applicationId, userId },
  );
}

/** Clicks "Authorize" in the page's consent dialog for `appName`, then waits for the flow to end. */
async function authorizeInDialog(page: Page, appName: string): Promise<{ userId: string; hasRefreshToken: boolean }> {
  const dialog = page.getByRole('dialog', { name: `Authorize ${appName}` });
  await dialog.waitFor({ timeout: 10_000 });
  await dialog.getByRole('button', { name: 'Authorize', exact: true }).click();
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
  return page.evaluate(() => ((globalThis as any).game as PageGame).signIn);
}

/** Runs `method` of the page's client with `args` and answers its result (ids only). */
function call(page: Page, method: string, ...args: unknown[]): Promise<any> {
  return page.evaluate(
    async ({ method, args }) => {
      const client = (globalThis as any).game.client;
      const result = await client[method](...args);
      return result && typeof result === 'object' && 'id' in result ? { id: result.id } : null;
    },
    { method, args },
  );
}

describe('the game SDK Client on the built site: two pages, two users, one lobby, through the gateway', () => {
  let site: SiteServer;
  let browser: Browser;
  let context: BrowserContext;
  const uncaught: string[] = [];

  /** A host page of the built site, once its platform is ready. */
  const open = async (path: string): Promise<Page> => {
    const page = await context.newPage();
    page.on('pageerror', (error) => uncaught.push(`${path}: ${error.message}`));
    await page.goto(path);
    await page.waitForFunction(
      () => document.documentElement.dataset.status === 'ready' && navigator.serviceWorker.controller !== null,
      undefined,
      { timeout: 30_000 },
    );
    await page.waitForFunction(() => typeof (globalThis as any).platformpp?.Client === 'function', undefined, {
      timeout: 10_000,
    });
    return page;
  };

  beforeAll(async () => {
    site = await serveSite(ROOT, inject('offlineSiteDir'));
    browser = await launchChromium();
    context = await browser.newContext({ baseURL: site.baseURL });
  });

  afterAll(async () => {
    await browser?.close();
    await site?.server.close();
  });

  it("a page authorizes through the consent dialog, gets tokens, joins a lobby with the second page's user, and both exchange messages through the gateway", async () => {
    const first = await open('/');
    // The demo seeds its own world on a first visit: wait for it, so our fixtures are not raced.
    await expect.poll(() => world(first), { timeout: 30_000 }).not.toBeNull();
    const second = await open('/?as=bob');
    expect(await first.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(
      await second.evaluate(() => navigator.serviceWorker.controller?.scriptURL),
    );

    const dana = (await sandbox(first, '/sandbox/users', { username: 'dana' })).user;
    const eli = (await sandbox(first, '/sandbox/users', { username: 'eli' })).user;
    const appId = (await sandbox(first, '/sandbox/applications', { name: 'Two Page Arena' })).application.id;

    await startSignIn(first, appId, dana.id);
    expect(await authorizeInDialog(first, 'Two Page Arena')).toEqual({ userId: dana.id, hasRefreshToken: true });
    await startSignIn(second, appId, eli.id);
    expect(await authorizeInDialog(second, 'Two Page Arena')).toEqual({ userId: eli.id, hasRefreshToken: true });

    const lobby = await call(first, 'createOrJoinLobby', 'two-pages');
    expect((await call(second, 'createOrJoinLobby', 'two-pages')).id).toBe(lobby.id);
    // The first page hears the second user join, through the gateway.
    await first.waitForFunction((id) => ((globalThis as any).game as PageGame).joined.includes(id), eli.id, {
      timeout: 10_000,
    });

    await call(first, 'sendLobbyMessage', lobby.id, 'hello from page one');
    await second.waitForFunction(() => ((globalThis as any).game as PageGame).heard.length >= 1, undefined, {
      timeout: 10_000,
    });
    await call(second, 'sendLobbyMessage', lobby.id, 'hi from page two');
    for (const page of [first, second]) {
      await page.waitForFunction(() => ((globalThis as any).game as PageGame).heard.length >= 2, undefined, {
        timeout: 10_000,
      });
      expect(await page.evaluate(() => ((globalThis as any).game as PageGame).heard)).toEqual([
        { content: 'hello from page one', authorId: dana.id },
        { content: 'hi from page two', authorId: eli.id },
      ]);
    }
    expect(uncaught).toEqual([]);
  });
});
