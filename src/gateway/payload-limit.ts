/**
 * The size limit of what a client sends: the platform's gateways close a connection whose
 * payload is over 4096 bytes with 4002 (main gateway "Decode error", voice gateway "Failed to
 * decode payload"), on arrival, before reading it.
 */
import { GATEWAY_PAYLOAD_MAX_BYTES } from '../platform/core/limits';

/** The close reason for a payload over the limit. */
export const PAYLOAD_TOO_LARGE_REASON = `Payload is larger than ${GATEWAY_PAYLOAD_MAX_BYTES} bytes.`;

const encoder = new TextEncoder();

/**
 * Whether what a client sent is over the limit: text in UTF-8 bytes (short text is decided
 * without encoding it), binary data by its size.
 * @example payloadTooLarge('x'.repeat(4097)) // true
 */
export function payloadTooLarge(
  data: string | Blob | ArrayBuffer | ArrayBufferView,
  maxBytes = GATEWAY_PAYLOAD_MAX_BYTES,
): boolean {
  if (typeof data !== 'string') {
    return (
      (typeof Blob !== 'undefined' && data instanceof Blob ? data.size : (data as ArrayBuffer).byteLength) > maxBytes
    );
  }
  if (data.length > maxBytes) return true;
  if (data.length * 3 <= maxBytes) return false;
  return encoder.encode(data).byteLength > maxBytes;
}
