import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CallMedia } from '../../src/media/call-media';
import {
  createIdentity,
  derivePairwiseKey,
  generateSenderKey,
  sealSenderKey,
  type E2eeIdentity,
} from '../../src/media/e2ee-keys';
import { readFrameHeader } from '../../src/media/frame-cipher';
import type { WebSocketLike } from '../../src/sdk/socket';
import { registerPlatformWorker, resetSandbox } from './harness';
import { createVoiceWorld, framesFlow, HEARD_DB, peakOver, SILENT_DB, waitFor } from './voice-media-harness';

/**
 * A voice gateway relay that lies to one participant about another (`victim` about `target`):
 * it swaps the target's announced public key for its own, and every sender key of the target
 * for one it made, sealed so that the victim opens it. What the end-to-end encryption must
 * withstand: the victim ends up with a wrong key and decrypts nothing of the target.
 */
class TamperingRelay implements WebSocketLike {
  #victimKey: string | null = null;
  #forged: E2eeIdentity | null = null;
  #queue: Promise<void> = Promise.resolve();
  readonly #listeners: { type: string; listener: (event: any) => void }[] = [];

  constructor(
    private readonly socket: WebSocketLike,
    private readonly call: { callId: string; target: string; victim: string },
  ) {
    socket.addEventListener('message', (event) => {
      this.#queue = this.#queue.then(async () => this.#emit('message', { data: await this.#tamper(event.data) }));
    });
    for (const type of ['open', 'close', 'error'] as const)
      socket.addEventListener(type, (event) => {
        this.#queue = this.#queue.then(() => this.#emit(type, event));
      });
  }

  get readyState(): number {
    return this.socket.readyState;
  }
  send(data: string): void {
    const payload = JSON.parse(data);
    if (payload.op === 41) {
      const message = JSON.parse(payload.d.data);
      if (message.type === 'hello') this.#victimKey = message.public_key;
    }
    this.socket.send(data);
  }
  close(code?: number, reason?: string): void {
    this.socket.close(code, reason);
  }
  addEventListener(type: string, listener: (event: any) => void): void {
    this.#listeners.push({ type, listener });
  }

  #emit(type: string, event: unknown): void {
    for (const entry of this.#listeners) if (entry.type === type) entry.listener(event);
  }

  async #tamper(data: string): Promise<string> {
    const payload = JSON.parse(data);
    if (payload.op !== 41 || payload.d.user_id !== this.call.target) return data;
    const message = JSON.parse(payload.d.data);
    this.#forged ??= await createIdentity();
    if (message.type === 'hello') message.public_key = this.#forged.publicKey;
    if (message.type === 'sender_key' && this.#victimKey) {
      const pairwise = await derivePairwiseKey(this.#forged, this.#victimKey, {
        callId: this.call.callId,
        selfId: this.call.target,
        peerId: this.call.victim,
      });
      const label = { callId: this.call.callId, from: this.call.target, to: this.call.victim, keyId: message.key_id };
      Object.assign(message, await sealSenderKey(pairwise, generateSenderKey(), label));
    }
    return JSON.stringify({ ...payload, d: { ...payload.d, data: JSON.stringify(message) } });
  }
}

/** Media whose `close` keeps its keys: a participant that leaves but holds on to everything it had. */
class KeepingMedia extends CallMedia {
  override async close(): Promise<void> {}
  forget(): Promise<void> {
    return super.close();
  }
}

let world: Awaited<ReturnType<typeof createVoiceWorld>> | null = null;
const kept: KeepingMedia[] = [];

describe('end-to-end encryption of calls: only the participants hold the keys, and keys rotate', {
  timeout: 60_000,
}, () => {
  beforeAll(async () => {
    await registerPlatformWorker();
  });
  beforeEach(resetSandbox);
  afterEach(async () => {
    await world?.close();
    world = null;
    await Promise.all(kept.splice(0).map((media) => media.forget()));
  });

  it('a third participant handed a wrong key by the relay decrypts 0 frames and hears silence; the verification codes disagree', async () => {
    world = await createVoiceWorld(['alice', 'bob', 'chen']);
    const { users } = world;
    const alice = await world.client('alice');
    const bob = await world.client('bob');
    const lobby = await alice.createOrJoinLobby('mitm');
    await bob.createOrJoinLobby('mitm');
    const chen = await world.client('chen', {
      wrapVoice: (socket) =>
        new TamperingRelay(socket, { callId: lobby.id, target: users.alice.id, victim: users.chen.id }),
    });
    await chen.createOrJoinLobby('mitm');
    const aliceCall = alice.startCall(lobby.id);
    const bobCall = bob.startCall(lobby.id);
    await framesFlow(bobCall, users.alice.id, 'bob to decrypt alice');
    const chenCall = chen.startCall(lobby.id);
    await waitFor(async () => {
      const peer = (await chenCall.getMediaStats())?.peers[users.alice.id];
      return !!peer && peer.framesUndecryptable > 50;
    }, 'alice frames arriving at chen');

    const atChen = (await chenCall.getMediaStats())!.peers[users.alice.id];
    expect(atChen.framesDecrypted).toBe(0);
    expect(await peakOver(() => chenCall.getAudioLevel(users.alice.id), 1500)).toBeLessThan(SILENT_DB);
    // The honest participants are not affected.
    expect(await peakOver(() => bobCall.getAudioLevel(users.alice.id), 1500)).toBeGreaterThan(HEARD_DB);
    await framesFlow(chenCall, users.bob.id, 'chen to decrypt bob');

    const aliceBob = await aliceCall.getVerificationCode(users.bob.id);
    expect(aliceBob).toMatch(/^\d{5}( \d{5}){5}$/);
    expect(await bobCall.getVerificationCode(users.alice.id)).toBe(aliceBob);
    const chenAlice = await chenCall.getVerificationCode(users.alice.id);
    expect(chenAlice).not.toBeNull();
    expect(chenAlice).not.toBe(await aliceCall.getVerificationCode(users.chen.id));
  });

  it('after a participant leaves, the keys rotate: the leaver, keeping every key it had, decrypts none of what follows', async () => {
    world = await createVoiceWorld(['alice', 'bob', 'chen']);
    const { users } = world;
    const alice = await world.client('alice');
    const bob = await world.client('bob', {
      voice: {
        mediaFactory: async (options) => {
          const media = new KeepingMedia(options);
          kept.push(media);
          return media;
        },
      },
    });
    const chen = await world.client('chen');
    const lobby = await alice.createOrJoinLobby('rotation');
    await bob.createOrJoinLobby('rotation');
    await chen.createOrJoinLobby('rotation');
    const aliceCall = alice.startCall(lobby.id);
    const bobCall = bob.startCall(lobby.id);
    const chenCall = chen.startCall(lobby.id);
    await framesFlow(bobCall, users.alice.id, 'bob to decrypt alice');
    await framesFlow(chenCall, users.alice.id, 'chen to decrypt alice');
    await waitFor(() => kept.length === 1, "bob's media");
    const [leaver] = kept;
    // The joins are over: both listeners decrypt alice under the key she uses now.
    await waitFor(async () => {
      const keyId = (await aliceCall.getMediaStats())!.keyId;
      const listeners = await Promise.all([bobCall, chenCall].map((call) => call.getMediaStats()));
      return listeners.every((stats) => stats!.peers[users.alice.id].lastKeyId === keyId);
    }, 'the keys to settle');

    const before = (await chenCall.captureReceivedFrames(users.alice.id, 10))!;
    expect(await leaver.countDecryptable(users.alice.id, before)).toBe(10);
    const keyBefore = (await aliceCall.getMediaStats())!.keyId;

    await bob.endCall(lobby.id);
    await waitFor(() => !aliceCall.getParticipants().includes(users.bob.id), 'alice to see bob leave');
    await waitFor(async () => (await aliceCall.getMediaStats())!.keyId > keyBefore, "alice's key to rotate");
    const keyAfter = (await aliceCall.getMediaStats())!.keyId;
    await waitFor(
      async () => (await chenCall.getMediaStats())!.peers[users.alice.id].lastKeyId === keyAfter,
      'chen to decrypt under the new key',
    );

    const after = (await chenCall.captureReceivedFrames(users.alice.id, 10))!;
    expect(after.map((frame) => readFrameHeader(new Uint8Array(frame))?.keyId)).toEqual(Array(10).fill(keyAfter));
    expect(await leaver.countDecryptable(users.alice.id, after)).toBe(0);
    // Chen, still in the call, has the new key.
    const stillThere = (await chenCall.getMediaStats())!.peers[users.alice.id];
    expect(stillThere.framesUndecryptable).toBe(0);
  });

  it('a join rotates the keys too: the newcomer decrypts none of the frames sent before it came', async () => {
    world = await createVoiceWorld(['alice', 'bob', 'chen']);
    const { users } = world;
    const alice = await world.client('alice');
    const bob = await world.client('bob');
    const chen = await world.client('chen', {
      voice: {
        mediaFactory: async (options) => {
          const media = new KeepingMedia(options);
          kept.push(media);
          return media;
        },
      },
    });
    const lobby = await alice.createOrJoinLobby('backward');
    await bob.createOrJoinLobby('backward');
    await chen.createOrJoinLobby('backward');
    const aliceCall = alice.startCall(lobby.id);
    const bobCall = bob.startCall(lobby.id);
    await framesFlow(bobCall, users.alice.id, 'bob to decrypt alice');
    const earlier = (await bobCall.captureReceivedFrames(users.alice.id, 10))!;
    const keyBefore = (await aliceCall.getMediaStats())!.keyId;

    const chenCall = chen.startCall(lobby.id);
    await framesFlow(chenCall, users.alice.id, 'chen to decrypt alice');
    expect((await aliceCall.getMediaStats())!.keyId).toBeGreaterThan(keyBefore);
    expect(await kept[0].countDecryptable(users.alice.id, earlier)).toBe(0);
    const now = (await chenCall.captureReceivedFrames(users.alice.id, 10))!;
    expect(await kept[0].countDecryptable(users.alice.id, now)).toBe(10);
  });
});
