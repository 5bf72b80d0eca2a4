// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { E2eeSession } from '../../../src/media/e2ee-session';
import { decryptFrame, encryptFrame } from '../../../src/media/frame-cipher';

/**
 * Participants of one call whose E2EE messages go through a relay the test holds: what each
 * sent (to whom), and the keys each installed.
 */
function call(callId = '900') {
  const participants = new Map<string, Participant>();
  const relayed: { from: string; to: string | null; data: string }[] = [];
  interface Participant {
    session: E2eeSession;
    sendKey: { key: CryptoKey; keyId: number } | null;
    receiveKeys: Map<string, Map<number, CryptoKey>>;
    warnings: string[];
    inbox: Promise<void>;
  }
  const deliver = (from: string, to: string | null, data: string) => {
    relayed.push({ from, to, data });
    for (const [id, p] of participants)
      if (id !== from && (to === null || to === id)) p.inbox = p.inbox.then(() => p.session.receive(from, data));
  };
  const join = async (id: string) => {
    const p: Participant = {
      session: null as never,
      sendKey: null,
      receiveKeys: new Map(),
      warnings: [],
      inbox: Promise.resolve(),
    };
    p.session = new E2eeSession(id, callId, {
      send: (to, data) => deliver(id, to, data),
      useSenderKey: (key, keyId) => (p.sendKey = { key, keyId }),
      addReceiveKey: (userId, key, keyId) => {
        const keys = p.receiveKeys.get(userId) ?? new Map();
        p.receiveKeys.set(userId, keys.set(keyId, key));
      },
      forgetParticipant: (userId) => p.receiveKeys.delete(userId),
      warn: (message) => p.warnings.push(message),
    });
    participants.set(id, p);
    await p.session.start();
    await settle();
    return p;
  };
  const leave = async (id: string) => {
    participants.get(id)!.session.close();
    participants.delete(id);
    for (const p of participants.values()) await p.session.participantLeft(id);
    await settle();
  };
  /** Waits until every inbox is empty (messages can cause messages). */
  const settle = async () => {
    for (let round = 0; round < 20; round++) {
      const before = relayed.length;
      await Promise.all([...participants.values()].map((p) => p.inbox));
      if (relayed.length === before) return;
    }
  };
  /** Whether `listener` decrypts a frame `speaker` encrypts now. */
  const hears = async (listener: { receiveKeys: Map<string, Map<number, CryptoKey>> }, speaker: string) => {
    const send = participants.get(speaker)!.sendKey!;
    const frame = await encryptFrame(send.key, send.keyId, 0, new Uint8Array([1, 2, 3, 4]));
    const key = listener.receiveKeys.get(speaker)?.get(send.keyId);
    if (!key) return false;
    return decryptFrame(key, frame).then(
      () => true,
      () => false,
    );
  };
  return { participants, relayed, join, leave, hears };
}

describe('E2EE key agreement: per-sender keys, sealed pairwise, rotated on join and leave', () => {
  it("two participants get each other's sender keys and decrypt each other's frames", async () => {
    const c = call();
    const alice = await c.join('100');
    const bob = await c.join('200');
    expect(await c.hears(bob, '100')).toBe(true);
    expect(await c.hears(alice, '200')).toBe(true);
    expect([alice.warnings, bob.warnings]).toEqual([[], []]);
  });

  it('the relay carries public keys and sealed keys only: no raw sender key crosses it', async () => {
    const c = call();
    await c.join('100');
    await c.join('200');
    const types = c.relayed.map((m) => JSON.parse(m.data).type);
    expect(new Set(types)).toEqual(new Set(['hello', 'sender_key']));
    for (const m of c.relayed.filter((m) => JSON.parse(m.data).type === 'sender_key')) {
      expect(m.to).not.toBeNull();
      expect(Object.keys(JSON.parse(m.data)).sort()).toEqual(['iv', 'key_id', 'sealed', 'type', 'version']);
    }
  });

  it('a join rotates every sender key: the newcomer cannot decrypt the key used before it came', async () => {
    const c = call();
    await c.join('100');
    await c.join('200');
    const before = c.participants.get('100')!.sendKey!;
    const chen = await c.join('300');
    const after = c.participants.get('100')!.sendKey!;
    expect(after.keyId).toBeGreaterThan(before.keyId);
    expect(chen.receiveKeys.get('100')?.has(before.keyId)).toBe(false);
    expect(await c.hears(chen, '100')).toBe(true);
    expect(await c.hears(c.participants.get('200')!, '300')).toBe(true);
  });

  it('a leave rotates the keys: the one who left decrypts nothing sent after', async () => {
    const c = call();
    await c.join('100');
    const bob = await c.join('200');
    await c.join('300');
    expect(await c.hears(bob, '100')).toBe(true);
    await c.leave('200');
    // Bob kept every key he ever had; none is the one alice encrypts with now.
    expect(await c.hears(bob, '100')).toBe(false);
    expect(await c.hears(c.participants.get('300')!, '100')).toBe(true);
  });

  it('a sealed key replayed to another participant does not open (it is bound to its recipient)', async () => {
    const c = call();
    await c.join('100');
    await c.join('200');
    const chen = await c.join('300');
    const toBob = c.relayed
      .filter((m) => m.from === '100' && m.to === '200' && JSON.parse(m.data).type === 'sender_key')
      .at(-1)!;
    const keysBefore = chen.receiveKeys.get('100')!.size;
    await chen.session.receive('100', toBob.data);
    expect(chen.receiveKeys.get('100')!.size).toBe(keysBefore);
    expect(chen.warnings.join()).toMatch(/did not open/);
  });

  it('both ends compute the same verification code; a public key swapped on the way changes it', async () => {
    const c = call();
    const alice = await c.join('100');
    const chen = await c.join('300');
    const code = await alice.session.verificationCode('300');
    expect(code).toMatch(/^\d{5}( \d{5}){5}$/);
    expect(await chen.session.verificationCode('100')).toBe(code);
    // A relay that hands another chen its own key under alice's name: that chen's code differs.
    const quiet = {
      send: () => {},
      useSenderKey: () => {},
      addReceiveKey: () => {},
      forgetParticipant: () => {},
      warn: () => {},
    };
    const mallory = new E2eeSession('100', '900', quiet);
    const fooled = new E2eeSession('300', '900', quiet);
    await Promise.all([mallory.start(), fooled.start()]);
    await fooled.receive(
      '100',
      JSON.stringify({ type: 'hello', version: 1, public_key: mallory.publicKey, reply: true }),
    );
    expect(await fooled.verificationCode('100')).not.toBe(code);
  });

  it('unreadable messages are ignored with a warning and change nothing', async () => {
    const c = call();
    const alice = await c.join('100');
    await alice.session.receive('200', 'not json');
    await alice.session.receive('200', JSON.stringify({ type: 'hello', version: 1, public_key: 'AAAA' }));
    await alice.session.receive(
      '200',
      JSON.stringify({ type: 'sender_key', version: 1, key_id: 1, iv: 'AA', sealed: 'AA' }),
    );
    expect(alice.session.participants()).toEqual([]);
    expect(alice.warnings).toHaveLength(3);
  });
});
