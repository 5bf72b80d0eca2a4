/**
 * The end-to-end encryption of one audio frame: AES-256-GCM (the AEAD of the platform's
 * `aead_aes256_gcm_rtpsize` mode) over the whole encoded Opus frame, with the sender's current
 * key. An encrypted frame is the ciphertext with its 16-byte tag, then a 10-byte trailer that
 * says how to decrypt it:
 *
 *   ciphertext ‖ tag (16) ‖ key id (u32, big-endian) ‖ counter (u32, big-endian) ‖ 0xE2 0xEE
 *
 * The 12-byte nonce is the key id, the counter and four zero bytes: each key belongs to one
 * sender, who counts its frames from 0, so no nonce repeats under a key. The trailer is the
 * additional authenticated data: a frame whose key id or counter was changed does not decrypt.
 * The trailing marker tells an encrypted frame from a plain one (a peer that does not encrypt).
 *
 * Pure WebCrypto: it runs in the frame transform worker and in a unit test alike.
 */

/** Bytes after the ciphertext and tag: key id, counter, marker. */
export const FRAME_TRAILER_BYTES = 10;
/** The AES-GCM tag, in bytes. */
export const FRAME_TAG_BYTES = 16;
/** The marker that ends every encrypted frame. */
const MARKER = [0xe2, 0xee] as const;

/** What an encrypted frame's trailer says. */
export interface FrameHeader {
  keyId: number;
  counter: number;
}

function nonceOf(keyId: number, counter: number): Uint8Array<ArrayBuffer> {
  const nonce = new Uint8Array(12);
  const view = new DataView(nonce.buffer);
  view.setUint32(0, keyId);
  view.setUint32(4, counter);
  return nonce;
}

function trailerOf(keyId: number, counter: number): Uint8Array<ArrayBuffer> {
  const trailer = new Uint8Array(FRAME_TRAILER_BYTES);
  const view = new DataView(trailer.buffer);
  view.setUint32(0, keyId);
  view.setUint32(4, counter);
  trailer.set(MARKER, 8);
  return trailer;
}

/**
 * The trailer of an encrypted frame, or null when the frame is not one (too short, or no
 * marker): a plain frame, or noise.
 */
export function readFrameHeader(frame: Uint8Array): FrameHeader | null {
  if (frame.length < FRAME_TAG_BYTES + FRAME_TRAILER_BYTES) return null;
  const end = frame.length;
  if (frame[end - 2] !== MARKER[0] || frame[end - 1] !== MARKER[1]) return null;
  const view = new DataView(frame.buffer, frame.byteOffset + end - FRAME_TRAILER_BYTES, FRAME_TRAILER_BYTES);
  return { keyId: view.getUint32(0), counter: view.getUint32(4) };
}

/**
 * Encrypts one frame with the sender key `key` (number `keyId`), as the sender's `counter`th
 * frame under that key.
 * @example const sealed = await encryptFrame(key, 1, counter++, new Uint8Array(frame.data));
 */
export async function encryptFrame(
  key: CryptoKey,
  keyId: number,
  counter: number,
  plaintext: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  const trailer = trailerOf(keyId, counter);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv: nonceOf(keyId, counter), additionalData: trailer },
      key,
      plaintext,
    ),
  );
  const frame = new Uint8Array(sealed.length + FRAME_TRAILER_BYTES);
  frame.set(sealed);
  frame.set(trailer, sealed.length);
  return frame;
}

/**
 * Decrypts one encrypted frame with `key`, the key its header names. Rejects (an
 * `OperationError`) when the key is not the one it was encrypted with or the frame was altered.
 */
export async function decryptFrame(key: CryptoKey, frame: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer> {
  const header = readFrameHeader(frame);
  if (!header) throw new TypeError('Not an encrypted frame.');
  const trailer = frame.subarray(frame.length - FRAME_TRAILER_BYTES);
  return crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: nonceOf(header.keyId, header.counter), additionalData: trailer },
    key,
    frame.subarray(0, frame.length - FRAME_TRAILER_BYTES),
  );
}
