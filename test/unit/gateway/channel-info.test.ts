// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { VOICE_CHANNEL_STATUS_MAX } from '../../../src/platform/core/limits';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { createGatewayHarness, type GatewayHarness } from './gateway-harness';

/** A guild where the bot may set voice statuses (SET_VOICE_CHANNEL_STATUS and MANAGE_CHANNELS). */
async function setup(
  h: GatewayHarness,
  permissions = PERMISSIONS.SET_VOICE_CHANNEL_STATUS | PERMISSIONS.MANAGE_CHANNELS,
) {
  const { guild, channels } = await h.guildWithBot();
  const role = (
    await h.api.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'voice', permissions: String(permissions) })
  ).body.role;
  await h.api.put(`/sandbox/guilds/${guild.id}/members/${h.world.bot.id}`, { roles: [role.id] });
  const voice = channels.find((c: any) => c.type === 2);
  const text = channels.find((c: any) => c.type === 0);
  return { guild, voice, text };
}

describe('Request Channel Info (opcode 43) and voice channel status', () => {
  it('answers CHANNEL_INFO with the requested ephemeral fields of the voice channels', async () => {
    const h = await createGatewayHarness();
    await h.api.put('/sandbox/clock', { now: '2026-01-01T00:00:00.000Z' });
    const { guild, voice } = await setup(h);
    expect(
      (await h.api.put(`/api/v10/channels/${voice.id}/voice-status`, { status: 'Raid night' }, h.world.botAuth)).status,
    ).toBe(204);
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    bot.send({ op: 43, d: { guild_id: guild.id, fields: ['status', 'voice_start_time'] } });
    const info = await bot.waitForDispatch('CHANNEL_INFO');
    expect(info.d).toEqual({
      guild_id: guild.id,
      channels: [
        { id: voice.id, status: 'Raid night', voice_start_time: Date.parse('2026-01-01T00:00:00.000Z') / 1000 },
      ],
    });
    bot.send({ op: 43, d: { guild_id: guild.id, fields: ['status'] } });
    const only = await bot.waitFor((p) => p.t === 'CHANNEL_INFO' && p.s !== info.s);
    expect(only.d.channels).toEqual([{ id: voice.id, status: 'Raid night' }]);
  });

  it('never puts status or voice_start_time on the channel object', async () => {
    const h = await createGatewayHarness();
    const { guild, voice } = await setup(h);
    await h.api.put(`/api/v10/channels/${voice.id}/voice-status`, { status: 'busy' }, h.world.botAuth);
    const listed = (await h.api.get(`/api/v10/guilds/${guild.id}/channels`, h.world.botAuth)).body.find(
      (c: any) => c.id === voice.id,
    );
    expect(listed).not.toHaveProperty('status');
    expect(listed).not.toHaveProperty('voice_status');
    expect(listed).not.toHaveProperty('voice_start_time');
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const created = await bot.waitForDispatch('GUILD_CREATE');
    expect(created.d.channels.find((c: any) => c.id === voice.id)).not.toHaveProperty('voice_start_time');
  });

  it('dispatches VOICE_CHANNEL_STATUS_UPDATE and VOICE_CHANNEL_START_TIME_UPDATE when the fields change, and nothing when they do not', async () => {
    const h = await createGatewayHarness();
    const { guild, voice } = await setup(h);
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    await h.api.put(`/api/v10/channels/${voice.id}/voice-status`, { status: 'one' }, h.world.botAuth);
    await h.api.put(`/api/v10/channels/${voice.id}/voice-status`, { status: 'one' }, h.world.botAuth);
    await h.api.put(`/api/v10/channels/${voice.id}/voice-status`, { status: 'two' }, h.world.botAuth);
    await h.api.put(`/api/v10/channels/${voice.id}/voice-status`, { status: null }, h.world.botAuth);
    await bot.waitFor((p) => p.t === 'VOICE_CHANNEL_STATUS_UPDATE' && p.d.status === null);
    expect(bot.dispatches('VOICE_CHANNEL_STATUS_UPDATE').map((p) => p.d)).toEqual([
      { id: voice.id, guild_id: guild.id, status: 'one' },
      { id: voice.id, guild_id: guild.id, status: 'two' },
      { id: voice.id, guild_id: guild.id, status: null },
    ]);
    const starts = bot.dispatches('VOICE_CHANNEL_START_TIME_UPDATE').map((p) => p.d.voice_start_time);
    expect(starts).toHaveLength(2);
    expect(starts[0]).toBeTypeOf('number');
    expect(starts[1]).toBeNull();
  });

  it('a voice status is at most 500 characters (50035), and a failed request changes nothing', async () => {
    const h = await createGatewayHarness();
    const { voice } = await setup(h);
    const ok = await h.api.put(
      `/api/v10/channels/${voice.id}/voice-status`,
      { status: 'x'.repeat(VOICE_CHANNEL_STATUS_MAX) },
      h.world.botAuth,
    );
    expect(ok.status).toBe(204);
    const events = await h.api.db.count('events');
    const tooLong = await h.api.put(
      `/api/v10/channels/${voice.id}/voice-status`,
      { status: 'y'.repeat(VOICE_CHANNEL_STATUS_MAX + 1) },
      h.world.botAuth,
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.code).toBe(50035);
    expect(tooLong.body.errors.status._errors[0].message).toContain('500');
    expect((await h.api.db.get('channels', voice.id))!.voice_status).toBe('x'.repeat(VOICE_CHANNEL_STATUS_MAX));
    expect(await h.api.db.count('events')).toBe(events);
  });

  it('setting a voice status needs SET_VOICE_CHANNEL_STATUS, and MANAGE_CHANNELS for a bot not connected to the channel', async () => {
    for (const permissions of [PERMISSIONS.SET_VOICE_CHANNEL_STATUS, PERMISSIONS.MANAGE_CHANNELS]) {
      const h = await createGatewayHarness();
      const { voice } = await setup(h, permissions);
      const res = await h.api.put(`/api/v10/channels/${voice.id}/voice-status`, { status: 'hi' }, h.world.botAuth);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(50013);
    }
  });

  it('a voice status on a text channel is 400 (50024)', async () => {
    const h = await createGatewayHarness();
    const { text } = await setup(h);
    const res = await h.api.put(`/api/v10/channels/${text.id}/voice-status`, { status: 'hi' }, h.world.botAuth);
    expect(res.body.code).toBe(50024);
  });

  it('CHANNEL_INFO leaves out voice channels the bot cannot view', async () => {
    const h = await createGatewayHarness();
    const { guild, voice } = await setup(h);
    const hidden = (
      await h.api.post(`/sandbox/guilds/${guild.id}/channels`, {
        name: 'stage',
        type: 2,
        permission_overwrites: [{ id: guild.id, type: 0, allow: '0', deny: String(PERMISSIONS.VIEW_CHANNEL) }],
      })
    ).body.channel;
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    bot.send({ op: 43, d: { guild_id: guild.id, fields: ['status'] } });
    const info = await bot.waitForDispatch('CHANNEL_INFO');
    expect(info.d.channels.map((c: any) => c.id)).toEqual([voice.id]);
    expect(hidden.id).not.toBe(voice.id);
  });

  it('closes with 4002 for a field it does not know', async () => {
    const h = await createGatewayHarness();
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    bot.send({ op: 43, d: { guild_id: '1', fields: ['name'] } });
    expect((await bot.waitForClose()).code).toBe(4002);
  });
});
