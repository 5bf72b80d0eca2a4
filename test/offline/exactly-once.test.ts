/**
 * Exactly once under worker stops: four pages post 500 lobby messages each while the service
 * worker is stopped every 100-300 ms (the DevTools protocol's ServiceWorker.stopAllWorkers). The
 * browser dispatches a request the stopped worker had not answered again to the next start of
 * the worker; none may be stored twice, and every acknowledged one must be there. The figures
 * are merged into test-results/reliability.json and printed (`test/reliability-figures.ts`).
 */
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, serveSite, type SiteServer } from './site-server';
import { recordReliability } from '../reliability-figures';

const PAGES = 4;
const PER_PAGE = 500;
/** Requests a page keeps in flight, as a busy client would. */
const IN_FLIGHT = 8;
const MIN_STOPS = 40;
/**
 * How long a page waits for one answer. Should a request caught by a stop get neither an answer
 * nor a network error, the page gives up on it as a client would: it counts as unanswered
 * (`status` -1), which is no acknowledgement, and the run goes on instead of hanging.
 */
const ANSWER_WITHIN_MS = 30_000;

/** A page controlled by the service worker, on a platform path so no demo page runs in it. */
async function controlledPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/sandbox/clock');
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
    await page.goto('/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.goto('/sandbox/clock');
  }
  return page;
}

/** What one page got for each of its posts: the status and, for a 200, the message id. */
type Outcome = { content: string; status: number; id: string | null };

function postAll(page: Page, lobbyId: string, auth: string, label: string): Promise<Outcome[]> {
  return page.evaluate(
    async ({ lobbyId, auth, label, count, inFlight, answerWithin }) => {
      const outcomes: Outcome[] = [];
      let next = 0;
      const flags = globalThis as { enoughStops?: boolean };
      // At least `count` each, and on until the worker was stopped often enough.
      const worker = async () => {
        while (next < count || !flags.enoughStops) {
          const content = `${label} ${next++}`;
          try {
            const response = await fetch(`/api/v10/lobbies/${lobbyId}/messages`, {
              method: 'POST',
              headers: { Authorization: auth, 'Content-Type': 'application/json' },
              body: JSON.stringify({ content }),
              signal: AbortSignal.timeout(answerWithin),
            });
            const body = await response.json().catch(() => null);
            outcomes.push({ content, status: response.status, id: response.status === 201 ? body.id : null });
            (globalThis as { answered?: number }).answered = ((globalThis as { answered?: number }).answered ?? 0) + 1;
          } catch (error) {
            const unanswered = error instanceof DOMException && error.name === 'TimeoutError';
            outcomes.push({ content, status: unanswered ? -1 : 0, id: null });
          }
        }
      };
      await Promise.all(Array.from({ length: inFlight }, worker));
      return outcomes;
    },
    { lobbyId, auth, label, count: PER_PAGE, inFlight: IN_FLIGHT, answerWithin: ANSWER_WITHIN_MS },
  );
}

/** Every stored message of the lobby (content and id), read from IndexedDB in the page. */
function storedMessages(page: Page, lobbyId: string): Promise<Array<{ id: string; content: string }>> {
  return page.evaluate(
    (lobbyId) =>
      new Promise<Array<{ id: string; content: string }>>((resolve, reject) => {
        const open = indexedDB.open('platformpp');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result
            .transaction('lobby_messages')
            .objectStore('lobby_messages')
            .getAll(IDBKeyRange.bound([lobbyId, ''], [lobbyId, '\uffff']));
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            open.result.close();
            resolve(request.result.map((m: { id: string; content: string }) => ({ id: m.id, content: m.content })));
          };
        };
      }),
    lobbyId,
  );
}

describe('exactly once under service worker stops: a request the browser dispatches again is not applied twice', () => {
  let site: SiteServer;
  let browser: Browser;

  beforeAll(async () => {
    site = await serveSite(fileURLToPath(new URL('../..', import.meta.url)), inject('offlineSiteDir'));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.server.close();
  });

  it(`${PAGES} pages post at least ${PER_PAGE} messages each while the worker is stopped at least ${MIN_STOPS} times: 0 duplicates, 0 acknowledged lost`, async () => {
    const context = await browser.newContext({ baseURL: site.baseURL });
    const pages = await Promise.all(Array.from({ length: PAGES }, () => controlledPage(context)));
    const world = await pages[0].evaluate(async (count) => {
      const send = async (method: string, path: string, body?: unknown, auth?: string) =>
        (
          await fetch(path, {
            method,
            headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: auth } : {}) },
            body: body === undefined ? undefined : JSON.stringify(body),
          })
        ).json();
      const app = await send('POST', '/sandbox/applications', { name: 'Once' });
      const auths: string[] = [];
      let lobbyId = '';
      for (let i = 0; i < count; i++) {
        const user = (await send('POST', '/sandbox/users', { username: `once_${i}` })).user;
        const token = await send('POST', '/sandbox/tokens', {
          application_id: app.application.id,
          user_id: user.id,
          scopes: 'openid sdk.social_layer',
        });
        const auth = `Bearer ${token.access_token}`;
        auths.push(auth);
        lobbyId = (await send('PUT', '/api/v10/lobbies', { secret: 'once', idle_timeout_seconds: 604800 }, auth)).id;
      }
      return { lobbyId, auths };
    }, PAGES);

    const cdp = await context.newCDPSession(pages[0]);
    await cdp.send('ServiceWorker.enable');
    let posting = true;
    let stops = 0;
    // Each stop falls on a worker that is answering: after one, wait until a page had an answer again.
    const answered = () => pages[0].evaluate(() => (globalThis as { answered?: number }).answered ?? 0);
    const stopping = (async () => {
      while (posting) {
        const before = await answered();
        while (posting && (await answered()) === before) await new Promise((resolve) => setTimeout(resolve, 20));
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
        if (!posting) break;
        await cdp.send('ServiceWorker.stopAllWorkers');
        if (++stops === MIN_STOPS)
          await Promise.all(
            pages.map((page) =>
              page.evaluate(() => {
                (globalThis as { enoughStops?: boolean }).enoughStops = true;
              }),
            ),
          );
      }
    })();
    const outcomes = (
      await Promise.all(pages.map((page, i) => postAll(page, world.lobbyId, world.auths[i], `page${i}`)))
    ).flat();
    posting = false;
    await stopping;

    const stored = await storedMessages(pages[0], world.lobbyId);
    const copies = new Map<string, number>();
    for (const message of stored) copies.set(message.content, (copies.get(message.content) ?? 0) + 1);
    const storedIds = new Set(stored.map((m) => m.id));
    const duplicated = [...copies.values()].filter((n) => n > 1).length;
    const acknowledged = outcomes.filter((o) => o.status === 201);
    const lost = acknowledged.filter((o) => !storedIds.has(o.id!)).length;
    const byStatus: Record<string, number> = {};
    for (const o of outcomes) byStatus[o.status] = (byStatus[o.status] ?? 0) + 1;
    const figures = {
      stops,
      writes: outcomes.length,
      stored: stored.length,
      acknowledged: acknowledged.length,
      lost,
      duplicated,
      by_status: byStatus,
    };
    await recordReliability('exactly_once', figures);

    expect(stops).toBeGreaterThanOrEqual(MIN_STOPS);
    expect(outcomes.length).toBeGreaterThanOrEqual(PAGES * PER_PAGE);
    expect(duplicated, 'messages stored twice').toBe(0);
    expect(lost, 'acknowledged messages missing').toBe(0);
    // A 409 says the request was applied although its first answer was lost: it is stored once.
    for (const o of outcomes.filter((x) => x.status === 409)) expect(copies.get(o.content)).toBe(1);
    await context.close();
  }, 600_000);
});
