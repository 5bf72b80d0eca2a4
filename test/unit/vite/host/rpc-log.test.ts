// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { RpcWireRecord } from '../../../../src/components/rpc-wire-tap';
import { RPC_LOG_MAX, RpcLog } from '../../../../src/vite/host/rpc-log';
import { playersOf } from '../../../../src/vite/host/players';

const wire = (direction: RpcWireRecord['direction'], message: unknown, at = 0, frame_id = 'f1'): RpcWireRecord => ({
  frame_id,
  user_id: 'u1',
  application_id: 'a1',
  direction,
  message,
  at,
});

describe('the RPC inspector log', () => {
  it('pairs a command with its answer by frame and nonce, and times the round trip', () => {
    const log = new RpcLog();
    log.addWire(wire('received', [1, { cmd: 'GET_CHANNEL', nonce: 'n1', args: { channel_id: '5' } }], 10));
    log.addWire(wire('received', [1, { cmd: 'GET_CHANNEL', nonce: 'n1', args: {} }], 11, 'f2'));
    log.addWire(wire('sent', [1, { cmd: 'GET_CHANNEL', nonce: 'n1', evt: null, data: { id: '5' } }], 14.5));
    expect(log.entries).toHaveLength(2);
    expect(log.entries[0]).toMatchObject({
      kind: 'command',
      name: 'GET_CHANNEL',
      reply: { id: '5' },
      duration_ms: 4.5,
    });
    // The other frame's command with the same nonce is still waiting.
    expect(log.entries[1]).toMatchObject({ frame_id: 'f2', duration_ms: null });
  });

  it('keeps an ERROR answer with its numeric code, and a CLOSE with its code', () => {
    const log = new RpcLog();
    log.addWire(wire('received', [1, { cmd: 'GET_CHANNEL', nonce: 'n', args: {} }]));
    log.addWire(
      wire('sent', [1, { cmd: 'GET_CHANNEL', nonce: 'n', evt: 'ERROR', data: { code: 4005, message: 'x' } }]),
    );
    log.addWire(wire('sent', [2, { code: 1000, message: 'closed' }]));
    expect(log.entries[0].error).toEqual({ code: 4005, message: 'x' });
    expect(log.entries[1]).toMatchObject({ kind: 'close', payload: { code: 1000 } });
  });

  it('an event names the SUBSCRIBE it answers', () => {
    const log = new RpcLog();
    log.addWire(
      wire('received', [1, { cmd: 'SUBSCRIBE', evt: 'SPEAKING_START', nonce: 's', args: { channel_id: '9' } }]),
    );
    log.addWire(wire('sent', [1, { cmd: 'DISPATCH', evt: 'SPEAKING_START', nonce: null, data: { user_id: '2' } }]));
    expect(log.entries[1]).toMatchObject({
      kind: 'event',
      name: 'SPEAKING_START',
      subscription: { n: log.entries[0].n, args: { channel_id: '9' } },
    });
  });

  it('redacts credentials: tokens, AUTHORIZE codes, secrets in a proxied query', () => {
    const log = new RpcLog();
    log.addWire(wire('received', [1, { cmd: 'AUTHENTICATE', nonce: 'a', args: { access_token: 'secret-token' } }]));
    log.addWire(
      wire('sent', [1, { cmd: 'AUTHENTICATE', nonce: 'a', evt: null, data: { access_token: 'secret-token' } }]),
    );
    log.addWire(wire('received', [1, { cmd: 'AUTHORIZE', nonce: 'b', args: { client_id: '1' } }]));
    log.addWire(wire('sent', [1, { cmd: 'AUTHORIZE', nonce: 'b', evt: null, data: { code: 'the-code' } }]));
    log.addProxied({
      type: 'proxied-request',
      frame_id: 'f1',
      method: 'POST',
      path: '/.proxy/api/token?client_secret=s3cret&x=1',
      target: 'https://example.test/api/token',
      status: 200,
      duration_ms: 3,
      at: Date.now(),
    });
    const text = log.toJson();
    expect(text).not.toMatch(/secret-token|the-code|s3cret/);
    expect(log.entries[2].name).toBe('POST /.proxy/api/token?client_secret=%5Bredacted%5D&x=1');
  });

  it(`keeps the last ${RPC_LOG_MAX} entries, numbered on`, () => {
    const log = new RpcLog();
    for (let i = 0; i < RPC_LOG_MAX + 5; i++)
      log.addWire(wire('received', [0, { v: 1, client_id: '1', frame_id: 'f1' }]));
    expect(log.entries).toHaveLength(RPC_LOG_MAX);
    expect(log.entries[0].n).toBe(6);
  });

  it('filters by kind and by name, in any case', () => {
    const log = new RpcLog();
    log.addWire(wire('received', [0, { v: 1 }]));
    log.addWire(wire('received', [1, { cmd: 'GET_PLATFORM_BEHAVIORS', nonce: 'p' }]));
    expect(log.filtered({ kinds: new Set(['command']), text: '' }).map((e) => e.name)).toEqual([
      'GET_PLATFORM_BEHAVIORS',
    ]);
    expect(log.filtered({ kinds: new Set(['command', 'handshake']), text: 'platform_b' })).toHaveLength(1);
  });
});

describe('every player in one tab: ?as= names the players', () => {
  it('splits on commas, keeps known users once, and reports the unknown', () => {
    const users = ['alice', 'bob', 'chen'];
    expect(playersOf(null, users)).toEqual({ players: ['alice'], unknown: [] });
    expect(playersOf('alice,bob,alice', users)).toEqual({ players: ['alice', 'bob'], unknown: [] });
    expect(playersOf('bob, zed', users)).toEqual({ players: ['bob'], unknown: ['zed'] });
  });
});
