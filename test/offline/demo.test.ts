/**
 * The demo page (`/`, built) in real Chromium: the first visit seeds the data, two users chat
 * in a lobby from two pages, the Tic-Tac-Toe activity runs through the consent dialog into rich
 * presence, lobbies are made and joined by secret with a history of 200, the bot sees the
 * private channel obfuscated, the developer panels show the event stream without tokens and the
 * webhook deliveries, refusals are shown in words, and the page works offline. Each main view
 * is saved as a screenshot at 1280x800 and 390x844 in test-results/screenshots/ (the narrow
 * layout's Channels and Members panes at 390x844).
 */
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  lounge,
  memberEntry,
  narrowPane,
  navLink,
  ROOT,
  SCREENSHOTS,
  screenshots,
  settle,
  SIZES,
  statusLine,
  WIDE,
  world,
} from './demo-page';
import { launchChromium, serveSite, type SiteServer } from './site-server';

/** The status a member entry shows (`online` with its green dot, `offline` with none). */
const shownStatus = (page: Page, userId: string) => memberEntry(page, userId).getAttribute('data-status');
/** The number of status dots a member entry shows. */
const dots = (page: Page, userId: string) => memberEntry(page, userId).locator('.presence-dot').count();
/** The right column's list of a lobby's members. */
const lobbyMembers = (page: Page) => page.locator('demo-members section[aria-label^="In this lobby"]');

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
    context = await browser.newContext({
      baseURL: site.baseURL,
      viewport: WIDE,
      // The copy buttons write to the clipboard; the tests read it back.
      permissions: ['clipboard-read', 'clipboard-write'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await site?.server.close();
  });

  it('seeds on the first visit, once, and two users chat in a lobby from two pages', async () => {
    alice = await open('/');
    await expect
      .poll(() => alice.evaluate(() => document.documentElement.dataset.status), { timeout: 20_000 })
      .toBe('ready');
    await lounge(alice).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 20_000 });
    const seeded = await world(alice);
    expect(seeded.users.map((u) => u.username)).toEqual(['alice', 'bob', 'chen']);
    expect(
      await alice.evaluate(
        () => typeof (globalThis as { platformpp?: { GatewaySocket?: unknown } }).platformpp?.GatewaySocket,
      ),
    ).toBe('function');

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
    await alice
      .getByLabel('Message Café Lounge')
      .fill('Hello Bob! Both tabs share one service worker and one gateway.');
    await alice.keyboard.press('Enter');
    await lounge(bob).getByText('Hello Bob! Both tabs share one service worker').waitFor({ timeout: 5000 });

    // A reload reads the same world from IndexedDB: no second seeding, the history comes back.
    await alice.reload();
    await lounge(alice).getByText('Hi Alice, this is Bob in another tab').waitFor({ timeout: 20_000 });
    expect((await world(alice)).lobby.id).toBe(seeded.lobby.id);
    expect(await lounge(alice).getByText('Welcome to the Café Lounge!').count()).toBe(1);
    // Presence after the reload: GUILD_CREATE says who is online, and only they have the green dot.
    const [aliceId, bobId, chenId] = seeded.users.map((u) => u.id);
    for (const id of [aliceId, bobId])
      await expect.poll(() => shownStatus(alice, id), { timeout: 10_000 }).toBe('online');
    expect(await shownStatus(alice, chenId)).toBe('offline');
    expect(await dots(alice, chenId)).toBe(0);
    expect(await dots(alice, bobId)).toBe(1);
    // Beside the lobby, the right column lists the lobby's three members, not the guild (whose bot is no member).
    expect(await lobbyMembers(alice).locator('li').count()).toBe(3);
    expect(await memberEntry(alice, seeded.game.bot_user_id).count()).toBe(0);
    await screenshots(alice, 'lobby');
    await narrowPane(alice, 'Channels', 'channels-pane');
    await narrowPane(alice, 'Members', 'lobby-members-pane');
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
    await alice
      .getByRole('log', { name: 'Messages in #staff-only' })
      .getByText('Moderators only')
      .waitFor({ timeout: 5000 });
    await screenshots(alice, 'channel');
    // Beside a guild channel, the guild's members grouped by role, the bot among them.
    await memberEntry(alice, (await world(alice)).game.bot_user_id).waitFor();
    await narrowPane(alice, 'Members', 'members-pane');
    // Bob, at the private channel's address, is told he cannot view it.
    await bob.evaluate((id) => (location.hash = `#/channel/${id}`), channels.staff);
    await bob.getByText('You cannot view #staff-only').waitFor({ timeout: 5000 });
  });

  it('creates a lobby by secret from the page, named after its secret, which it shows to invite others; a second user joins it by the same secret, and each sees the other and their messages', async () => {
    const { users, client } = await world(alice);
    const [aliceId, bobId] = [users[0].id, users[1].id];
    const secret = `board-games-${Date.now()}`;
    const joinBySecret = async (page: Page) => {
      await page.getByLabel('Join or create a lobby by secret').fill(secret);
      await page.getByRole('button', { name: 'Join', exact: true }).click();
    };
    await joinBySecret(alice);
    await alice
      .getByRole('log', { name: `Messages in ${secret}` })
      .getByText('No messages yet')
      .waitFor({ timeout: 5000 });
    const lobbyId = await alice.evaluate(() => location.hash.replace('#/lobby/', ''));
    expect(lobbyId).toMatch(/^\d+$/);
    const log = (page: Page) => page.getByRole('log', { name: `Messages in ${secret}` });
    expect(await lobbyMembers(alice).locator('li').count()).toBe(1);
    // Named after its secret (not "Lobby 123456"), the secret shown with a copy button, and "1 member" read out.
    const header = alice.locator('demo-lobby-view header');
    expect(await header.getByRole('heading').innerText()).toContain(secret);
    expect(await header.locator('code').innerText()).toBe(secret);
    await header.getByRole('button', { name: "Copy the lobby's secret" }).click();
    expect(await alice.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await header.getByText('1 member', { exact: true }).waitFor();
    expect(
      await navLink(alice, new RegExp(`^${secret}`)).evaluate((a) => (a.textContent ?? '').replace(/\s+/g, ' ').trim()),
    ).toMatch(/1 member$/);

    await joinBySecret(bob);
    await log(bob).waitFor({ timeout: 5000 });
    expect(await bob.evaluate(() => location.hash)).toBe(`#/lobby/${lobbyId}`);
    // Alice's page hears LOBBY_MEMBER_ADD: Bob appears beside the chat, with his presence.
    await lobbyMembers(alice).locator(`li[data-user-id="${bobId}"][data-status="online"]`).waitFor({ timeout: 5000 });
    await lobbyMembers(bob).locator(`li[data-user-id="${aliceId}"]`).waitFor();

    await bob.getByLabel(`Message ${secret}`).fill('Bob joined by the secret');
    await bob.keyboard.press('Enter');
    await log(alice).getByText('Bob joined by the secret').waitFor({ timeout: 5000 });
    // Bob joined with the secret, so his page shows it too.
    expect(await bob.locator('demo-lobby-view header code').innerText()).toBe(secret);
    await alice.getByLabel(`Message ${secret}`).fill('Alice made this lobby');
    await alice.keyboard.press('Enter');
    await log(bob).getByText('Alice made this lobby').waitFor({ timeout: 5000 });

    // Someone the page has never heard of joins (and leaves) live: named, never a bare snowflake.
    const dana = await alice.evaluate(
      async ({ secret, applicationId }) => {
        const call = async (method: string, path: string, body?: unknown, token?: string) => {
          const headers: Record<string, string> = { 'Content-Type': 'application/json' };
          if (token) headers.Authorization = `Bearer ${token}`;
          const response = await fetch(path, {
            method,
            headers,
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
          return response.status === 204 ? null : response.json();
        };
        const { user } = await call('POST', '/sandbox/users', { username: 'dana', global_name: 'Dana Silva' });
        const { access_token } = await call('POST', '/sandbox/tokens', {
          application_id: applicationId,
          user_id: user.id,
          scopes: 'identify sdk.social_layer',
        });
        const lobby = await call('PUT', '/api/v10/lobbies', { secret }, access_token);
        return { id: user.id as string, token: access_token as string, lobbyId: lobby.id as string };
      },
      { secret, applicationId: client.application_id },
    );
    expect(dana.lobbyId).toBe(lobbyId);
    await lobbyMembers(alice)
      .locator(`li[data-user-id="${dana.id}"]`)
      .getByText('Dana Silva')
      .waitFor({ timeout: 5000 });
    await alice.locator('demo-lobby-view header').getByText('3 members', { exact: true }).waitFor();
    expect(
      await alice
        .locator('demo-lobby-view, demo-members')
        .evaluateAll((els) => els.map((e) => e.shadowRoot?.textContent ?? '').join(' ')),
    ).not.toContain(dana.id);
    await alice.evaluate(async ({ lobbyId, token }) => {
      const response = await fetch(`/api/v10/lobbies/${lobbyId}/members/@me`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${token}` },
      });
      if (!response.ok) throw new Error(`leaving: ${response.status}`);
    }, dana);
    await expect.poll(() => lobbyMembers(alice).locator('li').count(), { timeout: 5000 }).toBe(2);
    await screenshots(alice, 'lobby-created');
  });

  it("shows a lobby's history of 200: of 205 messages, the newest 200 and not the oldest 5", async () => {
    const { users } = await world(alice);
    const secret = `history-${Date.now()}`;
    // Chen (no page of his open) writes them through the API, one request each, oldest first;
    // then Alice joins by the secret in her page, which reads the history.
    await alice.evaluate(
      async ({ secret, token }) => {
        const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` };
        const lobby = await (
          await fetch('/api/v10/lobbies', { method: 'PUT', headers, body: JSON.stringify({ secret }) })
        ).json();
        for (let n = 1; n <= 205; n++) {
          const response = await fetch(`/api/v10/lobbies/${lobby.id}/messages`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ content: `History ${n}` }),
          });
          if (!response.ok) throw new Error(`message ${n}: ${response.status}`);
        }
      },
      { secret, token: users[2].token },
    );
    await alice.getByLabel('Join or create a lobby by secret').fill(secret);
    await alice.getByRole('button', { name: 'Join', exact: true }).click();
    const log = alice.getByRole('log', { name: `Messages in ${secret}` });
    await log.getByText('History 205', { exact: true }).waitFor({ timeout: 10_000 });
    expect(await log.locator('li[data-message-id]').count()).toBe(200);
    await log.getByText('History 6', { exact: true }).waitFor();
    for (const n of [1, 2, 3, 4, 5]) expect(await log.getByText(`History ${n}`, { exact: true }).count()).toBe(0);
  });

  it('keeps the Game Room inside its column with "Embed your own activity" open, at 1280 and 390 wide: the start button stays on its card', async () => {
    await navLink(alice, 'Game Room').click();
    await alice.getByText('Embed your own activity').click();
    const start = alice.getByRole('button', { name: 'Start Tic-Tac-Toe' });
    for (const size of SIZES) {
      await alice.setViewportSize(size);
      await settle(alice);
      const [button, card, main] = await Promise.all([
        start.boundingBox(),
        alice.locator('demo-activity-launch section.launcher').boundingBox(),
        alice.locator('main#main').boundingBox(),
      ]);
      expect(button!.x + button!.width).toBeLessThanOrEqual(card!.x + card!.width + 0.5);
      expect(card!.x + card!.width).toBeLessThanOrEqual(main!.x + main!.width + 0.5);
      expect(await alice.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    }
    await screenshots(alice, 'game-room-embed');
    await alice.getByText('Embed your own activity').click();
  });

  it('runs Tic-Tac-Toe: handshake, consent (cancelling it offers to authorize again), AUTHENTICATE, rich presence in the members list, participants joining and leaving', async () => {
    const { users } = await world(alice);
    const [aliceId, bobId] = [users[0].id, users[1].id];
    await navLink(alice, 'Game Room').click();
    await alice.getByRole('button', { name: 'Start Tic-Tac-Toe' }).click();
    await alice.getByRole('heading', { name: 'Authorize Tic-Tac-Toe' }).waitFor({ timeout: 10_000 });
    await screenshots(alice, 'consent');
    // Cancelling is a choice the activity respects: it says so and offers to ask again.
    await alice.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    const aliceGame = alice.frameLocator('pp-activity-frame iframe');
    await aliceGame.getByText('You did not authorize Tic-Tac-Toe').waitFor({ timeout: 10_000 });
    expect(await aliceGame.getByText('Asking you to authorize').count()).toBe(0);
    expect(await aliceGame.getByText('access_denied').count()).toBe(0);
    await screenshots(alice, 'consent-cancelled');
    await aliceGame.getByRole('button', { name: 'Authorize again' }).click();
    await alice.getByRole('dialog').getByRole('button', { name: 'Authorize' }).click();

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
    // Two play: the game's status_display_type (2) makes the details the status text.
    await expect
      .poll(() => memberEntry(alice, bobId).locator('.activity strong').innerText(), { timeout: 5000 })
      .toBe('Playing Alice Martin vs Bob Okafor');
    await screenshots(alice, 'activity');

    // Bob leaves: Alice's activity hears it, and Bob's presence no longer shows the game.
    await bob.getByRole('button', { name: 'Leave the activity' }).click();
    await aliceGame.getByText('Here now: Alice Martin', { exact: true }).waitFor({ timeout: 5000 });
    await expect.poll(() => memberEntry(alice, bobId).locator('.activity').count(), { timeout: 5000 }).toBe(0);
  });

  it("delivers APPLICATION_AUTHORIZED to the sink the seed set as Tic-Tac-Toe's webhook events URL, and lists it under Webhook deliveries", async () => {
    const { game, users } = await world(alice);
    await navLink(alice, 'Developer tools').click();
    await alice.getByRole('link', { name: 'Webhook deliveries' }).click();
    const list = alice.getByRole('list', { name: 'Webhook deliveries' });
    // Alice and Bob each authorized the activity once: two deliveries, both received by the sink.
    await expect
      .poll(
        async () => {
          await alice.getByRole('button', { name: 'Refresh' }).click();
          return list
            .locator('summary')
            .filter({ hasText: 'APPLICATION_AUTHORIZED' })
            .filter({ hasText: 'delivered' })
            .count();
        },
        { timeout: 15_000 },
      )
      .toBe(2);
    expect(await list.locator('summary strong').allInnerTexts()).toEqual([
      'APPLICATION_AUTHORIZED',
      'APPLICATION_AUTHORIZED',
    ]);
    // Each row says whom it is about, and that its payload opens.
    const rows = await list.locator('summary').allInnerTexts();
    expect(rows.some((r) => r.includes('Alice Martin (@alice)'))).toBe(true);
    expect(rows.some((r) => r.includes('Bob Okafor (@bob)'))).toBe(true);
    expect(rows.every((r) => r.includes('Show payload'))).toBe(true);
    await list.locator('summary').first().click();
    await list.locator('details[open] summary').getByText('Hide payload').waitFor();
    await list.locator('details[open] pre').getByText('"type": "APPLICATION_AUTHORIZED"').waitFor();
    await screenshots(alice, 'webhooks');
    const received = await alice.evaluate(async (applicationId) => {
      const settings = await (await fetch(`/sandbox/applications/${applicationId}/event-webhooks`)).json();
      return (await (await fetch(settings.event_webhooks_url)).json()).requests as {
        signature_valid: boolean;
        body: { event?: { type: string; data: { user: { id: string } } } };
      }[];
    }, game.application_id);
    const authorized = received.filter((r) => r.body.event?.type === 'APPLICATION_AUTHORIZED');
    expect(authorized.map((r) => r.body.event!.data.user.id).sort()).toEqual([users[0].id, users[1].id].sort());
    expect(authorized.every((r) => r.signature_valid)).toBe(true);
    const text = await alice.locator('demo-webhooks').innerText();
    for (const secret of [...users.map((u) => u.token), game.bot_token]) expect(text).not.toContain(secret);
  });

  it("shows the bot's view: the private channel obfuscated over the gateway, and the HTTP list by the sandbox clock", async () => {
    await navLink(alice, "Bot's view").click();
    const gateway = alice.getByRole('region', { name: 'Over the gateway GUILD_CREATE' });
    await gateway.getByText('___hidden___').waitFor({ timeout: 5000 });
    expect(await gateway.getByText('staff-only').count()).toBe(0);

    const httpList = alice.getByRole('list', { name: "Channels in the bot's HTTP list" });
    await alice.evaluate(() =>
      fetch('/sandbox/clock', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ now: '2026-11-15T12:00:00Z' }),
      }),
    );
    await httpList.getByText('staff-only').waitFor({ timeout: 5000 });
    await alice.getByText('listed in full').waitFor();
    await screenshots(alice, 'bot');

    // The clock panel moves the clock: from 2026-11-16 the bot's list omits the channel.
    await navLink(alice, 'Developer tools').click();
    await alice.getByRole('link', { name: 'Clock and dated rules' }).click();
    await alice.getByRole('button', { name: 'Set the clock to 2026-11-16' }).click();
    await alice.getByText('channels the bot cannot view are omitted').waitFor({ timeout: 5000 });
    expect(
      await alice.getByRole('list', { name: "Channels in the bot's HTTP list" }).getByText('staff-only').count(),
    ).toBe(0);
    await screenshots(alice, 'clock');
    await alice.getByRole('button', { name: 'Back to real time' }).click();
  });

  it('shows the gateway event stream, filterable and expandable, without a token in it, not even in the Identify payloads that carried one', async () => {
    const { users, game } = await world(alice);
    const secrets = [...users.map((u) => u.token), game.bot_token];
    await alice.getByRole('link', { name: 'Gateway events' }).click();
    const stream = alice.getByRole('list', { name: 'Gateway payloads, newest first' });
    await alice.getByLabel('Filter events').fill('GUILD_CREATE');
    await stream.locator('summary').first().click();
    await stream.getByText('"channels": [').first().waitFor();
    await screenshots(alice, 'dev-payload');

    // The sessions' own Identify payloads (sent with the user's and the bot's token) are listed, their tokens redacted.
    await alice.getByLabel('Filter events').fill('IDENTIFY');
    const identifies = stream.locator('li').filter({ hasText: 'sent' });
    await expect.poll(() => identifies.count()).toBeGreaterThanOrEqual(2);
    for (const entry of await identifies.all()) await entry.locator('summary').click();
    await expect.poll(() => stream.getByText('"token": "[redacted]"').count()).toBe(await identifies.count());
    await stream.getByText('"intents":').first().waitFor();
    const text = await alice.locator('demo-event-stream').innerText();
    for (const secret of secrets) expect(text).not.toContain(secret);

    await alice.getByLabel('Filter events').fill('');
    await screenshots(alice, 'dev');
    const all = await alice.locator('demo-event-stream').innerText();
    for (const secret of secrets) expect(all).not.toContain(secret);
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

  it('shows the seeded ids on one line each, with a button that copies each', async () => {
    const { guild } = await world(alice);
    await navLink(alice, 'Developer tools').click();
    await alice.getByRole('link', { name: 'Fixtures and reset' }).click();
    const ids = alice.locator('demo-fixtures td code');
    await ids.first().waitFor();
    for (const size of SIZES) {
      await alice.setViewportSize(size);
      await settle(alice);
      // No id wraps mid-number: each is one line high, the table scrolls in its box instead.
      const heights = await ids.evaluateAll((codes) =>
        codes.map((c) => c.getBoundingClientRect().height / parseFloat(getComputedStyle(c).lineHeight || '16')),
      );
      expect(Math.max(...heights)).toBeLessThan(1.5);
    }
    await alice.setViewportSize(WIDE);
    await alice.getByRole('button', { name: 'Copy the id of Guild Pixel Café' }).click();
    await alice.locator('demo-fixtures').getByText('Copied').waitFor();
    expect(await alice.evaluate(() => navigator.clipboard.readText())).toBe(guild.id);
  });

  it('resets the sandbox and seeds it again, in every tab, and the other tab logs no error while it does, four times over', async () => {
    const logged: string[] = [];
    bob.on('console', (message) => message.type() === 'error' && logged.push(message.text()));
    bob.on('response', (response) => response.status() >= 400 && logged.push(`${response.status()} ${response.url()}`));
    for (let round = 1; round <= 4; round++) {
      const before = await world(alice);
      await navLink(alice, 'Developer tools').click({ timeout: 20_000 });
      await alice.getByRole('link', { name: 'Fixtures and reset' }).click();
      await alice.getByRole('button', { name: 'Reset the sandbox…' }).click();
      if (round === 1) await screenshots(alice, 'fixtures');
      await alice.getByRole('button', { name: 'Yes, reset everything' }).click();
      await expect.poll(async () => (await world(alice))?.lobby.id, { timeout: 20_000 }).not.toBe(before.lobby.id);
      for (const page of [alice, bob]) {
        await navLink(page, /^Café Lounge/).click({ timeout: 20_000 });
        await lounge(page).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 20_000 });
        expect(await lounge(page).getByText('Hi Alice, this is Bob in another tab').count()).toBe(0);
      }
    }
    expect(await bob.getByRole('combobox', { name: 'You are' }).inputValue()).toBe('bob');
    expect(logged).toEqual([]);
  });

  it('loads and works offline, with the server gone, also after the browser stopped the service worker', async () => {
    await context.setOffline(true);
    await site.server.close();
    await alice.reload();
    await alice
      .getByRole('banner')
      .getByText('Offline: the platform keeps running in this browser')
      .waitFor({ timeout: 20_000 });
    await lounge(alice).getByText('Welcome to the Café Lounge!').waitFor({ timeout: 20_000 });
    expect(await statusLine(alice).innerText()).toBe('Offline: the platform keeps running in this browser');

    await alice.getByLabel('Message Café Lounge').fill('Sent with no network at all');
    await alice.getByRole('button', { name: 'Send' }).click();
    await lounge(bob).getByText('Sent with no network at all').waitFor({ timeout: 5000 });
    await screenshots(alice, 'offline');

    // A DevTools session of its own is attached to stop the worker; Chromium then reports the
    // page online again (navigator.onLine) unless that session emulates the network as offline.
    const cdp = await context.newCDPSession(alice);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    // The DevTools session's own network emulation keeps the page offline.
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: true,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await alice.reload();
    await lounge(alice).getByText('Sent with no network at all').waitFor({ timeout: 20_000 });
    await navLink(alice, 'Game Room').waitFor();
    // The browser started the stopped worker again: the page says it runs, offline.
    await expect
      .poll(() => statusLine(alice).innerText(), { timeout: 10_000 })
      .toBe('Offline: the platform keeps running in this browser');
    await cdp.detach();
    expect(uncaught).toEqual([]);
  });
});
