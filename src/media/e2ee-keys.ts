/**
 * The key material of end-to-end encrypted calls, on WebCrypto only:
 * - each participant's identity for one call: an ECDH P-256 key pair made when it joins (the
 *   private key never leaves WebCrypto), whose public half it announces to the call;
 * - a pairwise key between two participants: ECDH, then HKDF-SHA-256 bound to the call and to
 *   both user ids, as an AES-256-GCM key that seals sender keys from one to the other;
 * - sender keys: 32 random bytes per sender and epoch (a new one whenever someone joins or
 *   leaves), sealed for each participant with their pairwise key and imported on arrival as a
 *   non-extractable AES-256-GCM key for the frame transform;
 * - a verification code per pair: 30 digits both ends compute from the call id and the two
 *   public keys they hold. Equal codes mean that no one between them swapped a key.
 *
 * The relay (the voice gateway) carries public keys and sealed sender keys only.
 */

/** A participant's key pair for one call. */
export interface E2eeIdentity {
  privateKey: CryptoKey;
  /** The raw public key (an uncompressed P-256 point), base64: what is announced. */
  publicKey: string;
}

/** Bytes of a sender key (AES-256). */
export const SENDER_KEY_BYTES = 32;
const ECDH = { name: 'ECDH', namedCurve: 'P-256' } as const;
const PROTOCOL_LABEL = 'platformpp-e2ee-v1';
const encoder = new TextEncoder();

/** Base64 of bytes. */
export function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

/** Bytes of base64; throws on anything else. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The two user ids of a pair, in one order whoever computes it. */
function pairLabel(a: string, b: string): string {
  return BigInt(a) < BigInt(b) ? `${a} ${b}` : `${b} ${a}`;
}

/** A new identity for one call. */
export async function createIdentity(): Promise<E2eeIdentity> {
  const pair = (await crypto.subtle.generateKey(ECDH, false, ['deriveBits'])) as CryptoKeyPair;
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  return { privateKey: pair.privateKey, publicKey: toBase64(raw) };
}

/**
 * The key that seals sender keys between `selfId` and `peerId` in call `callId`: the same on
 * both ends, and unknown to anyone without one of the two private keys.
 */
export async function derivePairwiseKey(
  identity: E2eeIdentity,
  peerPublicKey: string,
  context: { callId: string; selfId: string; peerId: string },
): Promise<CryptoKey> {
  const peer = await crypto.subtle.importKey('raw', fromBase64(peerPublicKey), ECDH, false, []);
  const secret = await crypto.subtle.deriveBits({ name: 'ECDH', public: peer }, identity.privateKey, 256);
  const base = await crypto.subtle.importKey('raw', secret, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: encoder.encode(`${PROTOCOL_LABEL} call ${context.callId}`),
      info: encoder.encode(`${PROTOCOL_LABEL} pair ${pairLabel(context.selfId, context.peerId)}`),
    },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** Who a sealed sender key is from and for: bound into its seal, so it cannot be replayed elsewhere. */
export interface SenderKeyLabel {
  callId: string;
  from: string;
  to: string;
  keyId: number;
}

function labelBytes(label: SenderKeyLabel): Uint8Array<ArrayBuffer> {
  return encoder.encode(`${PROTOCOL_LABEL} sender-key ${label.callId} ${label.from} ${label.to} ${label.keyId}`);
}

/** A fresh sender key's bytes. */
export function generateSenderKey(): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(SENDER_KEY_BYTES));
}

/** The frame key of sender key bytes: AES-256-GCM, not extractable. */
export function importFrameKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
}

/** Seals sender key bytes for one participant with their pairwise key. */
export async function sealSenderKey(
  pairwise: CryptoKey,
  raw: Uint8Array<ArrayBuffer>,
  label: SenderKeyLabel,
): Promise<{ iv: string; sealed: string }> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: labelBytes(label) }, pairwise, raw);
  return { iv: toBase64(iv), sealed: toBase64(new Uint8Array(sealed)) };
}

/**
 * Opens a sealed sender key and imports it as a frame key. Rejects when the seal was not made
 * with this pairwise key for this label (another call, sender, recipient or key id).
 */
export async function openSenderKey(
  pairwise: CryptoKey,
  sealed: { iv: string; sealed: string },
  label: SenderKeyLabel,
): Promise<CryptoKey> {
  const raw = new Uint8Array(
    await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromBase64(sealed.iv), additionalData: labelBytes(label) },
      pairwise,
      fromBase64(sealed.sealed),
    ),
  );
  if (raw.length !== SENDER_KEY_BYTES) throw new TypeError('A sender key has 32 bytes.');
  try {
    return await importFrameKey(raw);
  } finally {
    raw.fill(0);
  }
}

/**
 * The verification code of two participants of a call: 30 digits in groups of five, from the
 * call id and both (user id, public key) pairs. Both ends show the same code unless a key was
 * swapped on the way.
 * @example await verificationCode(callId, { id: me, publicKey: mine }, { id: them, publicKey: theirs })
 */
export async function verificationCode(
  callId: string,
  a: { id: string; publicKey: string },
  b: { id: string; publicKey: string },
): Promise<string> {
  const [first, second] = BigInt(a.id) < BigInt(b.id) ? [a, b] : [b, a];
  const text = `${PROTOCOL_LABEL} verify ${callId} ${first.id} ${first.publicKey} ${second.id} ${second.publicKey}`;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  const groups: string[] = [];
  // Six groups of five digits, each from 5 bytes of the digest (as the platform's codes are made).
  for (let i = 0; i < 6; i++) {
    let value = 0n;
    for (const byte of digest.subarray(i * 5, i * 5 + 5)) value = (value << 8n) | BigInt(byte);
    groups.push((value % 100_000n).toString().padStart(5, '0'));
  }
  return groups.join(' ');
}
