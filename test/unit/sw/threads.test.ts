// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { deny, eventsOf, expectError, expectInvalidField, messageWorld, type MessageWorld } from './messages-fixtures';

const api = '/api/v10';
const threadsOf = (channelId: string) => `${api}/channels/${channelId}/threads`;
const members = (threadId: string) => `${api}/channels/${threadId}/thread-members`;

/** A message in general and a public thread started from it by alice. */
async function started(w: MessageWorld, body: Record<string, unknown> = { name: 'Talk' }) {
  const message = (await w.client.post(w.messages(), { content: 'start here' }, w.aliceAuth)).body;
  const reply = await w.client.post(`${w.messages()}/${message.id}/threads`, body, w.aliceAuth);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { message, thread: reply.body };
}

/** A thread without a message in general, by `auth`. */
async function startAlone(w: MessageWorld, body: Record<string, unknown>, auth: string = w.aliceAuth) {
  const reply = await w.client.post(threadsOf(w.general.id), body, auth);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

describe('threads: start from a message, start alone', () => {
  it('a thread started from a message has its id, is public, its creator its first member; logs THREAD_CREATE (newly_created), THREAD_MEMBERS_UPDATE, MESSAGE_UPDATE and the audit entry 110', async () => {
    const w = await messageWorld();
    await w.client.put('/sandbox/clock', { now: '2026-03-01T00:00:00.000Z' });
    const { message, thread } = await started(w);
    expect(thread).toMatchObject({
      id: message.id,
      type: 11,
      guild_id: w.guild.id,
      parent_id: w.general.id,
      owner_id: w.alice.id,
      name: 'Talk',
      member_count: 1,
      message_count: 0,
      total_message_sent: 0,
      rate_limit_per_user: 0,
      thread_metadata: {
        archived: false,
        locked: false,
        auto_archive_duration: 1440,
        archive_timestamp: '2026-03-01T00:00:00.000Z',
        create_timestamp: '2026-03-01T00:00:00.000Z',
      },
      member: { id: message.id, user_id: w.alice.id, flags: 0 },
    });
    expect(thread.permission_overwrites).toBeUndefined();
    const [created] = await eventsOf(w.client, 'THREAD_CREATE');
    expect(created.data).toMatchObject({ id: thread.id, newly_created: true });
    expect(created.audience).toEqual({ guild_id: w.guild.id, intent: 1 });
    const [joined] = await eventsOf(w.client, 'THREAD_MEMBERS_UPDATE');
    expect(joined.data).toMatchObject({ id: thread.id, member_count: 1, added_members: [{ user_id: w.alice.id }] });
    const updates = await eventsOf(w.client, 'MESSAGE_UPDATE');
    expect((updates.at(-1)!.data as any).flags & 32).toBe(32);
    expect((await w.client.get(`${w.messages()}/${message.id}`, w.aliceAuth)).body.flags & 32).toBe(32);
    const audit = await w.client.db.getAll('audit_log_entries');
    expect(audit).toMatchObject([{ action_type: 110, target_id: thread.id, user_id: w.alice.id }]);
  });

  it('X-Audit-Log-Reason (URL-encoded) is the THREAD_CREATE audit entry’s reason', async () => {
    const w = await messageWorld();
    const reply = await w.client.request('POST', threadsOf(w.general.id), {
      body: { name: 'Why', type: 11 },
      token: w.aliceAuth,
      headers: { 'X-Audit-Log-Reason': encodeURIComponent('for the raid é') },
    });
    expect(reply.status).toBe(201);
    const [entry] = (await w.client.db.getAll('audit_log_entries')).filter((e) => e.action_type === 110);
    expect(entry).toMatchObject({ target_id: reply.body.id, reason: 'for the raid é' });
  });

  it('a message has one thread: a second start is 400 160004 and stores nothing', async () => {
    const w = await messageWorld();
    const { message } = await started(w);
    const before = await w.client.db.count('channels');
    expectError(
      await w.client.post(`${w.messages()}/${message.id}/threads`, { name: 'Again' }, w.bobAuth),
      400,
      160004,
    );
    expect(await w.client.db.count('channels')).toBe(before);
    expectError(await w.client.post(`${w.messages()}/1234/threads`, { name: 'x' }, w.aliceAuth), 404, 10008);
  });

  it('auto_archive_duration is one of 60, 1440, 4320, 10080 (400 50035 otherwise); the name 1 to 100 characters', async () => {
    const w = await messageWorld();
    const message = (await w.client.post(w.messages(), { content: 'm' }, w.aliceAuth)).body;
    const before = await w.client.db.count('channels');
    expectInvalidField(
      await w.client.post(
        `${w.messages()}/${message.id}/threads`,
        { name: 'x', auto_archive_duration: 30 },
        w.aliceAuth,
      ),
      'auto_archive_duration',
    );
    expectInvalidField(await w.client.post(threadsOf(w.general.id), { name: 'y'.repeat(101) }, w.aliceAuth), 'name');
    expect(await w.client.db.count('channels')).toBe(before);
    for (const minutes of [60, 1440, 4320, 10080]) {
      const t = await startAlone(w, { name: `t${minutes}`, type: 11, auto_archive_duration: minutes });
      expect(t.thread_metadata.auto_archive_duration).toBe(minutes);
    }
  });

  it('without a message: private unless typed (CREATE_PRIVATE_THREADS, invitable by default), public with CREATE_PUBLIC_THREADS; 403 50013 without them', async () => {
    const w = await messageWorld();
    const priv = await startAlone(w, { name: 'Secret' });
    expect(priv).toMatchObject({ type: 12, thread_metadata: { invitable: true } });
    const pub = await startAlone(w, { name: 'Open', type: 11 });
    expect(pub.type).toBe(11);
    const strict = await w.channel({
      permission_overwrites: [
        deny(w.bob.id, PERMISSIONS.CREATE_PUBLIC_THREADS | PERMISSIONS.CREATE_PRIVATE_THREADS, 1),
      ],
    });
    expectError(await w.client.post(threadsOf(strict.id), { name: 'a', type: 11 }, w.bobAuth), 403, 50013);
    expectError(await w.client.post(threadsOf(strict.id), { name: 'b', type: 12 }, w.bobAuth), 403, 50013);
    const msg = (await w.client.post(w.messages(strict.id), { content: 'm' }, w.aliceAuth)).body;
    expectError(
      await w.client.post(`${w.messages(strict.id)}/${msg.id}/threads`, { name: 'c' }, w.bobAuth),
      403,
      50013,
    );
  });

  it('only text and announcement channels take threads (400 50024): not voice, forum (its posts are not implemented) or a thread', async () => {
    const w = await messageWorld();
    const voice = await w.channel({ type: 2, name: 'voice' });
    const forum = await w.channel({ type: 15, name: 'forum' });
    expectError(await w.client.post(threadsOf(voice.id), { name: 'x', type: 11 }, w.aliceAuth), 400, 50024);
    expectError(await w.client.post(threadsOf(forum.id), { name: 'x', type: 11 }, w.aliceAuth), 400, 50024);
    const thread = await startAlone(w, { name: 'Open', type: 11 });
    expectError(await w.client.post(threadsOf(thread.id), { name: 'x', type: 11 }, w.aliceAuth), 400, 50024);
    const news = await w.channel({ type: 5, name: 'news' });
    expectError(await w.client.post(threadsOf(news.id), { name: 'x', type: 11 }, w.aliceAuth), 400, 50024);
    const announcement = (await w.client.post(threadsOf(news.id), { name: 'x', type: 10 }, w.aliceAuth)).body;
    expect(announcement.type).toBe(10);
  });

  it('threads are not in the guild channel list, and GET /channels/{id} answers a thread as it is seen', async () => {
    const w = await messageWorld();
    const { thread } = await started(w);
    const list = (await w.client.get(`${api}/guilds/${w.guild.id}/channels`, w.botAuth)).body;
    expect(list.map((c: any) => c.id)).not.toContain(thread.id);
    expect((await w.client.get(`${api}/channels/${thread.id}`, w.botAuth)).body).toMatchObject({
      id: thread.id,
      type: 11,
    });
  });
});

describe('threads: members', () => {
  it('a private thread is seen by its members and MANAGE_THREADS only; a member adds others (SEND_MESSAGES_IN_THREADS) and they see it', async () => {
    const w = await messageWorld();
    const priv = await startAlone(w, { name: 'Secret' }, w.bobAuth);
    expectError(await w.client.get(`${api}/channels/${priv.id}`, w.botAuth), 403, 50001);
    expectError(await w.client.put(`${members(priv.id)}/@me`, undefined, w.botAuth), 403, 50001);
    // alice owns the guild: she moderates threads.
    expect((await w.client.get(`${api}/channels/${priv.id}`, w.aliceAuth)).status).toBe(200);
    expect((await w.client.put(`${members(priv.id)}/${w.bot.id}`, undefined, w.bobAuth)).status).toBe(204);
    expect((await w.client.get(`${api}/channels/${priv.id}`, w.botAuth)).body).toMatchObject({ member_count: 2 });
    const listed = (await w.client.get(`${members(priv.id)}?with_member=true`, w.botAuth)).body;
    expect(listed.map((m: any) => m.user_id).sort()).toEqual([w.bob.id, w.bot.id].sort());
    expect(listed[0].member.user.id).toBe(listed[0].user_id);
    const one = (await w.client.get(`${members(priv.id)}/${w.bob.id}`, w.botAuth)).body;
    expect(one).toMatchObject({ id: priv.id, user_id: w.bob.id });
    expect(one.member).toBeUndefined();
    expectError(await w.client.get(`${members(priv.id)}/${w.reader.id}`, w.botAuth), 404, 10007);
    const page = (await w.client.get(`${members(priv.id)}?limit=1&after=${listed[0].user_id}`, w.botAuth)).body;
    expect(page.map((m: any) => m.user_id)).toEqual([listed[1].user_id]);
    expectInvalidField(await w.client.get(`${members(priv.id)}?limit=101`, w.botAuth), 'limit');
  });

  it('a private thread that is not invitable takes new members only from MANAGE_THREADS; adding needs SEND_MESSAGES_IN_THREADS', async () => {
    const w = await messageWorld();
    const closed = await startAlone(w, { name: 'Closed', invitable: false }, w.bobAuth);
    expectError(await w.client.put(`${members(closed.id)}/${w.bot.id}`, undefined, w.bobAuth), 403, 50013);
    expect((await w.client.put(`${members(closed.id)}/${w.bot.id}`, undefined, w.aliceAuth)).status).toBe(204);
    const open = await startAlone(w, { name: 'Open', type: 11 });
    await w.grant(w.bob.id, 0n);
    const muted = await w.channel({ permission_overwrites: [deny(w.bob.id, PERMISSIONS.SEND_MESSAGES_IN_THREADS, 1)] });
    const inMuted = await startAlone({ ...w, general: muted }, { name: 'M', type: 11 });
    expectError(await w.client.put(`${members(inMuted.id)}/${w.bot.id}`, undefined, w.bobAuth), 403, 50013);
    expectError(await w.client.put(`${members(open.id)}/${w.alice.id}1`, undefined, w.aliceAuth), 404, 10007);
  });

  it('join and leave @me log THREAD_MEMBERS_UPDATE, and THREAD_CREATE and THREAD_MEMBER_UPDATE to the user who joined; removing another needs MANAGE_THREADS or being the private thread’s creator', async () => {
    const w = await messageWorld();
    const { thread } = await started(w);
    expect((await w.client.put(`${members(thread.id)}/@me`, undefined, w.botAuth)).status).toBe(204);
    expect((await w.client.put(`${members(thread.id)}/@me`, undefined, w.botAuth)).status).toBe(204);
    const toBot = (await eventsOf(w.client, 'THREAD_CREATE')).filter((e) => e.audience.user_ids?.includes(w.bot.id));
    expect(toBot).toHaveLength(1);
    expect(toBot[0].data).toMatchObject({ id: thread.id, member: { user_id: w.bot.id } });
    const own = await eventsOf(w.client, 'THREAD_MEMBER_UPDATE');
    expect(own).toHaveLength(1);
    expect(own[0].data).toMatchObject({ id: thread.id, user_id: w.bot.id, guild_id: w.guild.id });
    expect(own[0].audience.user_ids).toEqual([w.bot.id]);
    expect((await w.client.delete(`${members(thread.id)}/@me`, w.botAuth)).status).toBe(204);
    const updates = (await eventsOf(w.client, 'THREAD_MEMBERS_UPDATE')).map((e) => e.data as any);
    expect(updates.map((u) => [u.member_count, u.added_members?.[0]?.user_id, u.removed_member_ids])).toEqual([
      [1, w.alice.id, undefined],
      [2, w.bot.id, undefined],
      [1, undefined, [w.bot.id]],
    ]);
    // A public thread: its creator (bob, no MANAGE_THREADS) may not remove alice.
    const bobs = await startAlone(w, { name: 'Bobs', type: 11 }, w.bobAuth);
    await w.client.put(`${members(bobs.id)}/@me`, undefined, w.botAuth);
    expectError(await w.client.delete(`${members(bobs.id)}/${w.bot.id}`, w.bobAuth), 403, 50013);
    const bobsPrivate = await startAlone(w, { name: 'Mine' }, w.bobAuth);
    await w.client.put(`${members(bobsPrivate.id)}/${w.bot.id}`, undefined, w.bobAuth);
    expect((await w.client.delete(`${members(bobsPrivate.id)}/${w.bot.id}`, w.bobAuth)).status).toBe(204);
    expectError(await w.client.delete(`${members(bobsPrivate.id)}/${w.bot.id}`, w.bobAuth), 404, 10007);
  });
});

describe('threads: messages in threads', () => {
  it('messages in a thread need SEND_MESSAGES_IN_THREADS, not SEND_MESSAGES, and count in message_count (less deleted ones), total_message_sent and last_message_id', async () => {
    const w = await messageWorld();
    const noSend = await w.channel({ permission_overwrites: [deny(w.bob.id, PERMISSIONS.SEND_MESSAGES, 1)] });
    const t = await startAlone({ ...w, general: noSend }, { name: 'T', type: 11 });
    expectError(await w.client.post(w.messages(noSend.id), { content: 'x' }, w.bobAuth), 403, 50013);
    const sent = await w.client.post(w.messages(t.id), { content: 'in thread' }, w.bobAuth);
    expect(sent.status).toBe(200);
    expect(sent.body.channel_id).toBe(t.id);
    const after = (await w.client.get(`${api}/channels/${t.id}`, w.bobAuth)).body;
    expect(after).toMatchObject({ message_count: 1, total_message_sent: 1, last_message_id: sent.body.id });
    expect((await w.client.delete(`${w.messages(t.id)}/${sent.body.id}`, w.bobAuth)).status).toBe(204);
    expect((await w.client.get(`${api}/channels/${t.id}`, w.bobAuth)).body).toMatchObject({
      message_count: 0,
      total_message_sent: 1,
    });
    await w.client.post(w.messages(t.id), { content: 'in thread' }, w.bobAuth);
    const noThreads = await w.channel({
      permission_overwrites: [deny(w.bob.id, PERMISSIONS.SEND_MESSAGES_IN_THREADS, 1)],
    });
    const t2 = await startAlone({ ...w, general: noThreads }, { name: 'T2', type: 11 });
    expectError(await w.client.post(w.messages(t2.id), { content: 'x' }, w.bobAuth), 403, 50013);
    expect((await w.client.get(w.messages(t.id), w.bobAuth)).body.map((m: any) => m.content)).toEqual(['in thread']);
  });

  it('a thread archives itself after auto_archive_duration minutes of inactivity by the platform clock; a message unarchives it (THREAD_UPDATE); joining an archived thread is 400 50083', async () => {
    const w = await messageWorld();
    await w.client.put('/sandbox/clock', { now: '2026-03-01T00:00:00.000Z' });
    const t = await startAlone(w, { name: 'Short', type: 11, auto_archive_duration: 60 });
    await w.client.put('/sandbox/clock', { now: '2026-03-01T00:59:00.000Z' });
    expect((await w.client.get(`${api}/channels/${t.id}`, w.bobAuth)).body.thread_metadata.archived).toBe(false);
    await w.client.put('/sandbox/clock', { now: '2026-03-01T01:30:00.000Z' });
    expect((await w.client.get(`${api}/channels/${t.id}`, w.bobAuth)).body.thread_metadata).toMatchObject({
      archived: true,
      archive_timestamp: '2026-03-01T01:00:00.000Z',
    });
    const active = (await w.client.get(`${api}/guilds/${w.guild.id}/threads/active`, w.botAuth)).body;
    expect(active.threads.map((x: any) => x.id)).not.toContain(t.id);
    expectError(await w.client.put(`${members(t.id)}/@me`, undefined, w.botAuth), 400, 50083);
    expect((await w.client.post(w.messages(t.id), { content: 'wake up' }, w.bobAuth)).status).toBe(200);
    const now = (await w.client.get(`${api}/channels/${t.id}`, w.bobAuth)).body.thread_metadata;
    expect(now).toMatchObject({ archived: false, archive_timestamp: '2026-03-01T01:30:00.000Z' });
    const updates = (await eventsOf(w.client, 'THREAD_UPDATE')).map((e) => (e.data as any).thread_metadata.archived);
    expect(updates).toEqual([true, false]);
  });

  it('a locked thread takes messages only from MANAGE_THREADS: 400 160005 (50083 when archived too)', async () => {
    const w = await messageWorld();
    const t = await startAlone(w, { name: 'Lock', type: 11 });
    const stored = (await w.client.db.get('channels', t.id))!;
    await w.client.db.put('channels', { ...stored, thread_metadata: { ...stored.thread_metadata!, locked: true } });
    expectError(await w.client.post(w.messages(t.id), { content: 'x' }, w.bobAuth), 400, 160005);
    expect((await w.client.post(w.messages(t.id), { content: 'mod' }, w.aliceAuth)).status).toBe(200);
    await w.client.db.put('channels', {
      ...stored,
      thread_metadata: { ...stored.thread_metadata!, locked: true, archived: true },
    });
    expectError(await w.client.post(w.messages(t.id), { content: 'x' }, w.bobAuth), 400, 50083);
  });
});

describe('threads: lists', () => {
  it('active threads of a guild: those the caller sees, newest first, with the caller’s memberships', async () => {
    const w = await messageWorld();
    const a = await startAlone(w, { name: 'A', type: 11 });
    const b = await startAlone(w, { name: 'B', type: 11 }, w.bobAuth);
    const secret = await startAlone(w, { name: 'S' }, w.aliceAuth);
    const page = (await w.client.get(`${api}/guilds/${w.guild.id}/threads/active`, w.bobAuth)).body;
    expect(page.threads.map((t: any) => t.id)).toEqual([b.id, a.id]);
    expect(page.members.map((m: any) => m.id)).toEqual([b.id]);
    expect(page.has_more).toBe(false);
    const owner = (await w.client.get(`${api}/guilds/${w.guild.id}/threads/active`, w.aliceAuth)).body;
    expect(owner.threads.map((t: any) => t.id)).toEqual([secret.id, b.id, a.id]);
  });

  it('archived public threads (READ_MESSAGE_HISTORY), private (and MANAGE_THREADS), and the private ones the caller joined, newest first with before and limit', async () => {
    const w = await messageWorld();
    await w.client.put('/sandbox/clock', { now: '2026-03-01T00:00:00.000Z' });
    const p1 = await startAlone(w, { name: 'P1', type: 11, auto_archive_duration: 60 });
    const p2 = await startAlone(w, { name: 'P2', type: 11, auto_archive_duration: 1440 });
    const s1 = await startAlone(w, { name: 'S1', auto_archive_duration: 60 }, w.bobAuth);
    await w.client.put('/sandbox/clock', { now: '2026-03-03T00:00:00.000Z' });
    const pub = (await w.client.get(`${threadsOf(w.general.id)}/archived/public`, w.bobAuth)).body;
    expect(pub.threads.map((t: any) => t.id)).toEqual([p2.id, p1.id]);
    const first = (await w.client.get(`${threadsOf(w.general.id)}/archived/public?limit=1`, w.bobAuth)).body;
    expect(first).toMatchObject({ has_more: true, threads: [{ id: p2.id }] });
    const older = (
      await w.client.get(
        `${threadsOf(w.general.id)}/archived/public?before=${first.threads[0].thread_metadata.archive_timestamp}`,
        w.bobAuth,
      )
    ).body;
    expect(older.threads.map((t: any) => t.id)).toEqual([p1.id]);
    expectError(await w.client.get(`${threadsOf(w.general.id)}/archived/private`, w.bobAuth), 403, 50013);
    const priv = (await w.client.get(`${threadsOf(w.general.id)}/archived/private`, w.aliceAuth)).body;
    expect(priv.threads.map((t: any) => t.id)).toEqual([s1.id]);
    const mine = (await w.client.get(`${api}/channels/${w.general.id}/users/@me/threads/archived/private`, w.bobAuth))
      .body;
    expect(mine).toMatchObject({ threads: [{ id: s1.id }], members: [{ id: s1.id, user_id: w.bob.id }] });
    const hidden = await w.channel({ permission_overwrites: [deny(w.bob.id, PERMISSIONS.READ_MESSAGE_HISTORY, 1)] });
    expectError(await w.client.get(`${threadsOf(hidden.id)}/archived/public`, w.bobAuth), 403, 50013);
  });

  it('thread search: by name in any case, archived or not, sorted and paged, with total_results', async () => {
    const w = await messageWorld();
    await startAlone(w, { name: 'Raid plans', type: 11 });
    await startAlone(w, { name: 'raid loot', type: 11 });
    await startAlone(w, { name: 'Other', type: 11 });
    const found = (await w.client.get(`${threadsOf(w.general.id)}/search?name=RAID&sort_order=asc`, w.bobAuth)).body;
    expect(found.threads.map((t: any) => t.name)).toEqual(['Raid plans', 'raid loot']);
    expect(found).toMatchObject({ total_results: 2, has_more: false });
    const paged = (await w.client.get(`${threadsOf(w.general.id)}/search?limit=1&offset=1`, w.bobAuth)).body;
    expect(paged).toMatchObject({ total_results: 3, has_more: true });
    expect((await w.client.get(`${threadsOf(w.general.id)}/search?archived=true`, w.bobAuth)).body.threads).toEqual([]);
  });
});
