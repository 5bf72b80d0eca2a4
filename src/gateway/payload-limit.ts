/**
 * The size limit of what a client sends: the platform's gateways close a connection whose
 * payload is over 4096 bytes with 4002 (main gateway "Decode error", voice gateway "Failed to
 * decode payload"), before reading it.
 */
import { GATEWAY_PAYLOAD_MAX_BYTES } from '../platform/core/limits';

const encoder = new TextEncoder();

/**
 * Whether `text` is over the limit in UTF-8 bytes; short text is decided without encoding it.
 * @example payloadTooLarge('x'.repeat(4097)) // true
 */
export function payloadTooLarge(text: string): boolean {
  if (text.length > GATEWAY_PAYLOAD_MAX_BYTES) return true;
  if (text.length * 3 <= GATEWAY_PAYLOAD_MAX_BYTES) return false;
  return encoder.encode(text).byteLength > GATEWAY_PAYLOAD_MAX_BYTES;
}
