// @vitest-environment node
/**
 * Voice and stage channel objects carry `bitrate`, `user_limit` and `rtc_region` (the platform's
 * public docs: 64 kbps for a new voice channel, 0 users for no limit, a null region chosen
 * automatically), which bot libraries read from every voice channel of a guild. The sandbox
 * stores the values it is given, within the bounds of the channel's type and the guild's boost
 * level, and refuses others with 50035 naming the field, storing nothing.
 */
import { describe, expect, it } from 'vitest';
import { createTestClient, createWorld } from '../app-harness';
import { expectInvalidField } from './lobby-fixtures';

async function guildWorld() {
  const client = await createTestClient();
  const world = await createWorld(client);
  const created = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id })).body;
  await client.put(`/sandbox/guilds/${created.guild.id}/members/${world.bot.id}`, {});
  const post = (body: Record<string, unknown>) => client.post(`/sandbox/guilds/${created.guild.id}/channels`, body);
  return { client, ...world, guild: created.guild, channels: created.channels as any[], post };
}

describe('voice channel settings on the channel object (bitrate, user_limit, rtc_region)', () => {
  it("a new guild's voice channel has bitrate 64000, user_limit 0 and rtc_region null; its text and category channels have none of them", async () => {
    const w = await guildWorld();
    const voice = w.channels.find((c) => c.type === 2);
    expect(voice).toMatchObject({ name: 'General', bitrate: 64_000, user_limit: 0, rtc_region: null });
    for (const other of w.channels.filter((c) => c.type !== 2)) {
      expect(other).not.toHaveProperty('bitrate');
      expect(other).not.toHaveProperty('user_limit');
      expect(other).not.toHaveProperty('rtc_region');
    }
    const read = await w.client.get(`/api/v10/channels/${voice.id}`, w.botAuth);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ bitrate: 64_000, user_limit: 0, rtc_region: null });
  });

  it('a voice or stage channel created with a bitrate and a user limit keeps them, as GET /guilds/{id}/channels answers', async () => {
    const w = await guildWorld();
    const voice = await w.post({ name: 'Quiet', type: 2, bitrate: 32_000, user_limit: 5 });
    expect(voice.status).toBe(201);
    expect(voice.body.channel).toMatchObject({ bitrate: 32_000, user_limit: 5 });
    const stage = await w.post({ name: 'Stage', type: 13, user_limit: 5_000 });
    expect(stage.body.channel).toMatchObject({ bitrate: 64_000, user_limit: 5_000, rtc_region: null });
    const listed = (await w.client.get(`/api/v10/guilds/${w.guild.id}/channels`, w.botAuth)).body;
    expect(listed.find((c: any) => c.id === voice.body.channel.id)).toMatchObject({ bitrate: 32_000, user_limit: 5 });
  });

  it("refuses with 50035 naming the field, storing nothing: bitrate or user_limit on a text channel, a bitrate under 8000 or over the guild's boost level (96000 at level 0), a voice user limit over 99", async () => {
    const w = await guildWorld();
    const before = await w.client.app.ctx.db.count('channels');
    expectInvalidField(await w.post({ name: 'chat', type: 0, bitrate: 64_000 }), 'bitrate');
    expectInvalidField(await w.post({ name: 'chat', type: 0, user_limit: 2 }), 'user_limit');
    expectInvalidField(await w.post({ name: 'low', type: 2, bitrate: 7_999 }), 'bitrate');
    expectInvalidField(await w.post({ name: 'high', type: 2, bitrate: 128_000 }), 'bitrate');
    expectInvalidField(await w.post({ name: 'full', type: 2, user_limit: 100 }), 'user_limit');
    expectInvalidField(await w.post({ name: 'full', type: 13, user_limit: 10_001 }), 'user_limit');
    expectInvalidField(await w.post({ name: 'odd', type: 2, bitrate: 64_000.5 }), 'bitrate');
    expect(await w.client.app.ctx.db.count('channels')).toBe(before);
  });

  it('a guild at boost level 1 takes 128000 but not 256000; at level 3, 384000', async () => {
    const w = await guildWorld();
    await w.client.put(`/sandbox/guilds/${w.guild.id}/premium-tier`, { premium_tier: 1 });
    expect((await w.post({ name: 'hq', type: 2, bitrate: 128_000 })).status).toBe(201);
    expectInvalidField(await w.post({ name: 'hq', type: 2, bitrate: 256_000 }), 'bitrate');
    await w.client.put(`/sandbox/guilds/${w.guild.id}/premium-tier`, { premium_tier: 3 });
    expect((await w.post({ name: 'hq', type: 2, bitrate: 384_000 })).body.channel.bitrate).toBe(384_000);
  });
});
