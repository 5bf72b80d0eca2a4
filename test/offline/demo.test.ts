/**
 * The demo page (`/`, built) in real Chromium: the first visit seeds the data, two users chat
 * in a lobby from two pages, the Tic-Tac-Toe activity runs through the consent dialog into rich
 * presence, the bot sees the private channel obfuscated, the developer panels show the event
 * stream without tokens, refusals are shown in words, and the page works offline. Each main
 * view is saved as a screenshot at 1280x800 and 390x844 in test-results/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, serveSite, type SiteServer } from './site-server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCREENSHOTS = `${ROOT}test-results/screenshots`;
const SIZES = [{ width: 1280, height: 800 }, { width: 390, height: 844 }];
const WIDE = SIZES[0];

interface World {
  users: { id: string; username: string; token: string }[];
  game: { application_id: string; bot_token: string };
  guild: { id: string };
  channels: { staff: string; gameRoom: string };
  lobby: { id: string; secret: string };
}

/** The world the page recorded after seeding. */
function world(page: Page): Promise<World> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('platformpp-demo:world') ?? 'null'));
}

/** Saves the page at both sizes, then puts it back to the wide one. */
async function screenshots(page: Page, view: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    // Let the layout settle (the columns become tabs below 760px).
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.screenshot({ path: `${SCREENSHOTS}/demo-${view}-${size.width}x${size.height}.png` });
  }
  await page.setViewportSize(WIDE);
}

/** The page's chat log of the Café Lounge. */
const lounge = (page: Page) => page.getByRole('log', { name: 'Messages in Café Lounge' });
/** The page's member entry of a user. */
const memberEntry = (page: Page, userId: string) => page.locator(`demo-members li[data-user-id="${userId}"]`);
/** The status a member entry shows (`online` with its green dot, `offline` with none). */
const shownStatus = (page: Page, userId: string) => memberEntry(page, userId).getAttribute('data-status');
/** The number of status dots a member entry shows. */
const dots = (page: Page, userId: string) => memberEntry(page, userId).locator('.dot').count();
/** The link in the left column. */
const navLink = (page: Page, name: string | RegExp) => page.getByRole('navigation', { name: 'Channels and lobbies' }).getByRole('link', { name, exact: typeof name === 'string' });

describe('the offline demo page', () => {
  let site: SiteServer;
  let browser: Browser;
  let context: BrowserContext;
  let alice: Page;
  let bob: Page;
  const uncaught: string[] = [];

  const open = async (path: string) => {
    const page = await context.newPage();
    page.on('pageerror', (error) => uncaught.push(`${path}: ${error.message}`));
    await page.goto(path);
    return page;
  };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    site = await serveSite(ROOT, inject('offlineSiteDir'));
    browser = await launchChromium();
    context = await browser.newContext({ baseURL: site.baseURL, viewport: WIDE });
  });

  afterAll(async () => {
    await browser?.close();
    await site?.server.close();
  });

  it('seeds on the first visit, once, and two users chat in a lobby from two pages', async () => {
    alice = await open('/');
    await expect.poll(() => alice.evaluate(() => document.documentElement.dataset.status), { timeout: 20_000 }).toBe('ready');
    await lounge(alice).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 20_000 });
    const seeded = await world(alice);
    expect(seeded.users.map((u) => u.username)).toEqual(['alice', 'bob', 'chen']);
    expect(await alice.evaluate(() => typeof (globalThis as { platformpp?: { GatewaySocket?: unknown } }).platformpp?.GatewaySocket)).toBe('function');

    bob = await open('/?as=bob');
    await lounge(bob).getByText('Welcome to the Café Lounge!').waitFor({ timeout: 20_000 });
    expect(await bob.getByRole('combobox', { name: 'You are' }).inputValue()).toBe('bob');
    // Bob is no moderator: the private channel is not in his list, while it is in Alice's.
    await navLink(alice, /^staff-only/).waitFor();
    await navLink(bob, 'general').waitFor();
    expect(await navLink(bob, /^staff-only/).count()).toBe(0);

    await bob.getByLabel('Message Café Lounge').fill('Hi Alice, this is Bob in another tab');
    await bob.getByRole('button', { name: 'Send' }).click();
    await lounge(alice).getByText('Hi Alice, this is Bob in another tab').waitFor({ timeout: 5000 });
    await alice.getByLabel('Message Café Lounge').fill('Hello Bob! Both tabs share one service worker and one gateway.');
    await alice.keyboard.press('Enter');
    await lounge(bob).getByText('Hello Bob! Both tabs share one service worker').waitFor({ timeout: 5000 });

    // A reload reads the same world from IndexedDB: no second seeding, the history comes back.
    await alice.reload();
    await lounge(alice).getByText('Hi Alice, this is Bob in another tab').waitFor({ timeout: 20_000 });
    expect((await world(alice)).lobby.id).toBe(seeded.lobby.id);
    expect(await lounge(alice).getByText('Welcome to the Café Lounge!').count()).toBe(1);
    // Presence after the reload: GUILD_CREATE says who is online, and only they have the green dot.
    const [aliceId, bobId, chenId] = seeded.users.map((u) => u.id);
    for (const id of [aliceId, bobId]) await expect.poll(() => shownStatus(alice, id), { timeout: 10_000 }).toBe('online');
    expect(await shownStatus(alice, chenId)).toBe('offline');
    expect(await dots(alice, chenId)).toBe(0);
    expect(await dots(alice, bobId)).toBe(1);
    await screenshots(alice, 'lobby');
  });

  it('shows a member online while a page of theirs is open, offline once it closed', async () => {
    const chenId = (await world(alice)).users[2].id;
    const chen = await open('/?as=chen');
    await expect.poll(() => shownStatus(alice, chenId), { timeout: 20_000 }).toBe('online');
    await expect.poll(() => shownStatus(bob, chenId), { timeout: 5000 }).toBe('online');
    await chen.close();
    await expect.poll(() => shownStatus(alice, chenId), { timeout: 10_000 }).toBe('offline');
    expect(await dots(alice, chenId)).toBe(0);
  });

  it('chats in a guild text channel as well (MESSAGE_CREATE), where only moderators see the private channel', async () => {
    const { channels } = await world(alice);
    const general = (page: Page) => page.getByRole('log', { name: 'Messages in #general' });
    await navLink(alice, 'general').click();
    await navLink(bob, 'general').click();
    await general(bob).getByText('Welcome to Pixel Café!').waitFor({ timeout: 5000 });
    await bob.getByLabel('Message #general').fill('Bob here, in #general');
    await bob.getByRole('button', { name: 'Send' }).click();
    await general(alice).getByText('Bob here, in #general').waitFor({ timeout: 5000 });

    await navLink(alice, /^staff-only/).click();
    await alice.getByRole('log', { name: 'Messages in #staff-only' }).getByText('Moderators only').waitFor({ timeout: 5000 });
    await screenshots(alice, 'channel');
    // Bob, at the private channel's address, is told he cannot view it.
    await bob.evaluate((id) => (location.hash = `#/channel/${id}`), channels.staff);
    await bob.getByText('You cannot view #staff-only').waitFor({ timeout: 5000 });
  });

  it('runs Tic-Tac-Toe: handshake, consent, AUTHENTICATE, rich presence in the members list, participants joining and leaving', async () => {
    const { users } = await world(alice);
    const [aliceId, bobId] = [users[0].id, users[1].id];
    await navLink(alice, 'Game Room').click();
    await alice.getByRole('button', { name: 'Start Tic-Tac-Toe' }).click();
    await alice.getByRole('heading', { name: 'Authorize Tic-Tac-Toe' }).waitFor({ timeout: 10_000 });
    await alice.getByRole('dialog').getByRole('button', { name: 'Authorize' }).click();

    const aliceGame = alice.frameLocator('pp-activity-frame iframe');
    await aliceGame.getByRole('button', { name: 'centre: empty' }).waitFor({ timeout: 15_000 });
    // SET_ACTIVITY became Alice's presence, dispatched to both tabs.
    for (const page of [alice, bob]) {
      await memberEntry(page, aliceId).getByText('Playing Tic-Tac-Toe').waitFor({ timeout: 10_000 });
    }
    await expect.poll(() => memberEntry(bob, aliceId).innerText()).toContain('Waiting for an opponent');

    await navLink(bob, 'Game Room').click();
    await bob.getByText("In this channel's instance: Alice Martin").waitFor({ timeout: 5000 });
    await bob.getByRole('button', { name: 'Join Tic-Tac-Toe' }).click();
    await bob.getByRole('dialog').getByRole('button', { name: 'Authorize' }).click();
    const bobGame = bob.frameLocator('pp-activity-frame iframe');
    await aliceGame.getByText('Here now: Alice Martin, Bob Okafor').waitFor({ timeout: 15_000 });

    await aliceGame.getByRole('button', { name: 'centre: empty' }).click();
    await bobGame.getByRole('button', { name: 'centre: X' }).waitFor({ timeout: 5000 });
    await bobGame.getByRole('button', { name: 'top left: empty' }).click();
    await aliceGame.getByRole('button', { name: 'top left: O' }).waitFor({ timeout: 5000 });
    await expect.poll(() => memberEntry(alice, bobId).innerText(), { timeout: 5000 }).toContain('Alice Martin vs Bob Okafor');
    await screenshots(alice, 'activity');

    // Bob leaves: Alice's activity hears it, and Bob's presence no longer shows the game.
    await bob.getByRole('button', { name: 'Leave the activity' }).click();
    await aliceGame.getByText('Here now: Alice Martin', { exact: true }).waitFor({ timeout: 5000 });
    await expect.poll(() => memberEntry(alice, bobId).innerText(), { timeout: 5000 }).not.toContain('Playing Tic-Tac-Toe');
  });

  it("shows the bot's view: the private channel obfuscated over the gateway, and the HTTP list by the sandbox clock", async () => {
    await navLink(alice, "Bot's view").click();
    const gateway = alice.getByRole('region', { name: 'Over the gateway GUILD_CREATE' });
    await gateway.getByText('___hidden___').waitFor({ timeout: 5000 });
    expect(await gateway.getByText('staff-only').count()).toBe(0);

    const httpList = alice.getByRole('list', { name: "Channels in the bot's HTTP list" });
    await alice.evaluate(() => fetch('/sandbox/clock', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ now: '2026-11-15T12:00:00Z' }) }));
    await httpList.getByText('staff-only').waitFor({ timeout: 5000 });
    await alice.getByText('listed in full').waitFor();
    await screenshots(alice, 'bot');

    // The clock panel moves the clock: from 2026-11-16 the bot's list omits the channel.
    await navLink(alice, 'Developer tools').click();
    await alice.getByRole('link', { name: 'Clock and dated rules' }).click();
    await alice.getByRole('button', { name: 'Set the clock to 2026-11-16' }).click();
    await alice.getByText('channels the bot cannot view are omitted').waitFor({ timeout: 5000 });
    expect(await alice.getByRole('list', { name: "Channels in the bot's HTTP list" }).getByText('staff-only').count()).toBe(0);
    await screenshots(alice, 'clock');
    await alice.getByRole('button', { name: 'Back to real time' }).click();
  });

  it('shows the gateway event stream, filterable and expandable, without a token in it', async () => {
    const { users, game } = await world(alice);
    await alice.getByRole('link', { name: 'Gateway events' }).click();
    await alice.getByLabel('Filter events').fill('GUILD_CREATE');
    const stream = alice.getByRole('list', { name: 'Gateway payloads, newest first' });
    await stream.locator('summary').first().click();
    await stream.getByText('"channels": [').first().waitFor();
    await alice.getByLabel('Filter events').fill('');
    await screenshots(alice, 'dev');
    const text = await alice.locator('demo-event-stream').innerText();
    for (const secret of [...users.map((u) => u.token), game.bot_token]) expect(text).not.toContain(secret);
  });

  it('shows a refusal of the platform in words', async () => {
    await navLink(alice, /^Café Lounge/).click();
    await alice.getByLabel('Join or create a lobby by secret').fill('x'.repeat(260));
    await alice.getByRole('button', { name: 'Join', exact: true }).click();
    const alert = alice.getByRole('alert').filter({ hasText: 'Joining the lobby' });
    await alert.waitFor({ timeout: 5000 });
    expect(await alert.innerText()).toMatch(/secret.*250.*HTTP 400, code 50035/s);
    await alert.getByRole('button', { name: /Dismiss/ }).click();
  });

  it('resets the sandbox and seeds it again, in every tab', async () => {
    const before = await world(alice);
    await navLink(alice, 'Developer tools').click();
    await alice.getByRole('link', { name: 'Fixtures and reset' }).click();
    await alice.getByRole('button', { name: 'Reset the sandbox…' }).click();
    await alice.getByRole('button', { name: 'Yes, reset everything' }).click();
    await expect.poll(async () => (await world(alice))?.lobby.id, { timeout: 20_000 }).not.toBe(before.lobby.id);
    for (const page of [alice, bob]) {
      await navLink(page, /^Café Lounge/).click({ timeout: 20_000 });
      await lounge(page).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 20_000 });
      expect(await lounge(page).getByText('Hi Alice, this is Bob in another tab').count()).toBe(0);
    }
    expect(await bob.getByRole('combobox', { name: 'You are' }).inputValue()).toBe('bob');
  });

  it('loads and works offline, with the server gone, also after the browser stopped the service worker', async () => {
    await context.setOffline(true);
    await site.server.close();
    await alice.reload();
    await alice.getByRole('banner').getByText('Offline: the platform keeps running in this browser').waitFor({ timeout: 20_000 });
    await lounge(alice).getByText('Welcome to the Café Lounge!').waitFor({ timeout: 20_000 });

    await alice.getByLabel('Message Café Lounge').fill('Sent with no network at all');
    await alice.getByRole('button', { name: 'Send' }).click();
    await lounge(bob).getByText('Sent with no network at all').waitFor({ timeout: 5000 });
    await screenshots(alice, 'offline');

    // Once a DevTools session of its own is attached, Chromium reports the page online again
    // (navigator.onLine): the server is gone all the same, so the status is not checked here.
    const cdp = await context.newCDPSession(alice);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await alice.reload();
    await lounge(alice).getByText('Sent with no network at all').waitFor({ timeout: 20_000 });
    await navLink(alice, 'Game Room').waitFor();
    await cdp.detach();
    expect(uncaught).toEqual([]);
  });
});
