/**
 * The gateway's zlib in the browser's shared worker: pako, a maintained zlib port, since a
 * worker has no `node:zlib` and `CompressionStream` cannot flush one message at a time. A
 * connection's stream is one `Deflate` pushed with Z_SYNC_FLUSH per payload, so each message
 * ends in `00 00 ff ff`, as on the server (`server/gateway-zlib.ts`).
 *
 * zstd (`compress=zstd-stream`) is not offered here either.
 */
import { constants, Deflate, deflate } from 'pako';
import {
  type GatewayZlib,
  joinedChunks,
  type PayloadStream,
  type TransportCompression,
} from '../gateway/compressed-transport';

/** The transport compressions the shared worker's gateway offers in the URL's `compress`. */
export const HUB_TRANSPORT_COMPRESSIONS: readonly TransportCompression[] = ['zlib-stream'];

const encoder = new TextEncoder();

/** One connection's zlib stream: pako deflates synchronously, so each payload's message is ready at once. */
function openStream(): PayloadStream {
  const stream = new Deflate();
  let chunks: Uint8Array[] = [];
  stream.onData = (chunk) => chunks.push(chunk as Uint8Array);
  return {
    async deflate(text) {
      if (!stream.push(encoder.encode(text), constants.Z_SYNC_FLUSH)) throw new Error(`zlib: ${stream.msg}`);
      const message = joinedChunks(chunks);
      chunks = [];
      return message;
    },
    end: () => {
      chunks = [];
    },
  };
}

/** The shared worker's zlib for the gateway. */
export const hubGatewayZlib: GatewayZlib = {
  openStream,
  deflateOne: (text) => deflate(encoder.encode(text)),
};
