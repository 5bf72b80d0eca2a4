// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { COMMANDS, OPCODES } from '../../../src/rpc/protocol';
import { ACTIVITY_ORIGIN, createActivity, createRpcWorld, participant } from './rpc-harness';

async function setup() {
  const world = await createRpcWorld();
  const activity = createActivity(world.client, {
    applicationId: world.application.id,
    user: participant(world.alice),
    guildId: world.guild.id,
    channelId: world.text.id,
  });
  return { world, activity };
}

describe('RPC host: who is answered (CONTRACT §5)', () => {
  it('answers only the window of the iframe it created: a message from another window is dropped unanswered', async () => {
    const { activity } = await setup();
    const accepted = activity.post(
      [OPCODES.HANDSHAKE, { v: 1, client_id: activity.frame.application_id, frame_id: activity.frame.frame_id }],
      { source: { name: 'another window' } },
    );
    expect(accepted).toBe(false);
    expect(activity.drops).toEqual(['source']);
    expect(activity.sent).toEqual([]);
  });

  it('answers only the expected origin: a message from the iframe window with another origin is dropped unanswered', async () => {
    const { activity } = await setup();
    for (const origin of ['https://evil.example', 'null', ACTIVITY_ORIGIN.replace('http:', 'https:')]) {
      activity.post(
        [OPCODES.HANDSHAKE, { v: 1, client_id: activity.frame.application_id, frame_id: activity.frame.frame_id }],
        { origin },
      );
    }
    expect(activity.drops).toEqual(['origin', 'origin', 'origin']);
    expect(activity.sent).toEqual([]);
  });

  it('drops anything that is not an [opcode, payload] tuple', async () => {
    const { activity } = await setup();
    for (const data of ['hello', { op: 0 }, [0], ['0', {}], [9, {}], null]) activity.post(data);
    expect(activity.drops).toEqual(['shape', 'shape', 'shape', 'shape', 'shape', 'shape']);
    expect(activity.sent).toEqual([]);
  });
});

describe('RPC host: handshake', () => {
  it('answers a HANDSHAKE {v: 1, encoding: json, client_id, frame_id} with a READY dispatch', async () => {
    const { activity, world } = await setup();
    const ready = activity.handshake({ sdk_version: '2.5.0' });
    expect(ready).toEqual([
      OPCODES.FRAME,
      {
        cmd: 'DISPATCH',
        evt: 'READY',
        nonce: null,
        data: {
          v: 1,
          config: { api_endpoint: '//platform.test/api', environment: 'sandbox' },
          user: { id: world.alice.id, username: 'alice', discriminator: '0' },
        },
      },
    ]);
  });

  it('closes with 4000 (invalid client id) when client_id is not the frame application', async () => {
    const { activity } = await setup();
    const reply = activity.handshake({ client_id: '12345' });
    expect(reply?.[0]).toBe(OPCODES.CLOSE);
    expect(reply?.[1]).toMatchObject({ code: 4000 });
  });

  it('closes with 1003 naming the field when the handshake is malformed or of another version', async () => {
    const { activity } = await setup();
    const reply = activity.handshake({ v: 2 });
    expect(reply).toEqual([OPCODES.CLOSE, { code: 1003, message: 'Invalid payload: handshake.v: Must be 1.' }]);
    const noFrame = activity.handshake({ frame_id: undefined });
    expect((noFrame?.[1] as { message: string }).message).toContain('handshake.frame_id');
  });

  it('refuses commands before the handshake with 4006', async () => {
    const { activity } = await setup();
    const reply = await activity.command('GET_PLATFORM_BEHAVIORS');
    expect(reply).toMatchObject({ cmd: 'GET_PLATFORM_BEHAVIORS', evt: 'ERROR', data: { code: 4006 } });
    expect(reply.data.message).toMatch(/HANDSHAKE/);
  });

  it('tells the host page when the activity sends CLOSE', async () => {
    const { activity } = await setup();
    activity.handshake();
    activity.post([OPCODES.CLOSE, { code: 1000, message: 'bye' }]);
    expect(activity.closes).toEqual([{ code: 1000, message: 'bye' }]);
  });

  it('a new handshake starts a new session: the earlier AUTHENTICATE no longer counts', async () => {
    const { activity, world } = await setup();
    activity.handshake();
    await activity.authenticate(world.aliceTokens.access_token);
    expect((await activity.command('GET_PLATFORM_BEHAVIORS')).evt).toBeNull();
    activity.handshake();
    expect((await activity.command('GET_PLATFORM_BEHAVIORS')).data.code).toBe(4006);
  });
});

describe('RPC host: commands', () => {
  it('replies echo cmd and nonce, with evt null and data', async () => {
    const { activity, world } = await setup();
    activity.handshake();
    await activity.authenticate(world.aliceTokens.access_token);
    const nonce = 'n-123';
    activity.post([OPCODES.FRAME, { cmd: 'GET_PLATFORM_BEHAVIORS', args: {}, nonce }]);
    await new Promise((r) => setTimeout(r, 10));
    expect(activity.sent.at(-1)).toEqual([
      OPCODES.FRAME,
      { cmd: 'GET_PLATFORM_BEHAVIORS', nonce, evt: null, data: { iosKeyboardResizesView: false } },
    ]);
  });

  it('an unknown command is ERROR 4002', async () => {
    const { activity } = await setup();
    activity.handshake();
    const reply = await activity.command('SELECT_VOICE_CHANNEL', {});
    expect(reply).toMatchObject({ cmd: 'SELECT_VOICE_CHANNEL', evt: 'ERROR', data: { code: 4002 } });
  });

  it('a FRAME without a nonce is ERROR 4000 naming frame.nonce (with a null nonce)', async () => {
    const { activity } = await setup();
    activity.handshake();
    activity.post([OPCODES.FRAME, { cmd: 'GET_PLATFORM_BEHAVIORS', args: {} }]);
    await new Promise((r) => setTimeout(r, 10));
    expect(activity.sent.at(-1)).toEqual([
      OPCODES.FRAME,
      {
        cmd: 'GET_PLATFORM_BEHAVIORS',
        nonce: null,
        evt: 'ERROR',
        data: { code: 4000, message: expect.stringContaining('frame.nonce') },
      },
    ]);
  });

  it('every command other than AUTHORIZE, AUTHENTICATE and CAPTURE_LOG needs an authenticated session (4006)', async () => {
    const { activity } = await setup();
    activity.handshake();
    for (const cmd of COMMANDS.filter((c) => !['AUTHORIZE', 'AUTHENTICATE', 'CAPTURE_LOG'].includes(c))) {
      const reply = await activity.command(
        cmd,
        {},
        cmd.endsWith('SUBSCRIBE') ? 'ACTIVITY_LAYOUT_MODE_UPDATE' : undefined,
      );
      expect(reply.data.code, cmd).toBe(4006);
      expect(reply.data.message, cmd).toMatch(/AUTHENTICATE/);
    }
  });

  it('a bad payload is ERROR 4000 naming the field', async () => {
    const { activity, world } = await setup();
    activity.handshake();
    await activity.authenticate(world.aliceTokens.access_token);
    const reply = await activity.command('GET_CHANNEL', { channel_id: true });
    expect(reply.data).toEqual({
      code: 4000,
      message: 'Invalid payload: args.channel_id: Value must be a snowflake string.',
    });
  });

  it('an id may be a number, as the platform takes it; one beyond 2^53 lost its digits in the frame and is ERROR 4000 saying so', async () => {
    const { activity, world } = await setup();
    activity.handshake();
    await activity.authenticate(world.aliceTokens.access_token);
    const reply = await activity.command('GET_CHANNEL', { channel_id: 1311830588542947409 });
    expect(reply.data).toEqual({
      code: 4000,
      message:
        'Invalid payload: args.channel_id: Value is not snowflake: a number beyond 2^53 lost its digits, send it as a string.',
    });
  });

  it('a bug in a handler is ERROR 1000 and logged without the token', async () => {
    const world = await createRpcWorld();
    const logged: string[] = [];
    const activity = createActivity(world.client, {
      applicationId: world.application.id,
      user: participant(world.alice),
      guildId: world.guild.id,
      channelId: world.text.id,
      ui: {
        hardwareAcceleration: async () => {
          throw new Error(`broken with Bearer ${world.aliceTokens.access_token}`);
        },
      },
      log: (line) => void logged.push(line),
    });
    activity.handshake();
    await activity.authenticate(world.aliceTokens.access_token);
    const reply = await activity.command('ENCOURAGE_HW_ACCELERATION');
    expect(reply.data).toEqual({ code: 1000, message: 'Unknown error' });
    expect(logged.join('\n')).toContain('broken');
    expect(logged.join('\n')).not.toContain(world.aliceTokens.access_token);
  });
});
