// @ts-check
/**
 * A voice bench tab (`voice/tab.html?name=a`): one user's game SDK `Client` in one lobby call,
 * driven by the bench runner through `window.voice`. It registers the platform's worker itself
 * (the tabs are under its scope), joins and leaves calls with or without end-to-end encryption,
 * and records the onsets of the fake microphone's beeps in a participant's measured level, on
 * the clock every tab of the browser shares (`performance.timeOrigin + performance.now()`).
 */
import { CallStatus } from '../../../../src/sdk/call-status';
import { Client } from '../../../../src/sdk/client';
import { AuthorizationTokenType } from '../../../../src/sdk/types';

/** A beep has begun when the level rises over ONSET_DB after at least QUIET_MS under QUIET_DB. */
const ONSET_DB = -35;
const QUIET_DB = -55;
const QUIET_MS = 150;

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @type {Client | null} */
let client = null;
/** @type {import('../../../../src/sdk/call').Call | null} */
let call = null;

async function register() {
  const container = navigator.serviceWorker;
  const registration = await container.register('/sw.js', { type: 'classic', scope: '/' });
  if (!container.controller) {
    const changed = new Promise((resolve) => container.addEventListener('controllerchange', resolve, { once: true }));
    (registration.active ?? (await container.ready).active)?.postMessage({ type: 'claim' });
    await changed;
  }
}

/**
 * @param {string} method @param {string} path @param {unknown} [body]
 * @returns {Promise<any>}
 */
async function sandbox(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/**
 * Signs in and joins the lobby `secret`'s call, encrypting or not; resolves once audio from
 * `peerId` arrives.
 * @param {{ applicationId: string, userId: string, token: string, secret: string, e2ee: boolean, peerId: string }} o
 */
async function join(o) {
  await leave();
  client = new Client({ applicationId: o.applicationId, userId: o.userId, voice: { e2ee: o.e2ee } });
  await client.updateToken(AuthorizationTokenType.Bearer, o.token);
  await client.connect();
  const lobby = await client.createOrJoinLobby(o.secret);
  call = client.startCall(lobby.id);
  const joined = call;
  for (let i = 0; i < 1500; i++) {
    const peer = (await joined.getMediaStats())?.peers[o.peerId];
    if (joined.getStatus() === CallStatus.Connected && peer && peer.packetsReceived > 50)
      return { e2ee: joined.isEndToEndEncrypted(), link: peer.e2ee };
    await sleep(20);
  }
  throw new Error(`no frames from ${o.peerId}`);
}

async function leave() {
  await client?.destroy();
  client = null;
  call = null;
}

/**
 * The onsets of beeps in `userId`'s level (this tab's own microphone, or what arrives from
 * another participant) during `ms`, in ms on the browser-wide clock.
 * @param {{ userId: string, ms: number }} o
 */
async function onsets({ userId, ms }) {
  const found = [];
  let quietFrom = Number.NaN;
  let armed = false;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const now = performance.now();
    const level = /** @type {NonNullable<typeof call>} */ (call).getAudioLevel(userId);
    if (level < QUIET_DB) {
      if (Number.isNaN(quietFrom)) quietFrom = now;
      if (now - quietFrom >= QUIET_MS) armed = true;
    } else {
      quietFrom = Number.NaN;
      if (armed && level > ONSET_DB) {
        found.push(performance.timeOrigin + now);
        armed = false;
      }
    }
    await sleep(1);
  }
  return found;
}

/** @type {any} */ (window).voice = { register, sandbox, join, leave, onsets };
document.documentElement.dataset.ready = 'true';
