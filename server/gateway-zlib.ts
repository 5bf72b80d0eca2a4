/**
 * The gateway's zlib on the server: the engine's own `node:zlib` (workerd's Node compatibility,
 * `nodejs_compat`; Node's in tests). A connection's stream is a `Deflate` whose output is cut
 * into messages at each Z_SYNC_FLUSH: a message is complete once the flush's callback ran and
 * its bytes end in `00 00 ff ff`.
 *
 * zstd (`compress=zstd-stream`) is not offered: neither workerd's `node:zlib` nor Node 20's has it.
 */
import { constants, createDeflate, deflateSync } from 'node:zlib';
import { type GatewayZlib, type PayloadStream, ZLIB_SUFFIX } from '../src/gateway/compressed-transport';

/** The transport compressions this server offers in the gateway URL's `compress`. */
export const SERVER_TRANSPORT_COMPRESSIONS = ['zlib-stream'] as const;

/** Whether `bytes` end in the empty stored block a Z_SYNC_FLUSH writes. */
function endsFlushed(chunks: readonly Uint8Array[]): boolean {
  const last = chunks.at(-1);
  if (!last || last.byteLength < ZLIB_SUFFIX.byteLength) return false;
  const tail = last.subarray(last.byteLength - ZLIB_SUFFIX.byteLength);
  return tail.every((byte, i) => byte === ZLIB_SUFFIX[i]);
}

/** Joins chunks into one message. */
function joined(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** One connection's zlib stream. Its caller deflates one payload at a time (the transport waits for each). */
function openStream(): PayloadStream {
  const deflate = createDeflate();
  let chunks: Uint8Array[] = [];
  /** The payload being deflated: resolved once its flush ran and its last bytes came out. */
  let current: { flushed: boolean; resolve(bytes: Uint8Array): void } | null = null;
  const settle = () => {
    if (!current?.flushed || !endsFlushed(chunks)) return;
    const message = joined(chunks);
    chunks = [];
    const { resolve } = current;
    current = null;
    resolve(message);
  };
  deflate.on('data', (chunk: Uint8Array) => {
    chunks.push(chunk);
    settle();
  });
  let failure: Error | null = null;
  deflate.on('error', (error) => (failure = error));
  return {
    deflate(text) {
      if (failure) return Promise.reject(failure);
      return new Promise<Uint8Array>((resolve, reject) => {
        current = { flushed: false, resolve };
        deflate.once('error', reject);
        deflate.write(text);
        deflate.flush(constants.Z_SYNC_FLUSH, () => {
          deflate.off('error', reject);
          if (current) current.flushed = true;
          settle();
        });
      });
    },
    end: () => deflate.close(),
  };
}

/** The server's zlib for the gateway. */
export const serverGatewayZlib: GatewayZlib = {
  openStream,
  deflateOne: (text) => deflateSync(text),
};
