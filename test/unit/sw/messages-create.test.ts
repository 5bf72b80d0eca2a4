// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { deny, eventsOf, expectError, expectInvalidField, messageCounts, messageWorld } from './messages-fixtures';

describe('POST /channels/{id}/messages: creating a message', () => {
  it('answers the message object and logs MESSAGE_CREATE for the guild with the GUILD_MESSAGES intent, with guild_id and the member', async () => {
    const w = await messageWorld();
    await w.client.put('/sandbox/clock', { now: '2026-03-01T10:00:00.000Z' });
    const reply = await w.client.post(w.messages(), { content: 'hello', nonce: 42 }, w.botAuth);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      type: 0,
      channel_id: w.general.id,
      content: 'hello',
      author: { id: w.bot.id, bot: true },
      timestamp: '2026-03-01T10:00:00.000Z',
      edited_timestamp: null,
      tts: false,
      mentions: [],
      mention_roles: [],
      mention_everyone: false,
      attachments: [],
      embeds: [],
      components: [],
      pinned: false,
      flags: 0,
      nonce: 42,
    });
    const [event] = await eventsOf(w.client, 'MESSAGE_CREATE');
    expect(event.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_MESSAGES });
    expect(event.data).toMatchObject({ ...reply.body, guild_id: w.guild.id, member: { roles: [] } });
    expect((event.data as any).member.user).toBeUndefined();
    expect(JSON.stringify(await w.client.db.getAll('events'))).not.toContain(w.botAuth.slice(4));
  });

  it('needs VIEW_CHANNEL (403 50001) and SEND_MESSAGES (403 50013) in the channel, computed with its overwrites; nothing is stored', async () => {
    const w = await messageWorld();
    const hidden = await w.channel({ permission_overwrites: [deny(w.guild.id, PERMISSIONS.VIEW_CHANNEL)] });
    const readOnly = await w.channel({ permission_overwrites: [deny(w.guild.id, PERMISSIONS.SEND_MESSAGES)] });
    const before = await messageCounts(w.client);
    expectError(await w.client.post(w.messages(hidden.id), { content: 'x' }, w.botAuth), 403, 50001);
    expectError(await w.client.post(w.messages(readOnly.id), { content: 'x' }, w.botAuth), 403, 50013);
    expectError(await w.client.post(w.messages(readOnly.id), { content: 'x' }, w.bobAuth), 403, 50013);
    const stranger = (await w.client.post('/sandbox/applications', { name: 'Stranger' })).body;
    expectError(await w.client.post(w.messages(), { content: 'x' }, `Bot ${stranger.bot_token}`), 403, 50001);
    expect(await messageCounts(w.client)).toEqual(before);
    // The owner has every permission, whatever the overwrites.
    expect((await w.client.post(w.messages(readOnly.id), { content: 'x' }, w.aliceAuth)).status).toBe(200);
  });

  it('an unknown channel is 404 10003, a category 400 50008, a bad id 400 50035; a user token needs messages.write (403)', async () => {
    const w = await messageWorld();
    expectError(await w.client.post(w.messages('123'), { content: 'x' }, w.botAuth), 404, 10003);
    const category = (await w.client.get(`/api/v10/guilds/${w.guild.id}/channels`, w.botAuth)).body.find(
      (c: any) => c.type === 4,
    );
    expectError(await w.client.post(w.messages(category.id), { content: 'x' }, w.botAuth), 400, 50008);
    expectInvalidField(await w.client.post(w.messages('abc'), { content: 'x' }, w.botAuth), 'channel_id');
    const token = (
      await w.client.post('/sandbox/tokens', {
        application_id: w.application.id,
        user_id: w.bob.id,
        scopes: 'openid sdk.social_layer',
      })
    ).body;
    expect((await w.client.post(w.messages(), { content: 'x' }, `Bearer ${token.access_token}`)).status).toBe(403);
    expect((await w.client.post(w.messages(), { content: 'x' }, w.bobAuth)).status).toBe(200);
  });

  it('an empty message is 400 50006; content over 2000 characters is 400 50035 naming content', async () => {
    const w = await messageWorld();
    expectError(await w.client.post(w.messages(), {}, w.botAuth), 400, 50006);
    expectError(await w.client.post(w.messages(), { content: '   ' }, w.botAuth), 400, 50006);
    expectInvalidField(await w.client.post(w.messages(), { content: 'x'.repeat(2001) }, w.botAuth), 'content');
    expect((await messageCounts(w.client)).messages).toBe(0);
    expect((await w.client.post(w.messages(), { content: '🎲'.repeat(2000) }, w.botAuth)).status).toBe(200);
  });
});

describe('embeds (spec: each embed accepts at most 25 fields)', () => {
  const fields = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}`, value: 'v' }));

  it('25 fields are accepted; 26 are 400 50035 naming embeds.N.fields, and nothing is stored', async () => {
    const w = await messageWorld();
    const ok = await w.client.post(
      w.messages(),
      { embeds: [{ title: 'ok', fields: fields(25), type: 'video' }] },
      w.botAuth,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.embeds[0]).toMatchObject({ type: 'rich', title: 'ok' });
    expect(ok.body.embeds[0].fields).toHaveLength(25);
    const before = await messageCounts(w.client);
    expectInvalidField(
      await w.client.post(w.messages(), { embeds: [{ fields: fields(26) }] }, w.botAuth),
      'embeds.0.fields',
    );
    expectInvalidField(
      await w.client.post(w.messages(), { embeds: [{ title: 'a' }, { fields: fields(26) }] }, w.botAuth),
      'embeds.1.fields',
    );
    expect(await messageCounts(w.client)).toEqual(before);
  });

  it('at most 10 embeds of at most 6000 characters in all', async () => {
    const w = await messageWorld();
    expectInvalidField(
      await w.client.post(w.messages(), { embeds: Array.from({ length: 11 }, () => ({ title: 't' })) }, w.botAuth),
      'embeds',
    );
    const big = { description: 'd'.repeat(4000) };
    expectInvalidField(await w.client.post(w.messages(), { embeds: [big, big] }, w.botAuth), 'embeds');
    expect(
      (await w.client.post(w.messages(), { embeds: [big, { description: 'd'.repeat(2000) }] }, w.botAuth)).status,
    ).toBe(200);
  });
});

describe('enforce_nonce (spec: the same nonce from the same sender within a few minutes is not created again; the sandbox takes 2 minutes)', () => {
  it('within 2 minutes (platform clock) the earlier message is answered, nothing is created and no event is logged', async () => {
    const w = await messageWorld();
    await w.client.put('/sandbox/clock', { now: '2026-01-01T00:00:00.000Z' });
    const first = await w.client.post(w.messages(), { content: 'once', nonce: 'abc', enforce_nonce: true }, w.botAuth);
    await w.client.put('/sandbox/clock', { now: '2026-01-01T00:01:59.999Z' });
    const again = await w.client.post(w.messages(), { content: 'twice', nonce: 'abc', enforce_nonce: true }, w.botAuth);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.content).toBe('once');
    expect((await messageCounts(w.client)).messages).toBe(1);
    expect(await eventsOf(w.client, 'MESSAGE_CREATE')).toHaveLength(1);
  });

  it('from 2 minutes on, or without enforce_nonce, or from another sender, a new message is created', async () => {
    const w = await messageWorld();
    await w.client.put('/sandbox/clock', { now: '2026-01-01T00:00:00.000Z' });
    const first = await w.client.post(w.messages(), { content: 'a', nonce: 'n', enforce_nonce: true }, w.botAuth);
    expect((await w.client.post(w.messages(), { content: 'b', nonce: 'n' }, w.botAuth)).body.id).not.toBe(
      first.body.id,
    );
    expect(
      (await w.client.post(w.messages(), { content: 'c', nonce: 'n', enforce_nonce: true }, w.bobAuth)).body.id,
    ).not.toBe(first.body.id);
    await w.client.put('/sandbox/clock', { now: '2026-01-01T00:02:00.000Z' });
    const later = await w.client.post(w.messages(), { content: 'd', nonce: 'n', enforce_nonce: true }, w.readerAuth);
    expect(later.body.id).not.toBe(first.body.id);
    const late = await w.client.post(w.messages(), { content: 'e', nonce: 'n', enforce_nonce: true }, w.botAuth);
    expect(late.body.content).toBe('e');
    expect((await messageCounts(w.client)).messages).toBe(5);
  });

  it('a nonce is an integer or a string of at most 25 characters', async () => {
    const w = await messageWorld();
    expectInvalidField(await w.client.post(w.messages(), { content: 'x', nonce: 'n'.repeat(26) }, w.botAuth), 'nonce');
    expect((await w.client.post(w.messages(), { content: 'x', nonce: 'n'.repeat(25) }, w.botAuth)).status).toBe(200);
  });
});

describe('slowmode (spec Versioning 5: users need BYPASS_SLOWMODE from 2026-02-23; MANAGE_MESSAGES / MANAGE_CHANNELS before)', () => {
  async function slowWorld(now: string) {
    const w = await messageWorld();
    const slow = await w.channel({ rate_limit_per_user: 10 });
    await w.client.put('/sandbox/clock', { now });
    return { ...w, slow, path: w.messages(slow.id) };
  }

  it('a user waits rate_limit_per_user seconds between messages: 429 20016 with retry_after, global false and Retry-After; nothing stored', async () => {
    const w = await slowWorld('2026-03-01T00:00:00.000Z');
    expect((await w.client.post(w.path, { content: '1' }, w.bobAuth)).status).toBe(200);
    await w.client.put('/sandbox/clock', { now: '2026-03-01T00:00:07.500Z' });
    const limited = await w.client.post(w.path, { content: '2' }, w.bobAuth);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 20016, retry_after: 2.5, global: false, message: expect.any(String) });
    expect(limited.headers.get('Retry-After')).toBe('3');
    expect((await messageCounts(w.client)).messages).toBe(1);
    await w.client.put('/sandbox/clock', { now: '2026-03-01T00:00:10.000Z' });
    expect((await w.client.post(w.path, { content: '3' }, w.bobAuth)).status).toBe(200);
  });

  it('bots are not affected (the public docs)', async () => {
    const w = await slowWorld('2026-03-01T00:00:00.000Z');
    expect((await w.client.post(w.path, { content: '1' }, w.botAuth)).status).toBe(200);
    expect((await w.client.post(w.path, { content: '2' }, w.botAuth)).status).toBe(200);
  });

  it('before 2026-02-23 MANAGE_MESSAGES bypasses slowmode', async () => {
    const w = await slowWorld('2026-02-22T23:59:59.000Z');
    await w.grant(w.bob.id, PERMISSIONS.MANAGE_MESSAGES);
    await w.client.post(w.path, { content: '1' }, w.bobAuth);
    expect((await w.client.post(w.path, { content: '2' }, w.bobAuth)).status).toBe(200);
  });

  it('from 2026-02-23 MANAGE_MESSAGES no longer does; BYPASS_SLOWMODE does', async () => {
    const w = await slowWorld('2026-02-23T00:00:00.000Z');
    const role = await w.grant(w.bob.id, PERMISSIONS.MANAGE_MESSAGES | PERMISSIONS.MANAGE_CHANNELS);
    await w.client.post(w.path, { content: '1' }, w.bobAuth);
    expectError(await w.client.post(w.path, { content: '2' }, w.bobAuth), 429, 20016);
    const bypass = (
      await w.client.post(`/sandbox/guilds/${w.guild.id}/roles`, {
        name: 'b',
        permissions: String(PERMISSIONS.BYPASS_SLOWMODE),
      })
    ).body.role;
    await w.client.put(`/sandbox/guilds/${w.guild.id}/members/${w.bob.id}`, { roles: [role.id, bypass.id] });
    expect((await w.client.post(w.path, { content: '3' }, w.bobAuth)).status).toBe(200);
  });
});

describe('AutoMod keyword rule (spec Errors: HTTP 400 for a message AutoMod blocks)', () => {
  it('a message containing a blocked keyword is 400 200000 and nothing is stored; wildcards match word parts', async () => {
    const w = await messageWorld();
    await w.client.put(`/sandbox/guilds/${w.guild.id}/automod/keywords`, { keywords: ['badword', 'cheat*'] });
    const before = await messageCounts(w.client);
    const blocked = await w.client.post(w.messages(), { content: 'this is a BadWord here' }, w.botAuth);
    expectError(blocked, 400, 200000);
    expect(blocked.body.message).toBe('Message was blocked by automatic moderation');
    expectError(await w.client.post(w.messages(), { content: 'cheaters never win' }, w.bobAuth), 400, 200000);
    expectError(await w.client.post(w.messages(), { embeds: [{ title: 'badword' }] }, w.botAuth), 400, 200000);
    expect(await messageCounts(w.client)).toEqual(before);
    expect((await w.client.post(w.messages(), { content: 'badwords are words' }, w.botAuth)).status).toBe(200);
  });
});

describe('replies and mentions', () => {
  it('a reply is type 19 with message_reference and referenced_message, and mentions the replied-to author unless allowed_mentions says otherwise', async () => {
    const w = await messageWorld();
    const original = (await w.client.post(w.messages(), { content: 'question' }, w.bobAuth)).body;
    const reply = await w.client.post(
      w.messages(),
      { content: 'answer', message_reference: { message_id: original.id } },
      w.botAuth,
    );
    expect(reply.body).toMatchObject({
      type: 19,
      message_reference: { type: 0, message_id: original.id, channel_id: w.general.id, guild_id: w.guild.id },
      referenced_message: { id: original.id, content: 'question' },
    });
    expect(reply.body.mentions.map((u: any) => u.id)).toEqual([w.bob.id]);
    const quiet = await w.client.post(
      w.messages(),
      { content: 'a', message_reference: { message_id: original.id }, allowed_mentions: { parse: [] } },
      w.botAuth,
    );
    expect(quiet.body.mentions).toEqual([]);
  });

  it('a reply to an unknown message is 400 50035 naming message_reference, unless fail_if_not_exists is false', async () => {
    const w = await messageWorld();
    expectInvalidField(
      await w.client.post(w.messages(), { content: 'a', message_reference: { message_id: '123' } }, w.botAuth),
      'message_reference',
    );
    const plain = await w.client.post(
      w.messages(),
      { content: 'a', message_reference: { message_id: '123', fail_if_not_exists: false } },
      w.botAuth,
    );
    expect(plain.body.type).toBe(0);
    expect(plain.body.message_reference).toBeUndefined();
  });

  it('user and role mentions follow allowed_mentions; @everyone needs MENTION_EVERYONE', async () => {
    const w = await messageWorld();
    const role = (await w.client.post(`/sandbox/guilds/${w.guild.id}/roles`, { name: 'team', permissions: '0' })).body
      .role;
    const text = `<@${w.bob.id}> <@!${w.alice.id}> <@&${role.id}> @everyone`;
    const all = (await w.client.post(w.messages(), { content: text }, w.aliceAuth)).body;
    expect(all.mentions.map((u: any) => u.id).sort()).toEqual([w.alice.id, w.bob.id].sort());
    expect(all).toMatchObject({ mention_roles: [role.id], mention_everyone: true });
    const some = (
      await w.client.post(w.messages(), { content: text, allowed_mentions: { users: [w.bob.id] } }, w.aliceAuth)
    ).body;
    expect(some).toMatchObject({ mentions: [{ id: w.bob.id }], mention_roles: [], mention_everyone: false });
    const noEveryone = await w.channel({ permission_overwrites: [deny(w.guild.id, PERMISSIONS.MENTION_EVERYONE)] });
    expect(
      (await w.client.post(w.messages(noEveryone.id), { content: '@everyone' }, w.bobAuth)).body.mention_everyone,
    ).toBe(false);
    expectInvalidField(
      await w.client.post(
        w.messages(),
        { content: 'x', allowed_mentions: { parse: ['users'], users: [w.bob.id] } },
        w.botAuth,
      ),
      'allowed_mentions.users',
    );
  });
});
