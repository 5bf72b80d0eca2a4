// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { RpcError, RpcTimeoutError } from '../../../src/activity';
import { OPCODES } from '../../../src/rpc/protocol';
import { createSdk, HOST_ORIGIN } from './sdk-harness';

const READY = [
  OPCODES.FRAME,
  {
    cmd: 'DISPATCH',
    evt: 'READY',
    nonce: null,
    data: { v: 1, config: { api_endpoint: '/api', environment: 'sandbox' } },
  },
];

describe('activity SDK: handshake and READY', () => {
  it('reads frame_id, instance_id, platform, guild_id, channel_id, location_id and custom_id from the URL', () => {
    const { sdk } = createSdk({
      search:
        '?frame_id=f9&instance_id=i-9&platform=mobile&guild_id=3&channel_id=4&location_id=gc-3-4&custom_id=level-2',
    });
    expect([
      sdk.frameId,
      sdk.instanceId,
      sdk.platform,
      sdk.guildId,
      sdk.channelId,
      sdk.locationId,
      sdk.customId,
    ]).toEqual(['f9', 'i-9', 'mobile', '3', '4', 'gc-3-4', 'level-2']);
  });

  it('refuses to start without the frame parameters, saying where they come from', () => {
    expect(() => createSdk({ search: '?instance_id=i&platform=desktop' })).toThrow(
      /frame_id is missing.*<pp-activity-frame>/,
    );
    expect(() => createSdk({ search: '?frame_id=f&instance_id=i&platform=tv' })).toThrow(
      /platform must be "desktop" or "mobile"/,
    );
  });

  it('sends HANDSHAKE {v: 1, encoding: json, client_id, frame_id, sdk_version} to the host origin', () => {
    const { posted } = createSdk({ clientId: '777' });
    expect(posted).toEqual([
      {
        data: [
          OPCODES.HANDSHAKE,
          { v: 1, encoding: 'json', client_id: '777', frame_id: 'f1', sdk_version: expect.any(String) },
        ],
        targetOrigin: HOST_ORIGIN,
      },
    ]);
  });

  it('ready() resolves with READY data', async () => {
    const { sdk, fromHost } = createSdk();
    fromHost(READY);
    await expect(sdk.ready()).resolves.toMatchObject({ v: 1 });
    expect(sdk.isReady).toBe(true);
  });

  it('ready() settles: without READY it rejects after the timeout, saying what it waited for and why', async () => {
    const { sdk } = createSdk({ sdk: { readyTimeoutMs: 20 } });
    const error = await sdk.ready().catch((e) => e);
    expect(error).toBeInstanceOf(RpcTimeoutError);
    expect(error.message).toBe(
      'no READY from the host after 0.02 s: is this page inside <pp-activity-frame>, with this client id as its application-id?',
    );
  });

  it('a CLOSE from the host rejects ready() with its code', async () => {
    const { sdk, fromHost } = createSdk();
    fromHost([OPCODES.CLOSE, { code: 4000, message: 'Invalid client id' }]);
    const error = await sdk.ready().catch((e) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error.code).toBe(4000);
  });

  it('ignores messages from another window or another origin', async () => {
    const { sdk, fromHost } = createSdk({ sdk: { readyTimeoutMs: 50 } });
    fromHost(READY, { source: {} });
    fromHost(READY, { origin: 'https://evil.example' });
    await expect(sdk.ready()).rejects.toBeInstanceOf(RpcTimeoutError);
  });
});

describe('activity SDK: commands', () => {
  it('a command sends {cmd, args, nonce} and resolves with the reply data', async () => {
    const { sdk, fromHost, posted } = createSdk({
      toHost: (data) => {
        if (data[0] === OPCODES.FRAME)
          queueMicrotask(() =>
            fromHost([OPCODES.FRAME, { cmd: data[1].cmd, nonce: data[1].nonce, evt: null, data: { locale: 'fr-FR' } }]),
          );
      },
    });
    fromHost(READY);
    await expect(sdk.commands.userSettingsGetLocale()).resolves.toEqual({ locale: 'fr-FR' });
    expect(posted[1].data).toEqual([
      OPCODES.FRAME,
      { cmd: 'USER_SETTINGS_GET_LOCALE', args: undefined, nonce: expect.any(String) },
    ]);
  });

  it('an ERROR reply rejects with RpcError(code, message, cmd)', async () => {
    const { sdk, fromHost } = createSdk({
      toHost: (data) => {
        if (data[0] === OPCODES.FRAME)
          queueMicrotask(() =>
            fromHost([
              OPCODES.FRAME,
              {
                cmd: data[1].cmd,
                nonce: data[1].nonce,
                evt: 'ERROR',
                data: { code: 4006, message: 'Not authenticated or invalid scope' },
              },
            ]),
          );
      },
    });
    fromHost(READY);
    const error = await sdk.commands.getChannel({ channel_id: '1' }).catch((e) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect([error.code, error.cmd, error.message]).toEqual([4006, 'GET_CHANNEL', 'Not authenticated or invalid scope']);
  });

  it('every command settles: silence rejects after the timeout naming the command and why it may hang', async () => {
    const { sdk, fromHost } = createSdk({ sdk: { commandTimeoutMs: 20, authorizeTimeoutMs: 30 } });
    fromHost(READY);
    const error = await sdk.commands.getPlatformBehaviors().catch((e) => e);
    expect(error).toBeInstanceOf(RpcTimeoutError);
    expect(error.message).toMatch(
      /^no reply to GET_PLATFORM_BEHAVIORS from the host after 0.02 s: the host may not be listening/,
    );
    const authorize = await sdk.commands.authorize({ client_id: '100', scope: ['identify'] }).catch((e) => e);
    expect(authorize.message).toMatch(/AUTHORIZE .* the consent dialog may still be open in the host page/);
  });

  it('a command waits for READY: if READY never comes it rejects with the READY timeout', async () => {
    const { sdk } = createSdk({ sdk: { readyTimeoutMs: 20 } });
    await expect(sdk.commands.getSkus()).rejects.toMatchObject({ awaited: 'READY' });
  });

  it('a CLOSE rejects the commands still waiting', async () => {
    const { sdk, fromHost } = createSdk();
    fromHost(READY);
    const pending = sdk.commands.getSkus().catch((e) => e);
    await Promise.resolve();
    fromHost([OPCODES.CLOSE, { code: 1000, message: 'bye' }]);
    expect(await pending).toMatchObject({ code: 1000, cmd: 'CLOSE' });
  });
});

describe('activity SDK: events', () => {
  it('subscribe sends one SUBSCRIBE per event and arguments; listeners get DISPATCHes; the last unsubscribe sends UNSUBSCRIBE', async () => {
    const { sdk, fromHost, posted } = createSdk({
      toHost: (data) => {
        if (data[0] === OPCODES.FRAME)
          queueMicrotask(() =>
            fromHost([
              OPCODES.FRAME,
              { cmd: data[1].cmd, nonce: data[1].nonce, evt: null, data: { evt: data[1].evt } },
            ]),
          );
      },
    });
    fromHost(READY);
    const a: unknown[] = [];
    const b: unknown[] = [];
    const stopA = await sdk.subscribe('ACTIVITY_LAYOUT_MODE_UPDATE', (d) => a.push(d));
    const stopB = await sdk.subscribe('ACTIVITY_LAYOUT_MODE_UPDATE', (d) => b.push(d));
    fromHost([
      OPCODES.FRAME,
      { cmd: 'DISPATCH', evt: 'ACTIVITY_LAYOUT_MODE_UPDATE', nonce: null, data: { layout_mode: 1 } },
    ]);
    await stopA();
    await stopB();
    const frames = posted
      .map((p) => p.data)
      .filter((m) => m[0] === OPCODES.FRAME)
      .map((m) => [m[1].cmd, m[1].evt]);
    expect(frames).toEqual([
      ['SUBSCRIBE', 'ACTIVITY_LAYOUT_MODE_UPDATE'],
      ['UNSUBSCRIBE', 'ACTIVITY_LAYOUT_MODE_UPDATE'],
    ]);
    expect(a).toEqual([{ layout_mode: 1 }]);
    expect(b).toEqual([{ layout_mode: 1 }]);
  });

  it('listeners are routed by subscription (event and arguments): a VOICE_STATE_UPDATE listener of channel A hears nothing of channel B', async () => {
    const { sdk, fromHost, posted } = createSdk({
      toHost: (data) => {
        if (data[0] === OPCODES.FRAME)
          queueMicrotask(() =>
            fromHost([
              OPCODES.FRAME,
              { cmd: data[1].cmd, nonce: data[1].nonce, evt: null, data: { evt: data[1].evt } },
            ]),
          );
      },
    });
    fromHost(READY);
    const heard: Record<string, string[]> = { a: [], b: [], speakingA: [], lobby: [] };
    await sdk.subscribe('VOICE_STATE_UPDATE', (d) => heard.a.push(d.user.id), { channel_id: 'A' });
    await sdk.subscribe('VOICE_STATE_UPDATE', (d) => heard.b.push(d.user.id), { channel_id: 'B' });
    await sdk.subscribe('SPEAKING_START', (d) => heard.speakingA.push(d.user_id), { channel_id: 'A' });
    await sdk.subscribe('SPEAKING_START', (d) => heard.lobby.push(d.user_id), { lobby_id: 'L', channel_id: null });
    const voice = (channel: string, user: string) => ({
      voice_state: {},
      user: { id: user },
      nick: '',
      volume: 100,
      mute: false,
      channel_id: channel,
    });
    fromHost([OPCODES.FRAME, { cmd: 'DISPATCH', evt: 'VOICE_STATE_UPDATE', nonce: null, data: voice('A', 'u1') }]);
    fromHost([OPCODES.FRAME, { cmd: 'DISPATCH', evt: 'VOICE_STATE_UPDATE', nonce: null, data: voice('B', 'u2') }]);
    fromHost([
      OPCODES.FRAME,
      { cmd: 'DISPATCH', evt: 'SPEAKING_START', nonce: null, data: { channel_id: 'A', user_id: 'u3' } },
    ]);
    fromHost([
      OPCODES.FRAME,
      { cmd: 'DISPATCH', evt: 'SPEAKING_START', nonce: null, data: { lobby_id: 'L', user_id: 'u4' } },
    ]);
    expect(heard).toEqual({ a: ['u1'], b: ['u2'], speakingA: ['u3'], lobby: ['u4'] });
    // One SUBSCRIBE per event and arguments, with the arguments as given.
    const subscribes = posted
      .map((p) => p.data)
      .filter((m) => m[0] === OPCODES.FRAME && m[1].cmd === 'SUBSCRIBE')
      .map((m) => [m[1].evt, m[1].args]);
    expect(subscribes).toEqual([
      ['VOICE_STATE_UPDATE', { channel_id: 'A' }],
      ['VOICE_STATE_UPDATE', { channel_id: 'B' }],
      ['SPEAKING_START', { channel_id: 'A' }],
      ['SPEAKING_START', { lobby_id: 'L', channel_id: null }],
    ]);
  });

  it('GUILD_STATUS and CURRENT_GUILD_MEMBER_UPDATE reach only the listeners of their guild', async () => {
    const { sdk, fromHost } = createSdk({
      toHost: (data) => {
        if (data[0] === OPCODES.FRAME)
          queueMicrotask(() =>
            fromHost([
              OPCODES.FRAME,
              { cmd: data[1].cmd, nonce: data[1].nonce, evt: null, data: { evt: data[1].evt } },
            ]),
          );
      },
    });
    fromHost(READY);
    const status: string[] = [];
    const member: string[] = [];
    await sdk.subscribe('GUILD_STATUS', (d) => status.push(`1:${d.guild.id}`), { guild_id: '1' });
    await sdk.subscribe('GUILD_STATUS', (d) => status.push(`2:${d.guild.id}`), { guild_id: '2' });
    await sdk.subscribe('CURRENT_GUILD_MEMBER_UPDATE', (d) => member.push(`1:${d.guild_id}`), { guild_id: '1' });
    fromHost([
      OPCODES.FRAME,
      {
        cmd: 'DISPATCH',
        evt: 'GUILD_STATUS',
        nonce: null,
        data: { guild: { id: '2', name: 'g', icon_url: null }, online: 1 },
      },
    ]);
    fromHost([
      OPCODES.FRAME,
      { cmd: 'DISPATCH', evt: 'CURRENT_GUILD_MEMBER_UPDATE', nonce: null, data: { guild_id: '2', user_id: 'u' } },
    ]);
    fromHost([
      OPCODES.FRAME,
      { cmd: 'DISPATCH', evt: 'CURRENT_GUILD_MEMBER_UPDATE', nonce: null, data: { guild_id: '1', user_id: 'u' } },
    ]);
    expect(status).toEqual(['2:2']);
    expect(member).toEqual(['1:1']);
  });

  it('an ERROR without a nonce reaches on("error")', () => {
    const { sdk, fromHost } = createSdk();
    const errors: RpcError[] = [];
    sdk.on('error', (e) => errors.push(e));
    fromHost([
      OPCODES.FRAME,
      { cmd: 'GET_CHANNEL', nonce: null, evt: 'ERROR', data: { code: 4000, message: 'Invalid payload' } },
    ]);
    expect(errors.map((e) => e.code)).toEqual([4000]);
  });
});
