/**
 * The demo as a chat client, in real Chromium on the built site, two users in two pages:
 * messages grouped and answered, edited, pinned and deleted from their hover actions as the
 * platform allows each user; unread counts; who is typing; direct messages; who is in a voice
 * channel; a message box that never cuts what is pasted; and an address naming nobody. Each
 * view is saved as a screenshot at both sizes, light and dark.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { lounge, navLink, ROOT, SCREENSHOTS, screenshots, settle, SIZES, WIDE, world } from './demo-page';
import { launchChromium, serveSite, type SiteServer } from './site-server';

/** The #general log of a page. */
/** How long what one tab does may take to show in the other (live, over the gateway), on a loaded machine. */
const LIVE = 15_000;
const general = (page: Page) => page.getByRole('log', { name: 'Messages in #general' });
/** A message of the log by its text. */
const message = (page: Page, text: string) => general(page).locator('li[data-message-id]', { hasText: text });

describe('the demo as a chat client', () => {
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
    alice = await open('/');
    await lounge(alice).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 30_000 });
    bob = await open('/?as=bob');
    await lounge(bob).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 30_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await site?.server.close();
  });

  it('counts what another user wrote in a channel you are not looking at, and shows the "New" line when you open it', async () => {
    await navLink(bob, 'general').click();
    await general(bob).getByText('Welcome to Pixel Café!').waitFor({ timeout: LIVE });
    await bob.getByLabel('Message #general').fill('First unread one');
    await bob.keyboard.press('Enter');
    await bob.getByLabel('Message #general').fill('Second unread one');
    await bob.keyboard.press('Enter');
    const link = navLink(alice, 'general');
    await expect.poll(() => link.textContent(), { timeout: LIVE }).toContain('2 unread');
    expect(await link.getAttribute('class')).toContain('unread');
    await screenshots(alice, 'unread');
    await link.click();
    await general(alice).getByRole('separator', { name: 'New messages' }).waitFor({ timeout: LIVE });
    await expect.poll(() => link.textContent()).not.toContain('unread');
  });

  it('shows who is typing (TYPING_START), until their message arrives', async () => {
    await bob.getByLabel('Message #general').pressSequentially('Typing something');
    const typing = alice.locator('demo-chat .typing');
    await typing.getByText('Bob Okafor is typing…').waitFor({ timeout: LIVE });
    await screenshots(alice, 'typing');
    await bob.keyboard.press('Enter');
    await message(alice, 'Typing something').waitFor({ timeout: LIVE });
    await expect.poll(() => typing.innerText(), { timeout: LIVE }).toBe('');
  });

  it('groups consecutive messages of one author: one name and avatar for the run', async () => {
    const heads = await general(alice)
      .locator('li[data-message-id]')
      .evaluateAll((items) => items.map((li) => li.classList.contains('head')));
    // Bob's three messages in a row: the first heads the group, the next two continue it.
    expect(heads.slice(-3)).toEqual([true, false, false]);
  });

  it('offers on hover only what the platform allows: Alice replies, edits, pins and deletes; Bob sees each change live and no Edit or Pin on her message', async () => {
    const aliceWelcome = message(alice, 'Welcome to Pixel Café!');
    await aliceWelcome.hover();
    const tools = aliceWelcome.getByRole('toolbar', { name: 'Message actions' });
    for (const name of ['Reply', 'Pin', 'Edit', 'Delete', 'Copy message ID'])
      await tools.getByRole('button', { name }).waitFor();
    await screenshots(alice, 'message-actions');
    // Bob (no moderator): reply only on Alice's message, edit and delete on his own.
    const onBob = message(bob, 'Welcome to Pixel Café!');
    await onBob.hover();
    const bobTools = onBob.getByRole('toolbar', { name: 'Message actions' });
    await bobTools.getByRole('button', { name: 'Reply' }).waitFor();
    for (const name of ['Pin', 'Edit', 'Delete']) expect(await bobTools.getByRole('button', { name }).count()).toBe(0);

    // Reply: Bob's page shows what it answers.
    await message(alice, 'First unread one').hover();
    await message(alice, 'First unread one').getByRole('button', { name: 'Reply' }).click();
    await alice.getByText('Replying to Bob Okafor').waitFor();
    await alice.keyboard.type('Replying to your first one');
    await alice.keyboard.press('Enter');
    const reply = message(bob, 'Replying to your first one');
    await reply.locator('.reply-to').getByText('First unread one').waitFor({ timeout: LIVE });

    // Edit: "(edited)" in both pages. (While it is edited its text is in a field: find it by id.)
    const id = await message(alice, 'Replying to your first one').getAttribute('data-message-id');
    const mine = general(alice).locator(`li[data-message-id="${id}"]`);
    await mine.hover();
    await mine.getByRole('button', { name: 'Edit' }).click();
    await mine.getByLabel('Edit the message').fill('Replying to your first message');
    await mine.getByLabel('Edit the message').press('Enter');
    await message(bob, 'Replying to your first message').getByText('(edited)').waitFor({ timeout: LIVE });

    // Pin: Bob's page learns it from CHANNEL_PINS_UPDATE.
    await aliceWelcome.hover();
    await tools.getByRole('button', { name: 'Pin' }).click();
    await message(bob, 'Welcome to Pixel Café!').getByText('Pinned').waitFor({ timeout: LIVE });

    // Delete, after a confirmation: gone in both pages.
    await mine.hover();
    await mine.getByRole('button', { name: 'Delete' }).click();
    await mine.getByRole('group', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => message(bob, 'Replying to your first message').count(), { timeout: LIVE }).toBe(0);
    expect(await message(alice, 'Replying to your first message').count()).toBe(0);
  });

  it('never cuts what is pasted: over the limit it counts, says by how much, and holds the message back', async () => {
    const box = alice.getByLabel('Message #general');
    await box.fill('x'.repeat(2500));
    expect((await box.inputValue()).length).toBe(2500);
    await alice.getByText('2500 / 2000').waitFor();
    await alice.getByRole('alert').getByText('Too long by 500 characters').waitFor();
    expect(await alice.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    // One long word wraps inside the box: it never widens the page, on a phone either.
    for (const size of SIZES) {
      await alice.setViewportSize(size);
      await settle(alice);
      const [field, main] = await Promise.all([box.boundingBox(), alice.locator('main#main').boundingBox()]);
      expect(field!.x + field!.width).toBeLessThanOrEqual(main!.x + main!.width + 0.5);
      expect(await alice.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    }
    await alice.setViewportSize(WIDE);
    await screenshots(alice, 'too-long');
    await box.fill('Short again');
    expect(await alice.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
    await box.fill('');
  });

  it('clears the box as a message is sent: what is typed while it is on its way stays for the next one', async () => {
    const box = alice.getByLabel('Message #general');
    await box.fill('On its way');
    await box.press('Enter');
    expect(await box.inputValue()).toBe('');
    await box.pressSequentially('The next one');
    await message(bob, 'On its way').waitFor({ timeout: LIVE });
    await message(alice, 'On its way').waitFor({ timeout: LIVE });
    expect(await box.inputValue()).toBe('The next one');
    await box.fill('');
  });

  it('has direct messages between the seeded users: history, live delivery, and an unread count in the other tab', async () => {
    const { users } = await world(alice);
    await alice.locator(`demo-nav a[href="#/dm/${users[1].id}"]`).click();
    const dm = alice.getByRole('log', { name: 'Messages in @Bob Okafor' });
    await dm.getByText('Are you coming to the Game Room later?').waitFor({ timeout: LIVE });
    await alice.getByLabel('Message @Bob Okafor').fill('On my way to the Game Room');
    await alice.keyboard.press('Enter');
    const toAlice = bob.locator(`demo-nav a[href="#/dm/${users[0].id}"]`);
    await expect.poll(() => toAlice.textContent(), { timeout: LIVE }).toContain('1 unread');
    await toAlice.click();
    await bob.getByRole('log', { name: 'Messages in @Alice Martin' }).getByText('On my way to the Game Room').waitFor();
    await screenshots(alice, 'direct-messages');
  });

  it('lists who is in a voice channel, from the voice states the client receives, live', async () => {
    const { guild, channels, users } = await world(alice);
    const setVoice = (channelId: string | null) =>
      alice.evaluate(
        ({ guildId, userId, channelId }) =>
          fetch(`/sandbox/guilds/${guildId}/voice-states/${userId}`, {
            method: 'PUT',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ channel_id: channelId }),
          }).then((r) => r.status),
        { guildId: guild.id, userId: users[2].id, channelId },
      );
    expect(await setVoice(channels.gameRoom)).toBe(200);
    const inNav = alice.locator('demo-nav demo-voice-members li', { hasText: 'Chen' });
    await inNav.waitFor({ timeout: LIVE });
    await navLink(alice, 'Game Room').click();
    await alice.getByRole('list', { name: 'In the voice channel' }).getByText('Chen').waitFor();
    await screenshots(alice, 'voice-channel');
    // A page opened afterwards knows it from GUILD_CREATE.
    await bob.reload();
    await bob.locator('demo-nav demo-voice-members li', { hasText: 'Chen' }).waitFor({ timeout: 20_000 });
    await setVoice(null);
    await expect.poll(() => inNav.count(), { timeout: LIVE }).toBe(0);
  });

  it('says so when the address names a user the demo does not have, instead of opening as Alice', async () => {
    const nobody = await open('/?as=nobody');
    await nobody.getByRole('heading', { name: 'There is no user “nobody” in this demo' }).waitFor({ timeout: 20_000 });
    for (const name of ['Alice Martin', 'Bob Okafor', 'Chen Wei'])
      await nobody.getByRole('link', { name: new RegExp(`^${name}`) }).waitFor();
    expect(await nobody.getByRole('combobox', { name: 'You are' }).count()).toBe(0);
    await screenshots(nobody, 'unknown-user');
    await nobody.getByRole('link', { name: /^Chen Wei/ }).click();
    await lounge(nobody).getByText('Sure, launch it').waitFor({ timeout: 20_000 });
    expect(await nobody.getByRole('combobox', { name: 'You are' }).inputValue()).toBe('chen');
    await nobody.close();
    expect(uncaught).toEqual([]);
  });
});
