/**
 * The key agreement of one participant in one end-to-end encrypted call. Every participant
 * encrypts its own frames with its own sender key and hands that key to each other
 * participant, sealed with their pairwise key (see `e2ee-keys.ts`). The messages travel
 * through the voice gateway as opaque text (E2EE_MESSAGE, op 41):
 *
 * - `hello {public_key}`: sent to the whole call on joining. Whoever is there answers with a
 *   hello of their own (`reply: true`) to the newcomer alone, then starts a new sender key
 *   and hands it to everyone, the newcomer included. A newcomer hands its first key to each
 *   participant whose answer arrives.
 * - `sender_key {key_id, iv, sealed}`: a sender key sealed for one participant.
 *
 * Keys rotate whenever someone joins (a newcomer cannot decrypt what was said before) or
 * leaves (a participant who left cannot decrypt what follows): the new key goes to the
 * participants still there, and the sender encrypts with it from then on. A receiver keeps a
 * few keys of each sender, for frames already on their way.
 *
 * Pure WebCrypto and callbacks: the call's media gives it a way to send and a place to put
 * keys (the frame transform worker); a unit test gives it functions.
 */
import { VOICE_RELAY_MESSAGE_MAX } from '../platform/core/limits';
import {
  createIdentity,
  derivePairwiseKey,
  generateSenderKey,
  importFrameKey,
  openSenderKey,
  sealSenderKey,
  verificationCode,
  type E2eeIdentity,
} from './e2ee-keys';

/** What a session does with what it agrees. */
export interface E2eeSessionHooks {
  /** Sends a message to one participant, or with `to` null to the whole call. */
  send(to: string | null, data: string): void;
  /** From now on, this user's frames are encrypted with `key`. */
  useSenderKey(key: CryptoKey, keyId: number): void;
  /** `userId`'s frames under `keyId` decrypt with `key`. */
  addReceiveKey(userId: string, key: CryptoKey, keyId: number): void;
  /** `userId` left: their keys go. */
  forgetParticipant(userId: string): void;
  /** A message that could not be used (never a key). */
  warn(message: string): void;
}

/** The E2EE protocol version these messages speak. */
export const E2EE_MESSAGE_VERSION = 1;

type Hello = { type: 'hello'; version: number; public_key: string; reply?: boolean };
type SealedKey = { type: 'sender_key'; version: number; key_id: number; iv: string; sealed: string };

interface Peer {
  publicKey: string;
  pairwise: CryptoKey;
}

function parse(data: string): Hello | SealedKey | null {
  if (typeof data !== 'string' || data.length > VOICE_RELAY_MESSAGE_MAX) return null;
  let message: any;
  try {
    message = JSON.parse(data);
  } catch {
    return null;
  }
  if (message?.version !== E2EE_MESSAGE_VERSION) return null;
  if (message.type === 'hello' && typeof message.public_key === 'string') return message;
  if (
    message.type === 'sender_key' &&
    Number.isInteger(message.key_id) &&
    message.key_id > 0 &&
    typeof message.iv === 'string' &&
    typeof message.sealed === 'string'
  )
    return message;
  return null;
}

/** One participant's key agreement in one call. */
export class E2eeSession {
  #identity: E2eeIdentity | null = null;
  readonly #peers = new Map<string, Peer>();
  #keyId = 0;
  /** The current sender key's bytes: needed to hand it to a participant whose answer comes later. */
  #raw: Uint8Array<ArrayBuffer> | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(
    readonly selfId: string,
    readonly callId: string,
    private readonly hooks: E2eeSessionHooks,
  ) {}

  /** The current sender key's number (0 before `start`). */
  get keyId(): number {
    return this.#keyId;
  }

  /** This participant's announced public key (null before `start`). */
  get publicKey(): string | null {
    return this.#identity?.publicKey ?? null;
  }

  /** The participants this one has a pairwise key with (so: who gets its sender keys). */
  participants(): string[] {
    return [...this.#peers.keys()];
  }

  /** Makes the identity and the first sender key, then says hello to the call. */
  start(): Promise<void> {
    return this.#serial(async () => {
      this.#identity = await createIdentity();
      this.hooks.useSenderKey(await this.#newSenderKey(), this.#keyId);
      this.#send(null, { type: 'hello', version: E2EE_MESSAGE_VERSION, public_key: this.#identity.publicKey });
    });
  }

  /** A message of `from` (relayed by the voice gateway). */
  receive(from: string, data: string): Promise<void> {
    return this.#serial(async () => {
      const message = parse(data);
      if (!message) return this.hooks.warn(`E2EE: an unreadable message from ${from} was ignored.`);
      if (message.type === 'hello') return this.#hello(from, message);
      const peer = this.#peers.get(from);
      if (!peer) return this.hooks.warn(`E2EE: a sender key from ${from} came before their hello; ignored.`);
      const label = { callId: this.callId, from, to: this.selfId, keyId: message.key_id };
      try {
        this.hooks.addReceiveKey(from, await openSenderKey(peer.pairwise, message, label), message.key_id);
      } catch {
        this.hooks.warn(`E2EE: the sender key ${message.key_id} of ${from} did not open; ignored.`);
      }
    });
  }

  /** `userId` left the call: their keys go, and a new sender key goes to those still here. */
  participantLeft(userId: string): Promise<void> {
    return this.#serial(async () => {
      const had = this.#peers.delete(userId);
      this.hooks.forgetParticipant(userId);
      if (had) await this.#rotate();
    });
  }

  /** The verification code of this participant and `userId` (null without their key). */
  async verificationCode(userId: string): Promise<string | null> {
    const peer = this.#peers.get(userId);
    if (!peer || !this.#identity) return null;
    return verificationCode(
      this.callId,
      { id: this.selfId, publicKey: this.#identity.publicKey },
      { id: userId, publicKey: peer.publicKey },
    );
  }

  /** Ends the session: the key bytes are wiped and nothing more is sent or received. */
  close(): void {
    this.#closed = true;
    this.#raw?.fill(0);
    this.#raw = null;
    this.#peers.clear();
  }

  async #hello(from: string, hello: Hello): Promise<void> {
    if (!this.#identity || from === this.selfId) return;
    let pairwise: CryptoKey;
    try {
      pairwise = await derivePairwiseKey(this.#identity, hello.public_key, {
        callId: this.callId,
        selfId: this.selfId,
        peerId: from,
      });
    } catch {
      return this.hooks.warn(`E2EE: the public key of ${from} is not a P-256 key; ignored.`);
    }
    this.#peers.set(from, { publicKey: hello.public_key, pairwise });
    if (hello.reply) return this.#handKey(from);
    // A newcomer: it learns this participant's key first, then everyone gets a new sender key.
    this.#send(from, {
      type: 'hello',
      version: E2EE_MESSAGE_VERSION,
      public_key: this.#identity.publicKey,
      reply: true,
    });
    await this.#rotate();
  }

  /** A new sender key: handed to everyone first, used from then on (receivers wait briefly for a key in flight). */
  async #rotate(): Promise<void> {
    const key = await this.#newSenderKey();
    for (const userId of this.#peers.keys()) await this.#handKey(userId);
    this.hooks.useSenderKey(key, this.#keyId);
  }

  async #newSenderKey(): Promise<CryptoKey> {
    this.#raw?.fill(0);
    this.#raw = generateSenderKey();
    this.#keyId += 1;
    return importFrameKey(this.#raw);
  }

  async #handKey(userId: string): Promise<void> {
    const peer = this.#peers.get(userId);
    if (!peer || !this.#raw) return;
    const label = { callId: this.callId, from: this.selfId, to: userId, keyId: this.#keyId };
    const sealed = await sealSenderKey(peer.pairwise, this.#raw, label);
    this.#send(userId, { type: 'sender_key', version: E2EE_MESSAGE_VERSION, key_id: this.#keyId, ...sealed });
  }

  #send(to: string | null, message: Hello | SealedKey): void {
    if (!this.#closed) this.hooks.send(to, JSON.stringify(message));
  }

  #serial(body: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(() => (this.#closed ? undefined : body()));
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
