/**
 * A random UUID (version 4) in every context. `crypto.randomUUID()` exists only in a secure
 * context: a page opened on `http://<the laptop's LAN address>:5173` (a phone on the network),
 * and the workers it starts, have `crypto.getRandomValues()` but not it. Ids made here are the
 * same kind either way: 122 random bits in the UUID's text form.
 */

/**
 * `crypto.randomUUID()` where the context has it, else the same from `crypto.getRandomValues()`.
 * @example const frameId = randomUuid(); // '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed'
 */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  // RFC 9562 §5.4: version 4, variant 10.
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
