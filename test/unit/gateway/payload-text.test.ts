// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payloadText } from '../../../src/gateway/payload-text';
import type { GatewayPayload } from '../../../src/gateway/protocol';

describe('the text of a gateway payload', () => {
  it('is byte for byte JSON.stringify of the payload, for any payload and sessions sharing one d', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), fc.object()),
        fc.array(fc.oneof(fc.integer(), fc.constant(null))),
        fc.oneof(fc.string(), fc.constant(null)),
        fc.integer({ min: 0, max: 11 }),
        (d, seqs, t, op) => {
          for (const s of seqs) {
            const payload: GatewayPayload = { op, d, s, t };
            expect(payloadText(payload)).toBe(JSON.stringify(payload));
          }
        },
      ),
    );
  });

  it('keeps the order of keys a payload was built with', () => {
    const d = { content: 'hi' };
    const reordered = { t: 'X', s: 2, op: 0, d } as GatewayPayload;
    expect(payloadText({ op: 0, d, s: 1, t: 'X' })).toBe('{"op":0,"d":{"content":"hi"},"s":1,"t":"X"}');
    expect(payloadText(reordered)).toBe(JSON.stringify(reordered));
  });

  it('serializes a d again in a later turn, so a change to it since is never missed', async () => {
    const d: Record<string, unknown> = { content: 'before' };
    expect(payloadText({ op: 0, d, s: 1, t: 'X' })).toContain('before');
    await Promise.resolve();
    d.content = 'after';
    expect(payloadText({ op: 0, d, s: 2, t: 'X' })).toBe('{"op":0,"d":{"content":"after"},"s":2,"t":"X"}');
  });
});
