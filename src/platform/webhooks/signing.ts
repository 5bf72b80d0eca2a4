/**
 * Ed25519 signatures of webhook requests, as the platform signs them: `X-Signature-Ed25519` is
 * the hex signature of the `X-Signature-Timestamp` value followed by the raw body, made with
 * the application's private key and checked with its `verify_key` (the raw public key, hex).
 */

/** The request headers that carry the signature. */
export const SIGNATURE_HEADER = 'X-Signature-Ed25519';
export const TIMESTAMP_HEADER = 'X-Signature-Timestamp';

const ED25519 = { name: 'Ed25519' } as const;
const utf8 = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

function fromHex(hex: string, length: number): Uint8Array<ArrayBuffer> | null {
  if (hex.length !== length * 2 || !/^[0-9a-f]*$/i.test(hex)) return null;
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/**
 * A new key pair. The private key is made non-extractable (WebCrypto always lets the public
 * half be exported), so once stored it can sign and nothing else; `extractable` only where the
 * store keeps keys as JWK (`PlatformStorage.keysMustBeExtractable`), which reads them back
 * non-extractable.
 * @example const { privateKey, verifyKey } = await generateWebhookKeyPair(ctx.db.keysMustBeExtractable);
 */
export async function generateWebhookKeyPair(
  extractable = false,
): Promise<{ privateKey: CryptoKey; verifyKey: string }> {
  const pair = (await crypto.subtle.generateKey(ED25519, extractable, ['sign', 'verify'])) as CryptoKeyPair;
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  return { privateKey: pair.privateKey, verifyKey: toHex(raw) };
}

/** The hex Ed25519 signature of `timestamp + body`. */
export async function signWebhook(privateKey: CryptoKey, timestamp: string, body: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.sign(ED25519, privateKey, utf8(timestamp + body))));
}

/**
 * Whether `signature` (hex) is the Ed25519 signature of `timestamp + body` under `verifyKey`
 * (hex). Anything malformed is simply not valid.
 * @example await verifyWebhookSignature(app.verify_key, headers['x-signature-ed25519'], headers['x-signature-timestamp'], rawBody)
 */
export async function verifyWebhookSignature(
  verifyKey: string,
  signature: string | null,
  timestamp: string | null,
  body: string,
): Promise<boolean> {
  const key = fromHex(verifyKey, 32);
  const sig = signature === null ? null : fromHex(signature, 64);
  if (!key || !sig || timestamp === null) return false;
  try {
    const publicKey = await crypto.subtle.importKey('raw', key, ED25519, false, ['verify']);
    return await crypto.subtle.verify(ED25519, publicKey, sig, utf8(timestamp + body));
  } catch {
    return false;
  }
}

/**
 * The POST of a signed webhook request: JSON body, signature and timestamp headers, no
 * credentials, no redirects followed. `now` is the platform clock's epoch ms (the timestamp
 * is in whole seconds, as the platform sends it). `tamper` signs something else, to check
 * that an endpoint refuses bad signatures.
 */
export async function signedWebhookRequest(
  privateKey: CryptoKey,
  body: string,
  now: number,
  tamper = false,
): Promise<RequestInit> {
  const timestamp = String(Math.floor(now / 1000));
  const signature = await signWebhook(privateKey, tamper ? `${timestamp}0` : timestamp, body);
  return {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: signature, [TIMESTAMP_HEADER]: timestamp },
    body,
    redirect: 'manual',
    credentials: 'omit',
  };
}
