// @vitest-environment node
/**
 * The platform's gateways close a connection that sends a payload over 4096 bytes with 4002, on
 * the main gateway ("Decode error") and on the voice gateway ("Failed to decode payload").
 */
import { describe, expect, it } from 'vitest';
import { itInProcess } from '../app-harness';
import { GATEWAY_PAYLOAD_MAX_BYTES } from '../../../src/platform/core/limits';
import { createGatewayHarness } from './gateway-harness';
import { createVoiceHarness } from './voice-harness';

/** An Identify whose JSON is exactly `bytes` long in UTF-8, padded with `pad` characters in a property. */
function identifyOf(token: string, bytes: number, pad = 'x'): string {
  const shell = (filler: string) =>
    JSON.stringify({ op: 2, d: { token, intents: 0, properties: { os: filler, browser: 't', device: 't' } } });
  const padBytes = new TextEncoder().encode(pad).byteLength;
  const room = bytes - new TextEncoder().encode(shell('')).byteLength;
  const text = shell(pad.repeat(Math.floor(room / padBytes)) + 'x'.repeat(room % padBytes));
  expect(new TextEncoder().encode(text).byteLength).toBe(bytes);
  return text;
}

describe('gateway payload limit: over 4096 bytes closes with 4002', () => {
  it(`an Identify of ${GATEWAY_PAYLOAD_MAX_BYTES} bytes gets READY; one byte more, 5 KB or 1 MiB closes with 4002 before READY`, async () => {
    const h = await createGatewayHarness();
    const fits = h.connect();
    fits.sendRaw(identifyOf(h.world.botAuth, GATEWAY_PAYLOAD_MAX_BYTES));
    expect((await fits.waitForDispatch('READY')).d.user.id).toBe(h.world.bot.id);

    for (const bytes of [GATEWAY_PAYLOAD_MAX_BYTES + 1, 5 * 1024, 1024 * 1024]) {
      const client = h.connect();
      client.sendRaw(identifyOf(h.world.botAuth, bytes));
      expect(await client.waitForClose(), `${bytes} bytes`).toEqual({
        code: 4002,
        reason: `Payload is larger than ${GATEWAY_PAYLOAD_MAX_BYTES} bytes.`,
      });
      expect(client.dispatches('READY')).toEqual([]);
    }
  });

  it('counts UTF-8 bytes, not characters: 1,400 three-byte characters are over the limit', async () => {
    const h = await createGatewayHarness();
    const client = h.connect();
    const text = identifyOf(h.world.botAuth, 1400 * 3 + 200, '€');
    expect(text.length).toBeLessThan(GATEWAY_PAYLOAD_MAX_BYTES);
    client.sendRaw(text);
    expect((await client.waitForClose()).code).toBe(4002);
  });

  it('closes an identified session that sends a payload over the limit, and the token is not in the reason', async () => {
    const h = await createGatewayHarness();
    const bot = await h.identify(h.world.botAuth, { intents: 0 });
    bot.send({ op: 1, d: null, padding: 'x'.repeat(GATEWAY_PAYLOAD_MAX_BYTES) });
    const closed = await bot.waitForClose();
    expect(closed.code).toBe(4002);
    expect(closed.reason).not.toContain(h.world.botAuth.slice(4));
  });
});

describe('voice gateway payload limit: over 4096 bytes closes with 4002', () => {
  itInProcess(
    'a voice payload over the limit closes with 4002 before it is read; one within it is answered',
    async () => {
      const h = await createVoiceHarness();
      const small = h.connectVoice('/voice?v=8');
      small.send({ op: 3, d: { t: 1, seq_ack: -1 } });
      expect((await small.waitForOp(6)).d).toMatchObject({ t: 1 });
      const large = h.connectVoice('/voice?v=8');
      large.send({ op: 3, d: { t: 1, seq_ack: -1 }, padding: 'x'.repeat(GATEWAY_PAYLOAD_MAX_BYTES) });
      expect(await large.waitForClose()).toEqual({
        code: 4002,
        reason: `Payload is larger than ${GATEWAY_PAYLOAD_MAX_BYTES} bytes.`,
      });
    },
  );
});
