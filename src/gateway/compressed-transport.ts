/**
 * The gateway's compression, as the platform offers it, over a host's zlib:
 * - transport compression (`compress=zlib-stream` in the URL): one zlib stream for the whole
 *   connection, each payload deflated into it and flushed with Z_SYNC_FLUSH, so that each
 *   binary message ends in `00 00 ff ff` and a client inflates it with the context it keeps;
 * - payload compression (Identify's `compress: true`): each payload after it deflated on its
 *   own (a whole zlib stream), as a binary message. Transport compression takes precedence.
 *
 * The connection sends text; this transport turns it into the binary messages the client
 * asked for, in order, and closes only after the messages sent before the close went out.
 * The zlib is the host's (the server's `node:zlib`): a stream is memory of the connection, lost
 * when the server's object is evicted, so such a connection must then reconnect.
 */
/** The transport compressions the URL's `compress` may name. */
export type TransportCompression = 'zlib-stream' | 'zstd-stream';

/** The last four bytes of a payload flushed with Z_SYNC_FLUSH (an empty stored block). */
export const ZLIB_SUFFIX = Uint8Array.of(0x00, 0x00, 0xff, 0xff);

/** One connection's zlib stream: `deflate` resolves with one payload, flushed. */
export interface PayloadStream {
  deflate(text: string): Promise<Uint8Array>;
  /** Lets go of the stream's memory. */
  end(): void;
}

/** A host's zlib, as the gateway uses it. */
export interface GatewayZlib {
  /** A zlib stream for one connection (`compress=zlib-stream`). */
  openStream(): PayloadStream;
  /** One payload as a whole zlib stream of its own (Identify's `compress: true`). */
  deflateOne(text: string): Uint8Array;
}

/** Where a connection's messages go: a WebSocket's two kinds of message, and its close. */
export interface MessageSink {
  sendText(text: string): void;
  sendBinary(bytes: Uint8Array): void;
  close(code: number, reason: string): void;
}

/**
 * A gateway transport (the connection's `GatewayTransport`) that can switch to payload
 * compression and be let go of.
 */
export interface CompressingTransport {
  send(text: string): void;
  close(code: number, reason: string): void;
  compressPayloads(): void;
  /** The connection ended without a close from this side (the client closed): frees the stream. */
  dispose(): void;
}

/** What an unexpected failure of the host's zlib closes the connection with (the client reconnects and resumes). */
const ZLIB_FAILED = { code: 4000, reason: 'Unknown error.' } as const;

/**
 * The transport for a connection that asked for `compression` (or none), over `sink`.
 * @example const transport = compressedTransport(sink, nodeZlib, 'zlib-stream');
 */
export function compressedTransport(
  sink: MessageSink,
  zlib: GatewayZlib,
  compression: TransportCompression | null,
): CompressingTransport {
  const stream = compression === 'zlib-stream' ? zlib.openStream() : null;
  let perPayload = false;
  let closed = false;
  /** The stream's messages in flight: each waits for the one before it, and so does the close. */
  let sent: Promise<void> = Promise.resolve();
  const end = () => {
    closed = true;
    stream?.end();
  };
  return {
    send(text) {
      if (closed) return;
      if (stream) {
        sent = sent.then(async () => {
          if (closed) return;
          try {
            sink.sendBinary(await stream.deflate(text));
          } catch {
            end();
            sink.close(ZLIB_FAILED.code, ZLIB_FAILED.reason);
          }
        });
      } else if (perPayload) sink.sendBinary(zlib.deflateOne(text));
      else sink.sendText(text);
    },
    close(code, reason) {
      if (closed) return;
      if (!stream) {
        closed = true;
        return sink.close(code, reason);
      }
      sent = sent.then(() => {
        if (closed) return;
        end();
        sink.close(code, reason);
      });
    },
    compressPayloads() {
      // Under transport compression every payload is compressed already.
      if (!stream) perPayload = true;
    },
    dispose() {
      if (!closed) end();
    },
  };
}
