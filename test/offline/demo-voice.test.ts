/**
 * Voice in the demo, in real Chromium on the built site: two tabs are two users, each with
 * Chromium's fake microphone (a beep), and the demo places its calls with the package's game
 * SDK, so the sound goes from tab to tab over WebRTC, end-to-end encrypted. Two users join the
 * Game Room and see each other in it; the speaker's ring lights on the other tab, driven by
 * their measured level, and the level that arrives shows on the other tab's meter; muting puts
 * both out, deafening too, and the others see the icons; leaving removes the user from the
 * other tab's lists. A lobby's call is joined and left from the lobby's view. In a browser that
 * refuses the microphone, joining says so in words and the rest of the demo keeps working.
 * Every wait is on a condition; levels and rings are sampled over time (the beep comes and
 * goes). Each voice view is saved as a screenshot at both sizes, light and dark.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { lounge, narrowPane, navLink, ROOT, SCREENSHOTS, screenshots, sidebarLink, WIDE, world } from './demo-page';
import { launchChromium, serveSite, type SiteServer } from './site-server';

/** The voice channel's panel of the view. */
const channelPanel = (page: Page) => page.locator('demo-channel-view demo-voice-panel');
/** The lobby's call bar of the view. */
const lobbyBar = (page: Page) => page.locator('demo-lobby-view demo-voice-panel');
/** A user's entry in a list of who is in a call, within `scope`. */
const inCall = (scope: Locator, userId: string) => scope.locator(`demo-voice-members li[data-user-id="${userId}"]`);
/** The entries under a conversation in the left column (voice channel or lobby) of `page`. */
const navMembers = (page: Page) => page.locator('demo-nav demo-voice-members');

/** Waits until the call of `scope`'s panel says it is connected. */
async function connected(scope: Locator): Promise<void> {
  await scope.getByRole('status').filter({ hasText: 'Voice connected' }).waitFor({ timeout: 30_000 });
}

/** Lets what is on its way arrive. */
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the page's own call says of its links and frames (the demo's client is `<demo-app>`'s). */
function mediaStats(page: Page): Promise<unknown> {
  return page.evaluate(async () => {
    const app = document.querySelector('demo-app') as unknown as { session: { state: any } } | null;
    const call = app?.session.state.client?.voice.call;
    return call
      ? { status: call.getStatus(), participants: call.getParticipants(), stats: await call.getMediaStats() }
      : null;
  });
}

/** Waits until `entry`'s speaking ring is lit; if it never is, fails with what both calls say of their media. */
async function ringLights(entry: Locator, pages: Page[]): Promise<void> {
  try {
    await entry.locator('xpath=self::*[@data-speaking]').waitFor({ timeout: 30_000 });
  } catch (error) {
    const stats = await Promise.all(pages.map((page) => mediaStats(page)));
    throw new Error(`The ring never lit. ${String(error)}\nMedia: ${JSON.stringify(stats)}`);
  }
}

/** Samples an entry for `ms`: whether its ring was ever lit, and the loudest level it showed (dBFS). */
async function sample(entry: Locator, ms: number): Promise<{ lit: boolean; peak: number }> {
  let lit = false;
  let peak = Number.NEGATIVE_INFINITY;
  for (const end = Date.now() + ms; Date.now() < end; ) {
    const [speaking, level] = await entry.evaluate((li) => [li.hasAttribute('data-speaking'), li.dataset.level]);
    lit ||= speaking as boolean;
    if (level) peak = Math.max(peak, Number(level));
    await settle(100);
  }
  return { lit, peak };
}

describe('voice in the demo: calls between tabs, with sound', () => {
  let site: SiteServer;
  let browser: Browser;
  let context: BrowserContext;
  let alice: Page;
  let bob: Page;
  let ids: { alice: string; bob: string };
  const uncaught: string[] = [];

  const open = async (target: BrowserContext, path: string) => {
    const page = await target.newPage();
    page.on('pageerror', (error) => uncaught.push(`${path}: ${error.message}`));
    await page.goto(path);
    return page;
  };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    site = await serveSite(ROOT, inject('offlineSiteDir'));
    browser = await launchChromium();
    context = await browser.newContext({ baseURL: site.baseURL, viewport: WIDE });
    alice = await open(context, '/');
    await lounge(alice).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 30_000 });
    bob = await open(context, '/?as=bob');
    await lounge(bob).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 30_000 });
    const { users } = await world(alice);
    ids = { alice: users[0].id, bob: users[1].id };
  });

  afterAll(async () => {
    await browser?.close();
    await site?.server.close();
  });

  it("two tabs join the Game Room and see each other in it; the speaker's ring lights on the other tab from their measured level", async () => {
    for (const page of [alice, bob]) {
      await navLink(page, 'Game Room').click();
      await channelPanel(page).getByRole('button', { name: 'Join voice' }).click();
      await connected(channelPanel(page));
    }
    for (const [page, other] of [
      [alice, ids.bob],
      [bob, ids.alice],
    ] as const) {
      await inCall(channelPanel(page), other).waitFor({ timeout: 10_000 });
      await navMembers(page).locator(`li[data-user-id="${other}"]`).waitFor({ timeout: 10_000 });
    }
    await channelPanel(alice).getByText('End-to-end encrypted').waitFor();
    // Alice's beep reaches Bob's tab: her ring lights there, and the level arriving from her shows.
    const aliceOnBob = inCall(channelPanel(bob), ids.alice);
    await ringLights(aliceOnBob, [alice, bob]);
    const heard = await sample(aliceOnBob, 3000);
    expect(heard.peak).toBeGreaterThan(-50);
    // The left column rings her too, for the call Bob is in.
    await navMembers(bob).locator(`li[data-user-id="${ids.alice}"][data-speaking]`).waitFor({ timeout: 20_000 });
    // Bob mutes himself for the screenshot: his icon shows, Alice's ring stays hers.
    await channelPanel(bob).getByRole('button', { name: 'Mute' }).click();
    await inCall(channelPanel(alice), ids.bob).locator('xpath=self::*[@data-muted]').waitFor({ timeout: 10_000 });
    await ringLights(aliceOnBob, [alice, bob]);
    await screenshots(bob, 'voice-call');
    await narrowPane(bob, 'Channels', 'voice-call-channels');
    await channelPanel(bob).getByRole('button', { name: 'Mute' }).click();
  });

  it('muting stops the ring and the level at the other tab, and shows the muted icon there; unmuting brings them back', async () => {
    const mute = channelPanel(alice).getByRole('button', { name: 'Mute' });
    await mute.click();
    expect(await mute.getAttribute('aria-pressed')).toBe('true');
    const aliceOnBob = inCall(channelPanel(bob), ids.alice);
    // Her voice state says so in Bob's tab, in the panel and in the left column.
    await aliceOnBob.locator('xpath=self::*[@data-muted]').waitFor({ timeout: 10_000 });
    await navMembers(bob).locator(`li[data-user-id="${ids.alice}"][data-muted]`).waitFor({ timeout: 10_000 });
    // Speaking is sent at most once a second, and what was said before the click is still on its
    // way (the jitter buffer): the ring goes out, then nothing more arrives.
    await expect.poll(() => aliceOnBob.getAttribute('data-speaking'), { timeout: 10_000 }).toBeNull();
    await settle(1500);
    const silent = await sample(aliceOnBob, 3000);
    expect(silent.lit).toBe(false);
    expect(silent.peak).toBeLessThan(-60);
    await mute.click();
    await expect.poll(() => aliceOnBob.getAttribute('data-muted'), { timeout: 10_000 }).toBeNull();
    await ringLights(aliceOnBob, [alice, bob]);
  });

  it('deafening shows on the other tab, mutes the microphone with it, and Mute undeafens', async () => {
    const panel = channelPanel(alice);
    await panel.getByRole('button', { name: 'Deafen' }).click();
    expect(await panel.getByRole('button', { name: 'Deafen' }).getAttribute('aria-pressed')).toBe('true');
    expect(await panel.getByRole('button', { name: 'Mute' }).getAttribute('aria-pressed')).toBe('true');
    const aliceOnBob = inCall(channelPanel(bob), ids.alice);
    await aliceOnBob.locator('xpath=self::*[@data-deafened]').waitFor({ timeout: 10_000 });
    // Nobody hears a deafened user.
    await expect.poll(() => aliceOnBob.getAttribute('data-speaking'), { timeout: 10_000 }).toBeNull();
    await settle(1500);
    expect((await sample(aliceOnBob, 2000)).lit).toBe(false);
    await panel.getByRole('button', { name: 'Mute' }).click();
    expect(await panel.getByRole('button', { name: 'Deafen' }).getAttribute('aria-pressed')).toBe('false');
    expect(await panel.getByRole('button', { name: 'Mute' }).getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => aliceOnBob.getAttribute('data-deafened'), { timeout: 10_000 }).toBeNull();
  });

  it('leaving removes the user from the voice channel in the other tab, its panel and its left column', async () => {
    await alice.locator('demo-voice-bar').getByRole('button', { name: 'Leave the call' }).click();
    await channelPanel(alice).getByRole('button', { name: 'Join voice' }).waitFor();
    await expect.poll(() => inCall(channelPanel(bob), ids.alice).count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => navMembers(bob).locator(`li[data-user-id="${ids.alice}"]`).count()).toBe(0);
    await channelPanel(bob).getByRole('button', { name: 'Leave voice' }).click();
    await expect.poll(() => inCall(channelPanel(alice), ids.bob).count(), { timeout: 10_000 }).toBe(0);
    expect(await alice.locator('demo-voice-bar section').count()).toBe(0);
  });

  it("a lobby's voice call between two tabs, joined and left from the lobby's view, with rings; one call at a time", async () => {
    // Alice is in the Game Room first: joining the lobby's call takes her out of it, as in the platform's client.
    await channelPanel(alice).getByRole('button', { name: 'Join voice' }).click();
    await connected(channelPanel(alice));
    await navMembers(bob).locator(`li[data-user-id="${ids.alice}"]`).waitFor({ timeout: 10_000 });
    for (const page of [alice, bob]) {
      await sidebarLink(page, 'Café Lounge').click();
      await lobbyBar(page).getByRole('button', { name: 'Join call' }).click();
      await connected(lobbyBar(page));
    }
    await inCall(lobbyBar(alice), ids.bob).waitFor({ timeout: 10_000 });
    const aliceOnBob = inCall(lobbyBar(bob), ids.alice);
    await aliceOnBob.waitFor({ timeout: 10_000 });
    await ringLights(aliceOnBob, [alice, bob]);
    // The left column lists who is in the lobby's call under the lobby, and Alice is no longer in the Game Room.
    const { channels, lobby } = await world(bob);
    const under = (channelId: string) =>
      bob.locator(`demo-nav demo-voice-members[channel-id="${channelId}"] li[data-user-id="${ids.alice}"]`);
    await under(lobby.id).waitFor({ timeout: 10_000 });
    await expect.poll(() => under(channels.gameRoom).count(), { timeout: 10_000 }).toBe(0);
    await screenshots(bob, 'voice-lobby-call');
    await lobbyBar(alice).getByRole('button', { name: 'Leave call' }).click();
    await expect.poll(() => aliceOnBob.count(), { timeout: 10_000 }).toBe(0);
    await lobbyBar(bob).getByRole('button', { name: 'Leave call' }).click();
    await lobbyBar(bob).getByRole('button', { name: 'Join call' }).waitFor();
    expect(uncaught).toEqual([]);
  });

  it('a microphone the browser refuses is said in words; the user joins listening only and the rest of the demo keeps working', async () => {
    const refusing = await launchChromium({ microphone: 'refused' });
    try {
      const page = await open(await refusing.newContext({ baseURL: site.baseURL, viewport: WIDE }), '/');
      await lounge(page).getByText('Sure, launch it and I will join from my tab.').waitFor({ timeout: 60_000 });
      await navLink(page, 'Game Room').click();
      await channelPanel(page).getByRole('button', { name: 'Join voice' }).click();
      const notice = channelPanel(page).getByRole('alert');
      await notice.filter({ hasText: 'The browser refused the microphone' }).waitFor({ timeout: 20_000 });
      expect(await notice.textContent()).toContain('listening only');
      await connected(channelPanel(page));
      await page.locator('demo-voice-bar').getByText('Listening only').waitFor();
      await screenshots(page, 'voice-microphone-refused');
      // The rest of the demo works on: a message in #general goes out and shows.
      await navLink(page, 'general').click();
      await page.getByLabel('Message #general').fill('Still here without a microphone');
      await page.keyboard.press('Enter');
      await page
        .getByRole('log', { name: 'Messages in #general' })
        .getByText('Still here without a microphone')
        .waitFor({ timeout: 10_000 });
      await page.locator('demo-voice-bar').getByRole('button', { name: 'Leave the call' }).click();
      expect(uncaught).toEqual([]);
    } finally {
      await refusing.close();
    }
  });
});
