// @ts-check
/**
 * The voice phase: two tabs of one browser in one lobby call, through the platform's shared
 * worker, each tab its own user with the game SDK, the fake microphone beeping twice a second.
 * Each round runs the call twice, end-to-end encrypted and without the frame transform (the same
 * call by a client made with `voice: { e2ee: false }`, before 2026-03-01 by the sandbox clock),
 * in alternating order, and measures for each:
 * - CPU: the time every process of the browser spent on the CPU (DevTools'
 *   `SystemInfo.getProcessInfo`) over a window of the call, per second of call;
 * - mouth-to-ear: from a beep's onset in the sender's measured microphone level to its onset in
 *   the level of what the receiver gets, both on the browser-wide clock of the two tabs.
 */

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** A receiver onset belongs to the last sender onset at most this long before it. */
const PAIR_WINDOW_MS = 400;

/**
 * @param {{ browser: import('playwright-core').Browser, site: string, rounds: number, seconds: number,
 *   say: (line: string) => void, openTab: (context: import('playwright-core').BrowserContext, url: string) => Promise<import('playwright-core').Page> }} o
 */
export async function voicePhase({ browser, site, rounds, seconds, say, openTab }) {
  const context = await browser.newContext();
  const cdp = await browser.newBrowserCDPSession();
  try {
    const [a, b] = [
      await openTab(context, `${site}bench/voice/tab.html?name=a`),
      await openTab(context, `${site}bench/voice/tab.html?name=b`),
    ];
    for (const tab of [a, b]) await tab.evaluate(() => /** @type {any} */ (window).voice.register());
    const world = await a.evaluate(async () => {
      const v = /** @type {any} */ (window).voice;
      // Unencrypted calls are supported only before 2026-03-01: both variants run on that day.
      await v.sandbox('PUT', '/sandbox/clock', { now: '2026-02-28T12:00:00.000Z' });
      const app = (await v.sandbox('POST', '/sandbox/applications', { name: 'Voice Bench' })).application;
      const users = [];
      for (const name of ['voice-a', 'voice-b']) {
        const user = (await v.sandbox('POST', '/sandbox/users', { username: name })).user;
        const tokens = await v.sandbox('POST', '/sandbox/tokens', {
          application_id: app.id,
          user_id: user.id,
          scopes: 'openid sdk.social_layer',
        });
        users.push({ id: user.id, token: tokens.access_token });
      }
      return { applicationId: app.id, users };
    });
    const [userA, userB] = world.users;
    /** @type {Record<'e2ee' | 'plain', { cpu: number[], mouthToEar: number[], unpaired: number }>} */
    const results = { e2ee: { cpu: [], mouthToEar: [], unpaired: 0 }, plain: { cpu: [], mouthToEar: [], unpaired: 0 } };
    for (let round = 0; round < rounds; round++) {
      const order = /** @type {const} */ (round % 2 === 0 ? ['e2ee', 'plain'] : ['plain', 'e2ee']);
      for (const variant of order) {
        const e2ee = variant === 'e2ee';
        const secret = `voice-bench-${round}-${variant}`;
        const joined = await Promise.all([
          a.evaluate((o) => /** @type {any} */ (window).voice.join(o), {
            applicationId: world.applicationId,
            userId: userA.id,
            token: userA.token,
            secret,
            e2ee,
            peerId: userB.id,
          }),
          b.evaluate((o) => /** @type {any} */ (window).voice.join(o), {
            applicationId: world.applicationId,
            userId: userB.id,
            token: userB.token,
            secret,
            e2ee,
            peerId: userA.id,
          }),
        ]);
        if (joined.some((j) => j.link !== e2ee)) throw new Error(`${variant} call: links ${JSON.stringify(joined)}`);
        await sleep(1000);
        const cpuBefore = await cpuSeconds(cdp);
        const startedAt = Date.now();
        await sleep(seconds * 1000);
        const cpu = ((await cpuSeconds(cdp)) - cpuBefore) * 1000;
        results[variant].cpu.push(cpu / ((Date.now() - startedAt) / 1000));
        const ms = seconds * 1000;
        const [sent, heard] = await Promise.all([
          a.evaluate((o) => /** @type {any} */ (window).voice.onsets(o), { userId: userA.id, ms }),
          b.evaluate((o) => /** @type {any} */ (window).voice.onsets(o), { userId: userA.id, ms }),
        ]);
        const paired = pair(sent, heard);
        results[variant].mouthToEar.push(...paired.delays);
        results[variant].unpaired += paired.unpaired;
        await Promise.all([a, b].map((tab) => tab.evaluate(() => /** @type {any} */ (window).voice.leave())));
        say(
          `voice: round ${round + 1}/${rounds} ${variant}: ${results[variant].cpu.at(-1)?.toFixed(0)} ms CPU/s, ${paired.delays.length} beeps heard (median ${median(paired.delays).toFixed(1)} ms)`,
        );
      }
    }
    await a.evaluate(() => /** @type {any} */ (window).voice.sandbox('DELETE', '/sandbox/clock'));
    return { ...results, seconds };
  } finally {
    await cdp.detach().catch(() => {});
    await context.close();
  }
}

/** The CPU time of every process of the browser, in seconds. @param {import('playwright-core').CDPSession} cdp */
async function cpuSeconds(cdp) {
  const { processInfo } = /** @type {{ processInfo: { cpuTime: number }[] }} */ (
    await cdp.send('SystemInfo.getProcessInfo')
  );
  return processInfo.reduce((sum, p) => sum + p.cpuTime, 0);
}

/**
 * Each onset heard, with the last onset sent before it (within PAIR_WINDOW_MS).
 * @param {number[]} sent @param {number[]} heard
 */
function pair(sent, heard) {
  const delays = [];
  let unpaired = 0;
  for (const at of heard) {
    const source = sent.filter((s) => s <= at && at - s <= PAIR_WINDOW_MS).at(-1);
    if (source === undefined) unpaired++;
    else delays.push(at - source);
  }
  return { delays, unpaired };
}

/** @param {number[]} xs */
function median(xs) {
  const s = [...xs].sort((x, y) => x - y);
  return s.length ? s[Math.floor(s.length / 2)] : Number.NaN;
}
