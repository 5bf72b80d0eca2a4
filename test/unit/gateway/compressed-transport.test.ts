// @vitest-environment node
/**
 * The gateway's compression over the server's zlib (`server/gateway-zlib.ts`, Node's `node:zlib`
 * here): zlib-stream messages in order, each ending in `00 00 ff ff`, the close after them;
 * Identify's payload compression; text when nothing was asked.
 */
import { constants, createInflate, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { serverGatewayZlib } from '../../../server/gateway-zlib';
import { compressedTransport, type MessageSink } from '../../../src/gateway/compressed-transport';

/** A sink that records what went out, in order. */
function recordingSink() {
  const out: ({ text: string } | { bytes: Uint8Array } | { close: number })[] = [];
  const sink: MessageSink = {
    sendText: (text) => out.push({ text }),
    sendBinary: (bytes) => out.push({ bytes }),
    close: (code) => out.push({ close: code }),
  };
  return { out, sink };
}

const settle = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

/** Inflates messages of one stream with one context; resolves with each message's text. */
async function inflateStream(messages: Uint8Array[]): Promise<string[]> {
  const inflate = createInflate();
  let text = '';
  inflate.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const texts: string[] = [];
  for (const message of messages) {
    await new Promise<void>((resolve) => {
      inflate.write(message);
      inflate.flush(constants.Z_SYNC_FLUSH, () => resolve());
    });
    texts.push(text);
    text = '';
  }
  return texts;
}

describe('gateway compression (zlib-stream and payload compression)', () => {
  it('zlib-stream: payloads sent at once go out in order, one message each ending in 00 00 ff ff, and the close after them', async () => {
    const { out, sink } = recordingSink();
    const transport = compressedTransport(sink, serverGatewayZlib, 'zlib-stream');
    const texts = Array.from({ length: 50 }, (_, i) => JSON.stringify({ op: 0, d: { i, pad: 'x'.repeat(i * 40) } }));
    for (const text of texts) transport.send(text);
    transport.close(4000, 'bye');
    transport.send('{"op":11}'); // after the close: dropped
    await settle(() => out.some((m) => 'close' in m));
    expect(out.at(-1)).toEqual({ close: 4000 });
    const messages = out.slice(0, -1).map((m) => (m as { bytes: Uint8Array }).bytes);
    expect(messages).toHaveLength(texts.length);
    for (const message of messages) expect([...message.subarray(-4)]).toEqual([0, 0, 0xff, 0xff]);
    expect(await inflateStream(messages)).toEqual(texts);
  });

  it("Identify's compress: true makes each later payload a zlib stream of its own; text before it", () => {
    const { out, sink } = recordingSink();
    const transport = compressedTransport(sink, serverGatewayZlib, null);
    transport.send('{"op":10}');
    transport.compressPayloads();
    transport.send('{"op":0,"t":"READY"}');
    expect(out[0]).toEqual({ text: '{"op":10}' });
    expect(inflateSync((out[1] as { bytes: Uint8Array }).bytes).toString('utf8')).toBe('{"op":0,"t":"READY"}');
  });

  it('without compression the payloads are text and the close is at once', () => {
    const { out, sink } = recordingSink();
    const transport = compressedTransport(sink, serverGatewayZlib, null);
    transport.send('{"op":10}');
    transport.close(1000, '');
    expect(out).toEqual([{ text: '{"op":10}' }, { close: 1000 }]);
  });

  it('a connection disposed of (the client closed) sends nothing more', async () => {
    const { out, sink } = recordingSink();
    const transport = compressedTransport(sink, serverGatewayZlib, 'zlib-stream');
    transport.dispose();
    transport.send('{"op":11}');
    await new Promise((r) => setTimeout(r, 20));
    expect(out).toEqual([]);
  });
});
