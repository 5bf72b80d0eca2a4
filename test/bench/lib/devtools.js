// @ts-check
/**
 * A flat Chrome DevTools protocol client over one WebSocket (a browser's `webSocketDebuggerUrl`,
 * or workerd's inspector): commands to the endpoint or, with a session id, to a target attached
 * in flatten mode (Playwright's own sessions are not flat); events handed to listeners.
 */
import WebSocket from 'ws';

/**
 * @typedef {{ method: string, params: any, sessionId?: string }} DevtoolsEvent
 * @typedef {object} Devtools
 * @property {(method: string, params?: object, sessionId?: string) => Promise<any>} send
 * @property {(listener: (event: DevtoolsEvent) => boolean | void) => void} on Calls `listener`
 *   with each event until it returns true.
 * @property {() => void} close
 */

/**
 * Opens a DevTools session over `url`.
 * @param {string} url
 * @returns {Promise<Devtools>}
 * @example const cdp = await connectDevtools(version.webSocketDebuggerUrl); await cdp.send('Target.getTargets');
 */
export async function connectDevtools(url) {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  await new Promise((done, fail) => {
    socket.once('open', done);
    socket.once('error', fail);
  });
  let nextId = 0;
  /** @type {Map<number, { done(result: any): void, fail(error: Error): void }>} */
  const waiting = new Map();
  /** @type {((event: DevtoolsEvent) => boolean | void)[]} */
  let listeners = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (message.id === undefined) {
      listeners = listeners.filter((listener) => listener(message) !== true);
      return;
    }
    const call = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) call?.fail(new Error(`${message.error.message} (${message.error.code})`));
    else call?.done(message.result);
  });
  return {
    send: (method, params = {}, sessionId = undefined) =>
      new Promise((done, fail) => {
        const id = ++nextId;
        waiting.set(id, { done, fail });
        socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      }),
    on: (listener) => void listeners.push(listener),
    close: () => socket.close(),
  };
}

/**
 * A DevTools session with the whole browser listening on `port` (`--remote-debugging-port`).
 * @param {number} port
 */
export async function connectBrowserDevtools(port) {
  const version = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
  return connectDevtools(version.webSocketDebuggerUrl);
}
