// @ts-check
/**
 * How the driver page talks to what it measures: frames it embeds (postMessage, one reply per
 * command) and tabs of the same origin (a BroadcastChannel out, another one back). Nothing here
 * runs while a figure is being timed, except the acknowledgements the fan-out counts on.
 */

/** Driver → tabs: `{to: [tab names], cmd, key, ...}`. */
export const CONTROL_CHANNEL = 'bench-ctl';
/** Tabs → driver: `{tab, key, ...}`. */
export const ACK_CHANNEL = 'bench-ack';
/** Driver → tabs: the floor of the fan-out, one message that every tab acknowledges. */
export const FLOOR_FANOUT_CHANNEL = 'bench-floor-fanout';
/** Floor service worker → floor hub (`floor-hub.js`): a message was stored. */
export const FLOOR_GATEWAY_CHANNEL = 'bench-floor-gateway';
/** Where the floor hub is served. */
export const FLOOR_HUB = '/bench/floor/floor-hub.js';

/** @param {number} ms */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let nextId = 0;
/** @type {Map<number, (data: any) => void>} */
const replies = new Map();
addEventListener('message', (event) => {
  if (event.data?.bench !== 'reply') return;
  replies.get(event.data.id)?.(event.data);
  replies.delete(event.data.id);
});

/**
 * @typedef {{ name: string, call(cmd: string, args?: Record<string, unknown>): Promise<any> }} BenchFrame
 */

/**
 * Embeds `src` (a page running `runner.js`) and resolves once its runner is listening.
 * @param {string} name @param {string} src
 * @returns {Promise<BenchFrame>}
 */
export function embedFrame(name, src) {
  const iframe = document.createElement('iframe');
  // A frame of another origin (the node:http peer) is cross-origin isolated only if allowed.
  iframe.allow = 'cross-origin-isolated';
  iframe.src = src;
  iframe.title = name;
  const loaded = new Promise((resolve) => {
    /** @param {MessageEvent} event */
    const onLoaded = (event) => {
      if (event.data?.bench !== 'loaded' || event.source !== iframe.contentWindow) return;
      removeEventListener('message', onLoaded);
      resolve(undefined);
    };
    addEventListener('message', onLoaded);
  });
  document.body.append(iframe);
  return loaded.then(() => ({
    name,
    call(cmd, args = {}) {
      const id = ++nextId;
      return new Promise((resolve, reject) => {
        replies.set(id, (data) => (data.error ? reject(new Error(`${name}: ${data.error}`)) : resolve(data)));
        /** @type {Window} */ (iframe.contentWindow).postMessage({ bench: 'run', id, cmd, ...args }, '*');
      });
    },
  }));
}

const control = new BroadcastChannel(CONTROL_CHANNEL);
const acks = new BroadcastChannel(ACK_CHANNEL);
/** @type {{ key: string, waiting: Set<string>, results: Map<string, any>, resolve(results: Map<string, any>): void } | null} */
let collecting = null;
acks.addEventListener('message', (event) => {
  const current = collecting;
  if (!current || event.data?.key !== current.key || !current.waiting.has(event.data.tab)) return;
  current.waiting.delete(event.data.tab);
  current.results.set(event.data.tab, event.data);
  if (current.waiting.size === 0) {
    collecting = null;
    current.resolve(current.results);
  }
});

/**
 * Sends a command to tabs.
 * @param {string[]} to @param {string} cmd @param {string} key @param {Record<string, unknown>} [args]
 */
export function tell(to, cmd, key, args = {}) {
  control.postMessage({ to, cmd, key, ...args });
}

/**
 * Resolves with each tab's acknowledgement of `key` once all of `tabs` have sent it. Start
 * waiting before the tabs can answer.
 * @param {string[]} tabs @param {string} key @param {number} [timeoutMs]
 * @returns {Promise<Map<string, any>>}
 */
export function acknowledged(tabs, key, timeoutMs = 120_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      collecting = null;
      reject(new Error(`no acknowledgement of ${key} from ${[...current.waiting].join(', ')} within ${timeoutMs} ms`));
    }, timeoutMs);
    const current = {
      key,
      waiting: new Set(tabs),
      results: new Map(),
      /** @param {Map<string, any>} results */
      resolve(results) {
        clearTimeout(timer);
        resolve(results);
      },
    };
    collecting = current;
  });
}
