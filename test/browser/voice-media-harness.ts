/**
 * Helpers for voice media tests in real Chromium: users, SDK clients whose sockets go through
 * one hub, calls waited on until their links carry audio, and levels sampled over time (the
 * fake microphone beeps twice a second, so one reading says little).
 */
import { GatewaySocket } from '../../src/sockets/gateway-socket';
import { VoiceGatewaySocket } from '../../src/sockets/voice-gateway-socket';
import { type Call } from '../../src/sdk/call';
import { CallStatus } from '../../src/sdk/call-status';
import { Client } from '../../src/sdk/client';
import type { ClientOptions } from '../../src/sdk/client-core';
import { LoggingSeverity } from '../../src/sdk/logger';
import type { WebSocketLike } from '../../src/sdk/socket';
import { AuthorizationTokenType } from '../../src/sdk/types';

/** A JSON request to the platform, answered by the service worker. */
export async function api(method: string, path: string, body?: unknown, auth?: string) {
  const headers: Record<string, string> = {};
  if (auth) headers.Authorization = auth;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Waits (polling every 20 ms) until `check` holds, for up to `ms`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The highest of `read()` sampled every 20 ms for `ms`: a level in dBFS. */
export async function peakOver(read: () => number, ms = 2000): Promise<number> {
  let peak = Number.NEGATIVE_INFINITY;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    peak = Math.max(peak, read());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return peak;
}

/** A level the fake microphone's beep clears at the receiver, and silence stays under. */
export const HEARD_DB = -40;
export const SILENT_DB = -75;

let hubCounter = 0;

/** A world of users and one application, each test with a hub (shared worker) of its own. */
export async function createVoiceWorld(names: string[]) {
  const users: Record<string, { id: string }> = {};
  for (const name of names) users[name] = (await api('POST', '/sandbox/users', { username: name })).body.user;
  const application = (await api('POST', '/sandbox/applications', { name: 'Voice Arena' })).body.application;
  const hubName = `platformpp-hub-voice-media-${Date.now()}-${++hubCounter}`;
  const clients: Client[] = [];
  const auths: Record<string, string> = {};

  /**
   * A Ready SDK client of `name`; `wrapVoice` may stand between its calls and the voice gateway
   * (as a relay that tampers with what it carries would).
   */
  async function client(
    name: string,
    options: Partial<ClientOptions> & { wrapVoice?: (socket: WebSocketLike) => WebSocketLike } = {},
  ): Promise<Client> {
    const tokens = (
      await api('POST', '/sandbox/tokens', {
        application_id: application.id,
        user_id: users[name].id,
        scopes: 'openid sdk.social_layer',
      })
    ).body;
    auths[name] = `Bearer ${tokens.access_token}`;
    const { wrapVoice, ...rest } = options;
    const created = new Client({
      applicationId: application.id,
      userId: users[name].id,
      socketFactory: (url) => new GatewaySocket(url, undefined, { hubName }),
      voiceSocketFactory: (url) => {
        const socket = new VoiceGatewaySocket(url, undefined, { hubName });
        return wrapVoice ? wrapVoice(socket) : socket;
      },
      ...rest,
    });
    clients.push(created);
    // What went wrong in a call shows next to the failing test.
    created.addLogCallback((line) => console.warn(`${name}: ${line}`), LoggingSeverity.Warning);
    await created.updateToken(AuthorizationTokenType.Bearer, tokens.access_token);
    await created.connect();
    return created;
  }

  /** Ends every client. */
  async function close(): Promise<void> {
    await Promise.all(clients.splice(0).map((c) => c.destroy()));
  }

  /** The Authorization header of `name`'s client. */
  const auth = (name: string) => auths[name];

  return { users, application, hubName, client, close, auth };
}

/** Waits until `call` is Connected. */
export function connected(call: Call, what: string): Promise<void> {
  return waitFor(() => call.getStatus() === CallStatus.Connected, `${what} Connected`);
}

/** Waits until `listener` decrypts (or, unencrypted, receives) frames from `speaker`. */
export async function framesFlow(listener: Call, speaker: string, what: string): Promise<void> {
  let last: unknown = null;
  await waitFor(async () => {
    const stats = await listener.getMediaStats();
    last = stats;
    const peer = stats?.peers[speaker];
    return !!peer && peer.framesDecrypted + peer.framesReceivedPlain > 25;
  }, what).catch((error: Error) => {
    throw new Error(`${error.message}; the listener's media: ${JSON.stringify(last)}`);
  });
}
