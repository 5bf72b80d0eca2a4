// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  decryptFrame,
  encryptFrame,
  FRAME_TAG_BYTES,
  FRAME_TRAILER_BYTES,
  readFrameHeader,
} from '../../../src/media/frame-cipher';
import { generateSenderKey, importFrameKey } from '../../../src/media/e2ee-keys';

const opusFrame = () => crypto.getRandomValues(new Uint8Array(80));

describe('frame encryption: AES-256-GCM over each audio frame', () => {
  it('a frame encrypted with a sender key decrypts with the same key, byte for byte', async () => {
    const key = await importFrameKey(generateSenderKey());
    const plain = opusFrame();
    const sealed = await encryptFrame(key, 7, 41, plain);
    expect(sealed.length).toBe(plain.length + FRAME_TAG_BYTES + FRAME_TRAILER_BYTES);
    expect(readFrameHeader(sealed)).toEqual({ keyId: 7, counter: 41 });
    expect(new Uint8Array(await decryptFrame(key, sealed))).toEqual(plain);
  });

  it('the encrypted frame does not contain the plaintext', async () => {
    const key = await importFrameKey(generateSenderKey());
    const plain = new Uint8Array(64).fill(0x41);
    const sealed = await encryptFrame(key, 1, 0, plain);
    expect(Buffer.from(sealed).includes(Buffer.from(plain.subarray(0, 8)))).toBe(false);
  });

  it('a wrong key decrypts nothing: the frame is refused, never garbled', async () => {
    const key = await importFrameKey(generateSenderKey());
    const other = await importFrameKey(generateSenderKey());
    const sealed = await encryptFrame(key, 1, 0, opusFrame());
    await expect(decryptFrame(other, sealed)).rejects.toThrow();
  });

  it('the trailer is authenticated: a changed key id or counter, or a flipped bit, fails', async () => {
    const key = await importFrameKey(generateSenderKey());
    const sealed = await encryptFrame(key, 3, 9, opusFrame());
    const counterChanged = sealed.slice();
    counterChanged[sealed.length - 3] ^= 1;
    const bitFlipped = sealed.slice();
    bitFlipped[0] ^= 0x80;
    await expect(decryptFrame(key, counterChanged)).rejects.toThrow();
    await expect(decryptFrame(key, bitFlipped)).rejects.toThrow();
  });

  it('a plain frame (no trailer marker) is not taken for an encrypted one', () => {
    expect(readFrameHeader(opusFrame().map((b) => (b === 0xee ? 0 : b)))).toBeNull();
    expect(readFrameHeader(new Uint8Array(3))).toBeNull();
  });

  it('each frame gets its own nonce: the same plaintext twice gives two ciphertexts', async () => {
    const key = await importFrameKey(generateSenderKey());
    const plain = opusFrame();
    const a = await encryptFrame(key, 1, 0, plain);
    const b = await encryptFrame(key, 1, 1, plain);
    expect(Buffer.from(a.subarray(0, plain.length)).equals(Buffer.from(b.subarray(0, plain.length)))).toBe(false);
  });
});
