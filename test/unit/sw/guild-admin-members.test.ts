// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { createTestClient } from '../app-harness';
import { GIF, PERMISSIONS, eventsOf, guildWorld, otherBot, PNG } from './guild-admin-fixtures';

const BYPASSES_VERIFICATION = 1 << 2;

describe('PATCH /guilds/{guild.id}/members/{user.id}: permissions to modify flags (public docs: MANAGE_GUILD or MANAGE_ROLES or MODERATE_MEMBERS+KICK_MEMBERS+BAN_MEMBERS)', () => {
  for (const [name, bits] of [
    ['MANAGE_GUILD', PERMISSIONS.MANAGE_GUILD],
    ['MANAGE_ROLES', PERMISSIONS.MANAGE_ROLES],
    [
      'MODERATE_MEMBERS, KICK_MEMBERS and BAN_MEMBERS',
      PERMISSIONS.MODERATE_MEMBERS | PERMISSIONS.KICK_MEMBERS | PERMISSIONS.BAN_MEMBERS,
    ],
  ] as const) {
    it(`${name} may set flags, and the change emits GUILD_MEMBER_UPDATE`, async () => {
      const client = await createTestClient();
      const w = await guildWorld(client, bits);
      const res = await client.patch(
        `/api/v10/guilds/${w.guild.id}/members/${w.bob.id}`,
        { flags: BYPASSES_VERIFICATION },
        w.botAuth,
      );
      expect(res.status).toBe(200);
      expect(res.body.flags).toBe(BYPASSES_VERIFICATION);
      const [event] = await eventsOf(client, 'GUILD_MEMBER_UPDATE').then((e) =>
        e.filter((x) => (x.data as any).flags === BYPASSES_VERIFICATION),
      );
      expect(event.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_MEMBERS });
    });
  }

  for (const [name, bits] of [
    ['MODERATE_MEMBERS and KICK_MEMBERS without BAN_MEMBERS', PERMISSIONS.MODERATE_MEMBERS | PERMISSIONS.KICK_MEMBERS],
    ['MODERATE_MEMBERS and BAN_MEMBERS without KICK_MEMBERS', PERMISSIONS.MODERATE_MEMBERS | PERMISSIONS.BAN_MEMBERS],
    ['KICK_MEMBERS and BAN_MEMBERS without MODERATE_MEMBERS', PERMISSIONS.KICK_MEMBERS | PERMISSIONS.BAN_MEMBERS],
    ['MANAGE_NICKNAMES alone', PERMISSIONS.MANAGE_NICKNAMES],
  ] as const) {
    it(`${name} may not (50013), and nothing changes`, async () => {
      const client = await createTestClient();
      const w = await guildWorld(client, bits);
      const res = await client.patch(
        `/api/v10/guilds/${w.guild.id}/members/${w.bob.id}`,
        { flags: BYPASSES_VERIFICATION },
        w.botAuth,
      );
      expect([res.status, res.body.code]).toEqual([403, 50013]);
      expect((await client.db.get('members', [w.guild.id, w.bob.id]))!.flags).toBe(0);
    });
  }

  it("only the editable flag (BYPASSES_VERIFICATION) changes; the platform's own bits are kept", async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_GUILD);
    const stored = await client.db.get('members', [w.guild.id, w.bob.id]);
    await client.db.put('members', { ...stored!, flags: 1 << 1 });
    const res = await client.patch(
      `/api/v10/guilds/${w.guild.id}/members/${w.bob.id}`,
      { flags: BYPASSES_VERIFICATION | (1 << 0) },
      w.botAuth,
    );
    expect(res.body.flags).toBe((1 << 1) | BYPASSES_VERIFICATION);
  });
});

describe('PATCH /guilds/{guild.id}/members/{user.id}: the other fields', () => {
  it('nick needs MANAGE_NICKNAMES and a member below the bot; roles need MANAGE_ROLES and roles below the bot', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_ROLES);
    const path = `/api/v10/guilds/${w.guild.id}/members/${w.bob.id}`;
    expect((await client.patch(path, { nick: 'Bobby' }, w.botAuth)).body.code).toBe(50013);
    const roles = await client.patch(path, { roles: [w.memberRole.id] }, w.botAuth);
    expect(roles.body.roles).toEqual([w.memberRole.id]);
    expect((await client.patch(path, { roles: [w.highRole.id] }, w.botAuth)).body.code).toBe(50013);
    expect((await client.patch(path, { roles: ['1'] }, w.botAuth)).body.errors.roles['0']).toBeDefined();
    expect(
      (await client.patch(`/api/v10/guilds/${w.guild.id}/members/${w.alice.id}`, { roles: [] }, w.botAuth)).body.code,
    ).toBe(50013);
    const nicks = await otherBot(client, w.guild.id, PERMISSIONS.MANAGE_NICKNAMES);
    // The other bot's role is the newest, so the highest: bob is below it.
    expect((await client.patch(path, { nick: 'Bobby' }, nicks.auth)).body.nick).toBe('Bobby');
    expect((await client.patch(path, { nick: null }, nicks.auth)).body.nick).toBeNull();
  });

  it('communication_disabled_until needs MODERATE_MEMBERS, at most 28 days ahead, never on the owner', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MODERATE_MEMBERS);
    await client.put('/sandbox/clock', { now: '2026-05-01T00:00:00.000Z' });
    const path = `/api/v10/guilds/${w.guild.id}/members/${w.bob.id}`;
    const ok = await client.patch(path, { communication_disabled_until: '2026-05-29T00:00:00.000Z' }, w.botAuth);
    expect(ok.body.communication_disabled_until).toBe('2026-05-29T00:00:00.000Z');
    expect(
      (await client.patch(path, { communication_disabled_until: '2026-05-29T00:00:00.001Z' }, w.botAuth)).body.code,
    ).toBe(50035);
    expect(
      (await client.patch(path, { communication_disabled_until: null }, w.botAuth)).body.communication_disabled_until,
    ).toBeNull();
    expect(
      (
        await client.patch(
          `/api/v10/guilds/${w.guild.id}/members/${w.alice.id}`,
          { communication_disabled_until: '2026-05-02T00:00:00.000Z' },
          w.botAuth,
        )
      ).body.code,
    ).toBe(50013);
  });

  it('mute and deaf need MUTE_MEMBERS / DEAFEN_MEMBERS and a member in voice (400 40032); the voice state follows', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MUTE_MEMBERS);
    const path = `/api/v10/guilds/${w.guild.id}/members/${w.bob.id}`;
    const notInVoice = await client.patch(path, { mute: true }, w.botAuth);
    expect([notInVoice.status, notInVoice.body.code]).toEqual([400, 40032]);
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bob.id}`, { channel_id: w.voice.id });
    expect((await client.patch(path, { deaf: true }, w.botAuth)).body.code).toBe(50013);
    const muted = await client.patch(path, { mute: true }, w.botAuth);
    expect(muted.body.mute).toBe(true);
    expect((await client.get(`/api/v10/guilds/${w.guild.id}/voice-states/${w.bob.id}`, w.botAuth)).body.mute).toBe(
      true,
    );
    expect((await eventsOf(client, 'VOICE_STATE_UPDATE')).at(-1)!.data).toMatchObject({
      user_id: w.bob.id,
      mute: true,
    });
  });

  it('channel_id moves a member in voice (MOVE_MEMBERS and CONNECT); null disconnects them', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MOVE_MEMBERS);
    const second = (await client.post(`/sandbox/guilds/${w.guild.id}/channels`, { name: 'Second', type: 2 })).body
      .channel;
    const path = `/api/v10/guilds/${w.guild.id}/members/${w.bob.id}`;
    expect((await client.patch(path, { channel_id: second.id }, w.botAuth)).body.code).toBe(40032);
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bob.id}`, { channel_id: w.voice.id });
    expect((await client.patch(path, { channel_id: w.text.id }, w.botAuth)).body.code).toBe(50035);
    expect((await client.patch(path, { channel_id: second.id }, w.botAuth)).status).toBe(200);
    expect(
      (await client.get(`/api/v10/guilds/${w.guild.id}/voice-states/${w.bob.id}`, w.botAuth)).body.channel_id,
    ).toBe(second.id);
    await client.patch(path, { channel_id: null }, w.botAuth);
    expect((await client.get(`/api/v10/guilds/${w.guild.id}/voice-states/${w.bob.id}`, w.botAuth)).body.code).toBe(
      10065,
    );
    expect((await eventsOf(client, 'VOICE_STATE_UPDATE')).map((e) => (e.data as any).channel_id)).toEqual([
      w.voice.id,
      second.id,
      null,
    ]);
  });

  it('a request that fails on one field changes none of them', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_GUILD);
    const res = await client.patch(
      `/api/v10/guilds/${w.guild.id}/members/${w.bob.id}`,
      { flags: BYPASSES_VERIFICATION, nick: 'x' },
      w.botAuth,
    );
    expect(res.body.code).toBe(50013);
    expect(await client.db.get('members', [w.guild.id, w.bob.id])).toMatchObject({ flags: 0, nick: null });
    expect(await eventsOf(client, 'GUILD_MEMBER_UPDATE')).toEqual([]);
  });
});

describe('PATCH /guilds/{guild.id}/members/@me (spec: bots can set banner, avatar and bio)', () => {
  it('sets nick, avatar, banner and bio; the member banner reads back on the member object', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    const res = await client.patch(
      `/api/v10/guilds/${w.guild.id}/members/@me`,
      { nick: 'Botty', avatar: PNG, banner: GIF, bio: 'I keep the score.' },
      w.botAuth,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ nick: 'Botty', bio: 'I keep the score.', user: { id: w.bot.id } });
    expect(res.body.avatar).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body.banner).toMatch(/^a_[0-9a-f]{32}$/);
    const read = await client.get(`/api/v10/guilds/${w.guild.id}/members/${w.bot.id}`, w.botAuth);
    expect(read.body.banner).toBe(res.body.banner);
    const stored = await client.db.get('members', [w.guild.id, w.bot.id]);
    expect(stored).toMatchObject({ banner_data: GIF, avatar_data: PNG });
    expect((await eventsOf(client, 'GUILD_MEMBER_UPDATE')).at(-1)!.data).toMatchObject({
      guild_id: w.guild.id,
      banner: res.body.banner,
      bio: 'I keep the score.',
    });
    const cleared = await client.patch(`/api/v10/guilds/${w.guild.id}/members/@me`, { banner: null }, w.botAuth);
    expect(cleared.body).toMatchObject({ banner: null, avatar: res.body.avatar });
  });

  it('an image that is not a data URI is 400 (50035) naming the field; nothing changes', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    const res = await client.patch(
      `/api/v10/guilds/${w.guild.id}/members/@me`,
      { bio: 'x', avatar: 'https://example.com/a.png' },
      w.botAuth,
    );
    expect(res.body.code).toBe(50035);
    expect(Object.keys(res.body.errors)).toEqual(['avatar']);
    expect((await client.db.get('members', [w.guild.id, w.bot.id]))!.bio).toBeNull();
  });

  it('a request that changes nothing emits nothing', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    await client.patch(`/api/v10/guilds/${w.guild.id}/members/@me`, { bio: 'same' }, w.botAuth);
    const before = (await eventsOf(client, 'GUILD_MEMBER_UPDATE')).length;
    expect((await client.patch(`/api/v10/guilds/${w.guild.id}/members/@me`, { bio: 'same' }, w.botAuth)).body.bio).toBe(
      'same',
    );
    expect((await client.patch(`/api/v10/guilds/${w.guild.id}/members/@me`, {}, w.botAuth)).status).toBe(200);
    expect(await eventsOf(client, 'GUILD_MEMBER_UPDATE')).toHaveLength(before);
  });

  it('nick needs CHANGE_NICKNAME (50013)', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    const everyone = await client.db.get('roles', w.guild.id);
    await client.db.put('roles', { ...everyone!, permissions: '0' });
    expect(
      (await client.patch(`/api/v10/guilds/${w.guild.id}/members/@me`, { nick: 'Botty' }, w.botAuth)).body.code,
    ).toBe(50013);
  });
});
