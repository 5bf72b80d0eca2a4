// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { createTestClient, type TestClient } from '../app-harness';
import { PERMISSIONS, countOf, eventsOf, guildWorld, setRolePermissions } from './guild-admin-fixtures';

const MANAGE_GUILD = PERMISSIONS.MANAGE_GUILD;

async function world(bits: bigint = MANAGE_GUILD) {
  const client = await createTestClient();
  const w = await guildWorld(client, bits);
  return { client, w, base: `/api/v10/guilds/${w.guild.id}` };
}

/** Marks `userId` online, as a connected gateway session would. */
async function online(client: TestClient, userId: string, status: 'online' | 'idle' | 'dnd' = 'online') {
  const now = Date.now();
  await client.db.put('presences', {
    user_id: userId,
    status,
    activities: [],
    updated_at: now,
    sessions: [
      {
        session_id: `s-${userId}`,
        application_id: '0',
        gateway: 'g',
        updated_at: now,
        status,
        since: null,
        afk: false,
      },
    ],
  });
}

describe('welcome screen (MANAGE_GUILD; description 140, 5 channels)', () => {
  it('PATCH stores the screen and emits GUILD_UPDATE (GUILDS) with WELCOME_SCREEN_ENABLED; GET answers it', async () => {
    const { client, w, base } = await world();
    const body = {
      enabled: true,
      description: 'Welcome!',
      welcome_channels: [{ channel_id: w.text.id, description: 'Say hi', emoji_name: '👋' }],
    };
    const res = await client.patch(`${base}/welcome-screen`, body, w.botAuth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      description: 'Welcome!',
      welcome_channels: [{ channel_id: w.text.id, description: 'Say hi', emoji_id: null, emoji_name: '👋' }],
    });
    const update = (await eventsOf(client, 'GUILD_UPDATE')).at(-1)!;
    expect(update.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILDS });
    expect((update.data as any).features).toContain('WELCOME_SCREEN_ENABLED');
    // Once enabled, any member reads it.
    await setRolePermissions(client, w.botRole.id, 0n);
    expect((await client.get(`${base}/welcome-screen`, w.botAuth)).body).toEqual(res.body);
  });

  it('a disabled screen needs MANAGE_GUILD to read, and PATCH without it is 403 (50013), nothing stored', async () => {
    const { client, w, base } = await world(0n);
    expect((await client.get(`${base}/welcome-screen`, w.botAuth)).body.code).toBe(50013);
    const res = await client.patch(`${base}/welcome-screen`, { enabled: true }, w.botAuth);
    expect([res.status, res.body.code]).toEqual([403, 50013]);
    expect(await client.db.count('guild_settings')).toBe(0);
  });

  it('a description over 140, more than 5 channels or a channel of another guild is 400 (50035)', async () => {
    const { client, w, base } = await world();
    const channel = { channel_id: w.text.id, description: 'x' };
    for (const body of [
      { description: 'x'.repeat(141) },
      { welcome_channels: Array.from({ length: 6 }, () => channel) },
      { welcome_channels: [{ channel_id: '1', description: 'x' }] },
    ]) {
      const res = await client.patch(`${base}/welcome-screen`, body, w.botAuth);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 50035]);
    }
    expect(await client.db.count('guild_settings')).toBe(0);
  });
});

describe('widget (settings: MANAGE_GUILD; widget.json and widget.png: public)', () => {
  it('PATCH /widget stores the settings, emits GUILD_UPDATE and writes a GUILD_UPDATE audit entry', async () => {
    const { client, w, base } = await world();
    expect((await client.get(`${base}/widget`, w.botAuth)).body).toEqual({ enabled: false, channel_id: null });
    const res = await client.patch(`${base}/widget`, { enabled: true, channel_id: w.text.id }, w.botAuth);
    expect(res.body).toEqual({ enabled: true, channel_id: w.text.id });
    expect((await client.get(`${base}/widget`, w.botAuth)).body).toEqual(res.body);
    const guild = (await client.get(base, w.botAuth)).body;
    expect([guild.widget_enabled, guild.widget_channel_id]).toEqual([true, w.text.id]);
    expect((await eventsOf(client, 'GUILD_UPDATE')).at(-1)!.data).toMatchObject({ widget_enabled: true });
    const entries = await client.db.getAll('audit_log_entries');
    expect(entries.at(-1)).toMatchObject({
      action_type: 1,
      target_id: w.guild.id,
      changes: [
        { key: 'widget_enabled', old_value: false, new_value: true },
        { key: 'widget_channel_id', old_value: null, new_value: w.text.id },
      ],
    });
  });

  it('settings without MANAGE_GUILD are 403 (50013); a channel of no guild is 400 (50035)', async () => {
    const { client, w, base } = await world(0n);
    expect((await client.get(`${base}/widget`, w.botAuth)).body.code).toBe(50013);
    expect((await client.patch(`${base}/widget`, { enabled: true }, w.botAuth)).body.code).toBe(50013);
    await setRolePermissions(client, w.botRole.id, MANAGE_GUILD);
    expect((await client.patch(`${base}/widget`, { channel_id: '1' }, w.botAuth)).body.code).toBe(50035);
    expect(await countOf(client, 'audit_log_entries')).toBe(0);
  });

  it('widget.json of a disabled widget is 403 (50004) without a token; of an unknown guild 404 (10004)', async () => {
    const { client, base } = await world();
    const res = await client.get(`${base}/widget.json`);
    expect([res.status, res.body.code]).toEqual([403, 50004]);
    expect((await client.get('/api/v10/guilds/1/widget.json')).body.code).toBe(10004);
  });

  it('widget.json lists the voice channels @everyone sees and the online members from the stored presences, with their voice state', async () => {
    const { client, w, base } = await world();
    await client.patch(`${base}/widget`, { enabled: true }, w.botAuth);
    await online(client, w.bob.id, 'idle');
    await online(client, w.alice.id);
    const res = await client.get(`${base}/widget.json`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: w.guild.id,
      name: 'Guild',
      instant_invite: null,
      channels: [{ id: w.voice.id }],
      presence_count: 2,
    });
    expect(res.body.members.map((m: any) => [m.username, m.status]).sort()).toEqual([
      ['alice', 'online'],
      ['bob', 'idle'],
    ]);
    expect(res.body.members.map((m: any) => m.id).sort()).toEqual(['0', '1']);
    // A member in a listed voice channel carries its voice state.
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bob.id}`, { channel_id: w.voice.id });
    const bob = (await client.get(`${base}/widget.json`)).body.members.find((m: any) => m.username === 'bob');
    expect(bob).toMatchObject({ channel_id: w.voice.id, self_mute: false, self_deaf: false, suppress: false });
  });

  it('widget.json hands out one invite to the invite channel (INVITE_CREATE once), and a new one once it expired', async () => {
    const { client, w, base } = await world();
    await client.patch(`${base}/widget`, { enabled: true, channel_id: w.text.id }, w.botAuth);
    const first = (await client.get(`${base}/widget.json`)).body.instant_invite;
    expect(first).toMatch(/^https:\/\/discord\.com\/invite\/\w+$/);
    expect((await client.get(`${base}/widget.json`)).body.instant_invite).toBe(first);
    const created = await eventsOf(client, 'INVITE_CREATE');
    expect(created.map((e) => (e.data as any).code)).toEqual([first.split('/').at(-1)]);
    expect(created[0].data).toMatchObject({ channel_id: w.text.id, max_age: 86400 });
    const now = Date.parse((await client.get('/sandbox/clock')).body.now);
    await client.put('/sandbox/clock', { now: new Date(now + 86_400_000 + 1000).toISOString() });
    expect((await client.get(`${base}/widget.json`)).body.instant_invite).not.toBe(first);
  });

  it('widget.png is a real PNG whose size follows the style (shield by default); a bad style is 400', async () => {
    const { client, w, base } = await world();
    const png = () => client.fetch(`${client.origin}${base}/widget.png`);
    expect((await png()).status).toBe(403);
    await client.patch(`${base}/widget`, { enabled: true }, w.botAuth);
    for (const [style, width, height] of [
      ['', 76, 20],
      ['?style=banner1', 300, 60],
      ['?style=banner4', 320, 152],
    ] as const) {
      const res = await client.fetch(`${client.origin}${base}/widget.png${style}`);
      expect(res.headers.get('Content-Type')).toBe('image/png');
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.subarray(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG');
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      expect([view.getUint32(16), view.getUint32(20)]).toEqual([width, height]);
    }
    expect((await client.fetch(`${client.origin}${base}/widget.png?style=banner9`)).status).toBe(400);
  });
});

describe('incident actions (MANAGE_GUILD; 24 h at most)', () => {
  it('PUT pauses invites and DMs: incidents_data, INVITES_DISABLED and GUILD_UPDATE; accepting an invite is refused', async () => {
    const { client, w, base } = await world(MANAGE_GUILD | PERMISSIONS.CREATE_INSTANT_INVITE);
    const now = (await client.get('/sandbox/clock')).body.now;
    const until = new Date(Date.parse(now) + 3_600_000).toISOString();
    const res = await client.put(`${base}/incident-actions`, { invites_disabled_until: until }, w.botAuth);
    expect(res.body).toEqual({ invites_disabled_until: until, dms_disabled_until: null });
    const guild = (await client.get(base, w.botAuth)).body;
    expect(guild.incidents_data).toEqual(res.body);
    expect(guild.features).toContain('INVITES_DISABLED');
    expect((await eventsOf(client, 'GUILD_UPDATE')).at(-1)!.data).toMatchObject({ incidents_data: res.body });
    const invite = (await client.post(`/api/v10/channels/${w.text.id}/invites`, {}, w.botAuth)).body;
    const members = await countOf(client, 'members');
    const accept = await client.post(`/sandbox/invites/${invite.code}/accept`, { user_id: w.carol.id });
    expect(accept.status).toBe(403);
    expect(await countOf(client, 'members')).toBe(members);
    // null lifts the pause.
    const lifted = await client.put(`${base}/incident-actions`, { invites_disabled_until: null }, w.botAuth);
    expect(lifted.body.invites_disabled_until).toBeNull();
    expect((await client.get(base, w.botAuth)).body.incidents_data).toBeNull();
  });

  it('more than 24 hours ahead is 400 (50035); without MANAGE_GUILD 403 (50013); nothing stored', async () => {
    const { client, w, base } = await world();
    const now = Date.parse((await client.get('/sandbox/clock')).body.now);
    const late = new Date(now + 24 * 3_600_000 + 60_000).toISOString();
    expect((await client.put(`${base}/incident-actions`, { dms_disabled_until: late }, w.botAuth)).body.code).toBe(
      50035,
    );
    await setRolePermissions(client, w.botRole.id, 0n);
    const soon = new Date(now + 60_000).toISOString();
    expect((await client.put(`${base}/incident-actions`, { dms_disabled_until: soon }, w.botAuth)).body.code).toBe(
      50013,
    );
    expect(await client.db.count('guild_settings')).toBe(0);
  });
});
