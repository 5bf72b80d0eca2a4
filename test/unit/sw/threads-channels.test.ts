// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { eventsOf, expectError, expectInvalidField, messageWorld, type MessageWorld } from './messages-fixtures';

const api = '/api/v10';
const channel = (id: string) => `${api}/channels/${id}`;
const hookUrl = (hook: { id: string; token: string }, rest = '') => `${api}/webhooks/${hook.id}/${hook.token}${rest}`;

/** The message world with a bot that manages threads and webhooks, and a public thread alice started in general. */
async function threadWorld(botPermissions: bigint = PERMISSIONS.MANAGE_THREADS | PERMISSIONS.MANAGE_WEBHOOKS) {
  const w = await messageWorld();
  await w.grant(w.bot.id, botPermissions);
  const start = async (channelId: string = w.general.id, name = 'Talk') => {
    const reply = await w.client.post(`${channel(channelId)}/threads`, { name, type: 11 }, w.aliceAuth);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body;
  };
  const thread = await start();
  return { ...w, start, thread };
}

async function auditOf(w: MessageWorld, actionType: number) {
  return (await w.client.db.getAll('audit_log_entries')).filter((e) => e.action_type === actionType);
}

describe('PATCH /channels/{id} on a thread edits it as a thread (editThread)', () => {
  it('renames and locks a thread with MANAGE_THREADS: answers the thread, logs THREAD_UPDATE (no CHANNEL_UPDATE) and audit 111 with its reason', async () => {
    const w = await threadWorld();
    const reply = await w.client.request('PATCH', channel(w.thread.id), {
      body: { name: 'Renamed', locked: true, rate_limit_per_user: 10 },
      token: w.botAuth,
      headers: { 'X-Audit-Log-Reason': encodeURIComponent('tidy up') },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({
      id: w.thread.id,
      type: 11,
      parent_id: w.general.id,
      name: 'Renamed',
      rate_limit_per_user: 10,
      thread_metadata: { locked: true, archived: false },
    });
    const [update] = await eventsOf(w.client, 'THREAD_UPDATE');
    expect(update.data).toMatchObject({ id: w.thread.id, name: 'Renamed' });
    expect(await eventsOf(w.client, 'CHANNEL_UPDATE')).toHaveLength(0);
    const [entry] = await auditOf(w, 111);
    expect(entry).toMatchObject({ target_id: w.thread.id, user_id: w.bot.id, reason: 'tidy up' });
    expect(entry.changes).toEqual(expect.arrayContaining([{ key: 'name', old_value: 'Talk', new_value: 'Renamed' }]));
    expect(await auditOf(w, 11)).toHaveLength(0);
  });

  it("a guild channel's own fields (topic, nsfw, position, permission_overwrites, type) are ignored on a thread, as the platform's thread edit ignores them", async () => {
    const w = await threadWorld();
    const reply = await w.client.patch(
      channel(w.thread.id),
      {
        name: 'Only this',
        topic: 'ignored',
        nsfw: true,
        position: 3,
        type: 0,
        permission_overwrites: [{ id: w.guild.id, type: 0, allow: '0', deny: '1024' }],
      },
      w.botAuth,
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ name: 'Only this', type: 11 });
    const stored = await w.client.db.get('channels', w.thread.id);
    expect(stored).toMatchObject({ name: 'Only this', type: 11 });
    expect(stored!.topic ?? null).toBeNull();
    expect(stored!.permission_overwrites ?? []).toEqual([]);
  });

  it('a bad thread body (auto_archive_duration not one of the four, an empty name, locked not a boolean) is 400 50035 and changes nothing', async () => {
    const w = await threadWorld();
    const before = await w.client.db.get('channels', w.thread.id);
    expectInvalidField(
      await w.client.patch(channel(w.thread.id), { auto_archive_duration: 5 }, w.botAuth),
      'auto_archive_duration',
    );
    expectInvalidField(await w.client.patch(channel(w.thread.id), { name: '' }, w.botAuth), 'name');
    expectInvalidField(await w.client.patch(channel(w.thread.id), { locked: 'yes' }, w.botAuth), 'locked');
    expect(await w.client.db.get('channels', w.thread.id)).toEqual(before);
    expect(await eventsOf(w.client, 'THREAD_UPDATE')).toHaveLength(0);
  });

  it("the thread's rules apply: without MANAGE_THREADS another's thread is 403 50013; the creator renames and archives their own; an archived thread takes only its unarchiving (400 50083), which needs no MANAGE_THREADS", async () => {
    const w = await threadWorld(PERMISSIONS.MANAGE_WEBHOOKS);
    expectError(await w.client.patch(channel(w.thread.id), { name: 'Mine now' }, w.botAuth), 403, 50013);
    expectError(await w.client.patch(channel(w.thread.id), { archived: true }, w.botAuth), 403, 50013);
    const own = await w.client.post(`${channel(w.general.id)}/threads`, { name: 'Bot talk', type: 11 }, w.botAuth);
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expectError(await w.client.patch(channel(own.body.id), { locked: true }, w.botAuth), 403, 50013);
    const archived = await w.client.patch(channel(own.body.id), { name: 'Done', archived: true }, w.botAuth);
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    expect(archived.body).toMatchObject({ name: 'Done', thread_metadata: { archived: true } });
    expectError(await w.client.patch(channel(own.body.id), { name: 'Late' }, w.botAuth), 400, 50083);
    const reopened = await w.client.patch(channel(own.body.id), { archived: false }, w.botAuth);
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    expect(reopened.body.thread_metadata.archived).toBe(false);
    expect((await w.client.db.get('channels', own.body.id))!.name).toBe('Done');
    expect((await w.client.db.get('channels', w.thread.id))!.name).toBe('Talk');
  });

  it('a guild channel is still modified as a guild channel (CHANNEL_UPDATE, audit 11)', async () => {
    const w = await threadWorld(PERMISSIONS.MANAGE_CHANNELS);
    const reply = await w.client.patch(channel(w.general.id), { topic: 'Releases' }, w.botAuth);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ id: w.general.id, topic: 'Releases' });
    expect(await eventsOf(w.client, 'CHANNEL_UPDATE')).toHaveLength(1);
    expect(await eventsOf(w.client, 'THREAD_UPDATE')).toHaveLength(0);
    expect(await auditOf(w, 11)).toHaveLength(1);
  });
});

describe('DELETE /channels/{id} on a thread deletes it as a thread (deleteThread)', () => {
  it('with MANAGE_THREADS: answers the thread, removes it, its members and messages (not its parent), logs THREAD_DELETE (no CHANNEL_DELETE) and audit 112', async () => {
    const w = await threadWorld();
    expect((await w.client.post(w.messages(w.thread.id), { content: 'in the thread' }, w.aliceAuth)).status).toBe(200);
    const reply = await w.client.delete(channel(w.thread.id), w.botAuth);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ id: w.thread.id, type: 11, parent_id: w.general.id });
    expect(await w.client.db.get('channels', w.thread.id)).toBeUndefined();
    expect(await w.client.db.get('channels', w.general.id)).toBeDefined();
    const left = (await w.client.db.getAll('channel_messages')).filter((m) => m.channel_id === w.thread.id);
    expect(left).toEqual([]);
    expect((await w.client.db.getAll('thread_members')).filter((m) => m.thread_id === w.thread.id)).toEqual([]);
    const [deleted] = await eventsOf(w.client, 'THREAD_DELETE');
    expect(deleted.data).toEqual({ id: w.thread.id, guild_id: w.guild.id, parent_id: w.general.id, type: 11 });
    expect(await eventsOf(w.client, 'CHANNEL_DELETE')).toHaveLength(0);
    expect(await auditOf(w, 112)).toMatchObject([{ target_id: w.thread.id, user_id: w.bot.id }]);
    expectError(await w.client.get(channel(w.thread.id), w.botAuth), 404, 10003);
  });

  it('without MANAGE_THREADS (even with MANAGE_CHANNELS) is 403 50013 and removes nothing', async () => {
    const w = await threadWorld(PERMISSIONS.MANAGE_CHANNELS);
    expectError(await w.client.delete(channel(w.thread.id), w.botAuth), 403, 50013);
    expect(await w.client.db.get('channels', w.thread.id)).toBeDefined();
    expect(await eventsOf(w.client, 'THREAD_DELETE')).toHaveLength(0);
  });
});

describe('executing a webhook with ?thread_id posts into that thread of its channel', () => {
  async function hookWorld() {
    const w = await threadWorld();
    const hook = (await w.client.post(`${channel(w.general.id)}/webhooks`, { name: 'Deploys' }, w.botAuth)).body;
    return { ...w, hook };
  }

  it("the message is the thread's (channel_id the thread), counted in message_count, with webhook_id", async () => {
    const w = await hookWorld();
    const sent = await w.client.post(hookUrl(w.hook, `?wait=true&thread_id=${w.thread.id}`), { content: 'deployed' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({ channel_id: w.thread.id, webhook_id: w.hook.id, content: 'deployed' });
    const inThread = (await w.client.get(w.messages(w.thread.id), w.aliceAuth)).body;
    expect(inThread.map((m: any) => m.content)).toEqual(['deployed']);
    expect((await w.client.get(w.messages(), w.aliceAuth)).body.map((m: any) => m.content)).not.toContain('deployed');
    expect(await w.client.db.get('channels', w.thread.id)).toMatchObject({
      message_count: 1,
      last_message_id: sent.body.id,
    });
  });

  it("the webhook's message in the thread is read, edited and deleted with the same thread_id (10008 without it)", async () => {
    const w = await hookWorld();
    const sent = (await w.client.post(hookUrl(w.hook, `?wait=true&thread_id=${w.thread.id}`), { content: 'v1' })).body;
    const message = (query: string) => hookUrl(w.hook, `/messages/${sent.id}${query}`);
    expectError(await w.client.get(message('')), 404, 10008);
    expect((await w.client.get(message(`?thread_id=${w.thread.id}`))).body).toMatchObject({ content: 'v1' });
    const edited = await w.client.patch(message(`?thread_id=${w.thread.id}`), { content: 'v2' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ channel_id: w.thread.id, content: 'v2' });
    expect((await w.client.delete(message(`?thread_id=${w.thread.id}`))).status).toBe(204);
    expect((await w.client.get(w.messages(w.thread.id), w.aliceAuth)).body).toEqual([]);
  });

  it('an archived thread is unarchived by the execution, as a message send does (THREAD_UPDATE)', async () => {
    const w = await hookWorld();
    expect((await w.client.patch(channel(w.thread.id), { archived: true }, w.botAuth)).status).toBe(200);
    const sent = await w.client.post(hookUrl(w.hook, `?thread_id=${w.thread.id}`), { content: 'wake up' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(204);
    const stored = await w.client.db.get('channels', w.thread.id);
    expect(stored!.thread_metadata!.archived).toBe(false);
    const updates = await eventsOf(w.client, 'THREAD_UPDATE');
    expect((updates.at(-1)!.data as any).thread_metadata.archived).toBe(false);
  });

  it('an unknown thread, a thread of another channel or a channel that is no thread is 404 10003 and sends nothing', async () => {
    const w = await hookWorld();
    const other = await w.channel({ name: 'other' });
    const foreign = await w.start(other.id, 'Elsewhere');
    const before = await w.client.db.count('channel_messages');
    for (const id of ['123456789012345678', foreign.id, w.general.id, other.id])
      expectError(await w.client.post(hookUrl(w.hook, `?thread_id=${id}`), { content: 'x' }), 404, 10003);
    expect(await w.client.db.count('channel_messages')).toBe(before);
  });
});
