/**
 * What the demo page tests share: the seeded world as the page recorded it (in its own
 * IndexedDB database), the platform's users as its database holds them, screenshots at both
 * sizes, and locators for the shell's parts.
 */
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SCREENSHOTS = `${ROOT}test-results/screenshots`;
export const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
export const WIDE = SIZES[0];
export const NARROW = SIZES[1];

/** The seeded world, as the page records it. */
export interface World {
  users: { id: string; username: string; token: string }[];
  client: { application_id: string };
  game: { application_id: string; bot_user_id: string; bot_token: string };
  guild: { id: string };
  channels: { staff: string; gameRoom: string };
  lobby: { id: string; secret: string };
}

/** The world the page recorded after seeding (null before), read from the demo's IndexedDB database. */
export function world(page: Page): Promise<World> {
  return page.evaluate(async (): Promise<any> => {
    // Opening a database that does not exist would create it empty: look first.
    if (!(await indexedDB.databases()).some((d) => d.name === 'platformpp-demo')) return null;
    return new Promise((resolve, reject) => {
      const open = indexedDB.open('platformpp-demo');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('records')) {
          db.close();
          resolve(null);
          return;
        }
        const get = db.transaction('records').objectStore('records').get('world');
        get.onerror = () => reject(get.error);
        get.onsuccess = () => {
          db.close();
          resolve(get.result ?? null);
        };
      };
    });
  });
}

/** The usernames of every user the platform's own database holds, bots left out. */
export function platformUsernames(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('platformpp');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const all = db.transaction('users').objectStore('users').getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            db.close();
            resolve(
              (all.result as { username: string; bot: boolean }[])
                .filter((u) => !u.bot)
                .map((u) => u.username)
                .sort(),
            );
          };
        };
      }),
  );
}

/** Lets the layout settle (the columns become tabs below 760px). */
export function settle(page: Page): Promise<unknown> {
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * Saves the page at both sizes in the light theme, and in the dark one (`-dark`), then puts it
 * back to the wide size and the light theme.
 */
export async function screenshots(page: Page, view: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await settle(page);
      const suffix = scheme === 'dark' ? '-dark' : '';
      await page.screenshot({ path: `${SCREENSHOTS}/demo-${view}-${size.width}x${size.height}${suffix}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(WIDE);
}

/** Saves one pane of the narrow layout (the tab bar's "Channels" or "Members"), then goes back to the view. */
export async function narrowPane(page: Page, pane: 'Channels' | 'Members', view: string): Promise<void> {
  await page.setViewportSize(NARROW);
  const tabs = page.getByRole('navigation', { name: 'Panels' });
  await tabs.getByRole('button', { name: pane }).click();
  await settle(page);
  await page.screenshot({ path: `${SCREENSHOTS}/demo-${view}-${NARROW.width}x${NARROW.height}.png` });
  await tabs.getByRole('button').nth(1).click();
  await page.setViewportSize(WIDE);
}

/** The header's status line (`<pp-platform>`'s status in words). */
export const statusLine = (page: Page) => page.getByRole('banner').locator('p.status');
/** The page's chat log of the Café Lounge. */
export const lounge = (page: Page) => page.getByRole('log', { name: 'Messages in Café Lounge' });
/** The link to a conversation (channel, DM, lobby) in the left column whose name starts with `name`. */
export const sidebarLink = (page: Page, name: string) =>
  page.locator('demo-nav a').filter({ has: page.locator('.label', { hasText: name }) });
/** The page's member entry of a user in the right column. */
export const memberEntry = (page: Page, userId: string) => page.locator(`demo-members li[data-user-id="${userId}"]`);
/**
 * The link in the left column: by its name exactly, or followed by what it says of itself
 * (", 2 unread"), or by a pattern.
 */
export const navLink = (page: Page, name: string | RegExp) =>
  page.getByRole('navigation', { name: 'Channels and lobbies' }).getByRole('link', {
    name: typeof name === 'string' ? new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s*,.*)?$`) : name,
  });
