// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxClient } from '../../../src/components/sandbox-client';
import { ErrorType, SdkError } from '../../../src/sdk/errors';
import type { LobbyMessage } from '../../../src/sdk/types';
import { BASE_URL, createSdkHarness, type SdkHarness } from './sdk-harness';

let h: SdkHarness;
afterEach(async () => {
  await h?.close();
});

/** Alice and bob, friends, both Ready; bob records the messages he hears; `sandbox` is the package's helper. */
async function friends() {
  h = await createSdkHarness();
  const aliceId = h.world.alice.id as string;
  const bobId = h.world.bob.id as string;
  await h.api.put(`/sandbox/users/${aliceId}/relationships/${bobId}`, { type: 1 });
  const alice = (await h.readyClient(h.world.alice)).client;
  const bob = (await h.readyClient(h.world.bob)).client;
  const heard: LobbyMessage[] = [];
  bob.setMessageCreatedCallback((_id, m) => heard.push(m));
  const sandbox = new SandboxClient(BASE_URL, (request) => h.fetch(request));
  return { alice, bob, heard, aliceId, bobId, sandbox };
}

/** Whether a socket received READY after its second Identify. */
function heardReady(socket: { received: any[] }): boolean {
  return socket.received.filter((p) => p.t === 'READY').length >= 2;
}

async function rejection(promise: Promise<unknown>): Promise<SdkError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SdkError);
  return error as SdkError;
}

describe('the game SDK Client meets faults on demand (SandboxClient.injectFault)', () => {
  it("a 429 reaches the caller as a retryable error with the platform's retry_after; the retry is sent once", async () => {
    const { alice, bobId, sandbox } = await friends();
    const fault = await sandbox.injectFault({
      type: 'http_error',
      status: 429,
      method: 'POST',
      path: '/api/v10/users/@me/dms/*/messages',
      retry_after: 0.75,
    });
    expect(fault).toMatchObject({ type: 'http_error', remaining: 1 });
    const error = await rejection(alice.sendUserMessage(bobId, 'once'));
    expect(error).toMatchObject({ type: ErrorType.HTTPError, status: 429, retryable: true, retryAfter: 0.75 });
    await alice.sendUserMessage(bobId, 'once');
    expect((await alice.getUserMessagesWithLimit(bobId, 10)).map((m) => m.content)).toEqual(['once']);
  });

  it('a 502 reaches the caller as a retryable HTTP error, and nothing was stored', async () => {
    const { alice, bobId, sandbox } = await friends();
    await sandbox.injectFault({ type: 'http_error', status: 502, path: '/api/v10/users/@me/dms/*/messages' });
    expect(await rejection(alice.sendUserMessage(bobId, 'lost'))).toMatchObject({ status: 502, retryable: true });
    expect(await alice.getUserMessagesWithLimit(bobId, 10)).toEqual([]);
    expect((await sandbox.listFaults()).pending).toEqual([]);
  });

  it('RECONNECT: the client resumes and hears the message sent meanwhile', async () => {
    const { alice, bob, heard, bobId, sandbox } = await friends();
    const opened = h.sockets.length;
    await sandbox.injectFault({ type: 'reconnect', user_id: bobId });
    await alice.sendUserMessage(bobId, 'while you were away');
    await h.until(() => heard.some((m) => m.content === 'while you were away'), 'the message at bob');
    expect(h.sockets.length).toBe(opened + 1);
    expect(h.sockets.at(-1)!.sent.some((p) => p.op === 6)).toBe(true);
    expect(bob).toBeDefined();
  });

  it('INVALID_SESSION not resumable: the client identifies again and hears what follows', async () => {
    const { alice, heard, bobId, sandbox } = await friends();
    await sandbox.injectFault({ type: 'invalid_session', resumable: false, user_id: bobId });
    // Identify again on the same socket (the gateway keeps it open after op 9), then READY.
    const identifiedTwice = () => h.sockets.find((s) => s.sent.filter((p) => p.op === 2).length === 2);
    await h.until(() => identifiedTwice() !== undefined, 'a second Identify');
    await h.until(() => heardReady(identifiedTwice()!), 'the new READY');
    await alice.sendUserMessage(bobId, 'after identify');
    await h.until(() => heard.some((m) => m.content === 'after identify'), 'the message at bob');
  });
});
