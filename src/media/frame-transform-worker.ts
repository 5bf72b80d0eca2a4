/**
 * The frame transform worker of one call: a dedicated worker of the page (never the shared
 * worker or the service worker) in which `RTCRtpScriptTransform` hands it every encoded audio
 * frame. To a peer that encrypts, each sent frame is encrypted with this participant's current
 * sender key (see `frame-cipher.ts`); each frame received from it is decrypted with the key its
 * trailer names, or dropped. Keys arrive from the page as non-extractable `CryptoKey`s.
 *
 * It fails closed: a peer is taken to encrypt until the page says otherwise, a frame is never
 * sent unencrypted to such a peer (none leaves before the first sender key), and a plain or
 * undecryptable frame from it is dropped, never played.
 */
import { VOICE_E2EE_RECEIVE_KEYS_KEPT } from '../platform/core/limits';
import { decryptFrame, encryptFrame, readFrameHeader } from './frame-cipher';
import {
  emptyFrameStats,
  type FrameTransformOptions,
  type FrameTransformReply,
  type FrameTransformRequest,
  type PeerFrameStats,
} from './frame-transform-protocol';

/** How long a frame under a key id not received yet waits for its key (rotations race the frames). */
const KEY_WAIT_MS = 250;

interface EncodedFrame {
  data: ArrayBuffer;
}

const scope = self as unknown as DedicatedWorkerGlobalScope & {
  onrtctransform: ((event: { transformer: RtcTransformer }) => void) | null;
};

interface RtcTransformer {
  readable: ReadableStream<EncodedFrame>;
  writable: WritableStream<EncodedFrame>;
  options: FrameTransformOptions;
}

let sender: { key: CryptoKey; keyId: number; counter: number } | null = null;
const receiveKeys = new Map<string, Map<number, CryptoKey>>();
const keyWaiters = new Map<string, Set<() => void>>();
const plainPeers = new Set<string>();
const stats = new Map<string, PeerFrameStats>();
const captures = new Map<string, { id: number; left: number; frames: ArrayBuffer[] }>();

function statsOf(peer: string): PeerFrameStats {
  let peerStats = stats.get(peer);
  if (!peerStats) stats.set(peer, (peerStats = emptyFrameStats()));
  return peerStats;
}

function reply(message: FrameTransformReply, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer);
}

/** Resolves once `userId`'s key `keyId` is there, or after KEY_WAIT_MS; the key or undefined. */
async function keyFor(userId: string, keyId: number): Promise<CryptoKey | undefined> {
  const known = receiveKeys.get(userId)?.get(keyId);
  if (known) return known;
  const waitKey = `${userId}:${keyId}`;
  await new Promise<void>((resolve) => {
    const waiters = keyWaiters.get(waitKey) ?? new Set<() => void>();
    keyWaiters.set(waitKey, waiters);
    const done = () => {
      clearTimeout(timer);
      waiters.delete(done);
      if (waiters.size === 0) keyWaiters.delete(waitKey);
      resolve();
    };
    const timer = setTimeout(done, KEY_WAIT_MS);
    waiters.add(done);
  });
  return receiveKeys.get(userId)?.get(keyId);
}

async function sendFrame(peer: string, frame: EncodedFrame): Promise<EncodedFrame | null> {
  const peerStats = statsOf(peer);
  if (plainPeers.has(peer)) {
    peerStats.framesSentPlain++;
    return frame;
  }
  if (!sender) return null;
  frame.data = (await encryptFrame(sender.key, sender.keyId, sender.counter++, new Uint8Array(frame.data))).buffer;
  peerStats.framesEncrypted++;
  return frame;
}

async function receiveFrame(peer: string, frame: EncodedFrame): Promise<EncodedFrame | null> {
  const peerStats = statsOf(peer);
  const capture = captures.get(peer);
  if (capture) {
    capture.frames.push(frame.data.slice(0));
    if (--capture.left === 0) {
      captures.delete(peer);
      reply({ type: 'captured', id: capture.id, frames: capture.frames }, capture.frames);
    }
  }
  if (plainPeers.has(peer)) {
    peerStats.framesReceivedPlain++;
    return frame;
  }
  const bytes = new Uint8Array(frame.data);
  const header = readFrameHeader(bytes);
  if (!header) {
    peerStats.framesUnencrypted++;
    return null;
  }
  const key = await keyFor(peer, header.keyId);
  if (!key) {
    peerStats.framesWithoutKey++;
    return null;
  }
  try {
    frame.data = await decryptFrame(key, bytes);
  } catch {
    peerStats.framesUndecryptable++;
    return null;
  }
  peerStats.framesDecrypted++;
  peerStats.lastKeyId = header.keyId;
  return frame;
}

/** How many of `frames` the keys held for `peer` decrypt (none waited for). */
async function countDecryptable(peer: string, frames: ArrayBuffer[]): Promise<number> {
  let count = 0;
  for (const frame of frames) {
    const bytes = new Uint8Array(frame);
    const header = readFrameHeader(bytes);
    const key = header && receiveKeys.get(peer)?.get(header.keyId);
    if (
      key &&
      (await decryptFrame(key, bytes).then(
        () => true,
        () => false,
      ))
    )
      count++;
  }
  return count;
}

scope.onrtctransform = (event) => {
  const { readable, writable, options } = event.transformer;
  const handle = options.direction === 'send' ? sendFrame : receiveFrame;
  void (async () => {
    const reader = readable.getReader();
    const writer = writable.getWriter();
    try {
      // One frame at a time, in order: a frame's encryption finishes before the next one's starts.
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        const out = await handle(options.peer, value);
        if (out) await writer.write(out);
      }
    } catch {
      // The peer connection closed: its streams end with it.
    }
  })();
};

scope.onmessage = (event: MessageEvent<FrameTransformRequest>) => {
  const message = event.data;
  switch (message.type) {
    case 'sender-key':
      sender = { key: message.key, keyId: message.keyId, counter: 0 };
      return;
    case 'receive-key': {
      const keys = receiveKeys.get(message.userId) ?? new Map<number, CryptoKey>();
      receiveKeys.set(message.userId, keys);
      keys.set(message.keyId, message.key);
      // Only the newest few: an older key is of no use once frames under the newer ones arrive.
      for (const keyId of [...keys.keys()].sort((a, b) => a - b).slice(0, -VOICE_E2EE_RECEIVE_KEYS_KEPT))
        keys.delete(keyId);
      for (const wake of [...(keyWaiters.get(`${message.userId}:${message.keyId}`) ?? [])]) wake();
      return;
    }
    case 'forget':
      receiveKeys.delete(message.userId);
      plainPeers.delete(message.userId);
      return;
    case 'mode':
      if (message.e2ee) plainPeers.delete(message.peer);
      else plainPeers.add(message.peer);
      return;
    case 'stats':
      return reply({ type: 'stats', id: message.id, peers: Object.fromEntries(stats) });
    case 'capture':
      captures.set(message.peer, { id: message.id, left: message.count, frames: [] });
      return;
    case 'try-decrypt':
      void countDecryptable(message.peer, message.frames).then((count) =>
        reply({ type: 'decryptable', id: message.id, count }),
      );
      return;
  }
};
