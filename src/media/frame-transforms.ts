/**
 * The page's side of a call's frame transform worker: it starts the worker, attaches an
 * `RTCRtpScriptTransform` to each sender and receiver, hands the worker the keys the E2EE
 * session agrees, and asks it for its counters. One per call, ended with the call.
 */
import type {
  FrameTransformOptions,
  FrameTransformReply,
  FrameTransformRequest,
  PeerFrameStats,
} from './frame-transform-protocol';

type ScriptTransformConstructor = new (worker: Worker, options?: unknown) => unknown;

function scriptTransform(): ScriptTransformConstructor | null {
  return (globalThis as { RTCRtpScriptTransform?: ScriptTransformConstructor }).RTCRtpScriptTransform ?? null;
}

/**
 * Whether this browser can encrypt frames end to end: encoded transforms in a worker
 * (`RTCRtpScriptTransform`, Chrome 141+, Safari, Firefox) and WebCrypto.
 */
export function canEncryptFrames(): boolean {
  return scriptTransform() !== null && typeof crypto?.subtle?.encrypt === 'function';
}

/** A call's frame transform worker. */
export class FrameTransforms {
  readonly #worker: Worker;
  readonly #pending = new Map<number, (reply: FrameTransformReply) => void>();
  #nextId = 1;

  constructor() {
    this.#worker = new Worker(new URL('./frame-transform-worker.ts', import.meta.url), {
      type: 'module',
      name: 'platformpp-e2ee',
    });
    this.#worker.addEventListener('message', (event: MessageEvent<FrameTransformReply>) => {
      const answer = this.#pending.get(event.data.id);
      this.#pending.delete(event.data.id);
      answer?.(event.data);
    });
  }

  /** Encrypts what `sender` sends to `peer`. */
  attachSender(sender: RTCRtpSender, peer: string): void {
    this.#attach(sender, { direction: 'send', peer });
  }

  /** Decrypts what `receiver` gets from `peer`. */
  attachReceiver(receiver: RTCRtpReceiver, peer: string): void {
    this.#attach(receiver, { direction: 'receive', peer });
  }

  /** From now on, frames sent are encrypted with `key`. */
  useSenderKey(key: CryptoKey, keyId: number): void {
    this.#post({ type: 'sender-key', key, keyId });
  }

  /** `userId`'s frames under `keyId` decrypt with `key`. */
  addReceiveKey(userId: string, key: CryptoKey, keyId: number): void {
    this.#post({ type: 'receive-key', userId, key, keyId });
  }

  /** `userId` left: their keys go. */
  forget(userId: string): void {
    this.#post({ type: 'forget', userId });
  }

  /** Whether frames to and from `peer` are encrypted (false for a peer that cannot encrypt). */
  setMode(peer: string, e2ee: boolean): void {
    this.#post({ type: 'mode', peer, e2ee });
  }

  /** The worker's frame counters, per peer. */
  async stats(): Promise<Record<string, PeerFrameStats>> {
    const reply = await this.#ask((id) => ({ type: 'stats', id }));
    return reply.type === 'stats' ? reply.peers : {};
  }

  /** The next `count` frames from `peer` as they arrived over the network (still encrypted, if they were). */
  async capture(peer: string, count: number): Promise<ArrayBuffer[]> {
    const reply = await this.#ask((id) => ({ type: 'capture', id, peer, count }));
    return reply.type === 'captured' ? reply.frames : [];
  }

  /** How many of `frames` (as they arrived from `peer`) the keys held for `peer` decrypt. */
  async countDecryptable(peer: string, frames: ArrayBuffer[]): Promise<number> {
    const reply = await this.#ask((id) => ({ type: 'try-decrypt', id, peer, frames: frames.map((f) => f.slice(0)) }));
    return reply.type === 'decryptable' ? reply.count : 0;
  }

  /** Ends the worker: every key it held goes with it. */
  close(): void {
    this.#worker.terminate();
    for (const answer of this.#pending.values()) answer({ type: 'stats', id: 0, peers: {} });
    this.#pending.clear();
  }

  #attach(target: RTCRtpSender | RTCRtpReceiver, options: FrameTransformOptions): void {
    const Transform = scriptTransform();
    if (!Transform) throw new Error('RTCRtpScriptTransform is not available: frames cannot be encrypted here.');
    (target as { transform: unknown }).transform = new Transform(this.#worker, options);
  }

  #ask(request: (id: number) => FrameTransformRequest): Promise<FrameTransformReply> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#post(request(id));
    });
  }

  #post(message: FrameTransformRequest): void {
    this.#worker.postMessage(message);
  }
}
