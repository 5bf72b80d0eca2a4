// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { eventsOf, expectError, expectInvalidField, messageWorld, type MessageWorld } from './messages-fixtures';

const bulk = (w: MessageWorld, channelId: string = w.general.id) => `${w.messages(channelId)}/bulk-delete`;

/** Sends `n` messages as alice in general; their ids, oldest first. */
async function sent(w: MessageWorld, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await w.client.post(w.messages(), { content: `m${i}` }, w.aliceAuth)).body.id);
  return ids;
}

/** The bot with MANAGE_MESSAGES. */
const manager = (w: MessageWorld) => w.grant(w.bot.id, PERMISSIONS.MANAGE_MESSAGES);

describe('Bulk Delete Messages: POST /channels/{id}/messages/bulk-delete {messages}', () => {
  it('deletes the messages with their reactions, logs MESSAGE_DELETE_BULK {ids, channel_id, guild_id} (GUILD_MESSAGES) and audit log MESSAGE_BULK_DELETE (73) with the count and reason', async () => {
    const w = await messageWorld();
    await w.grant(w.bot.id, PERMISSIONS.MANAGE_MESSAGES | PERMISSIONS.VIEW_AUDIT_LOG);
    const [a, b, kept] = await sent(w, 3);
    await w.client.put(`${w.messages()}/${a}/reactions/${encodeURIComponent('👍')}/@me`, undefined, w.bobAuth);
    const reply = await w.client.request('POST', bulk(w), {
      body: { messages: [a, b] },
      token: w.botAuth,
      headers: { 'X-Audit-Log-Reason': encodeURIComponent('clean up ✓') },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(204);
    expect((await w.client.get(w.messages(), w.aliceAuth)).body.map((m: any) => m.id)).toEqual([kept]);
    expect(await w.client.db.count('message_reactions')).toBe(0);
    const [event] = await eventsOf(w.client, 'MESSAGE_DELETE_BULK');
    expect(event.data).toEqual({ ids: [a, b], channel_id: w.general.id, guild_id: w.guild.id });
    expect(event.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_MESSAGES });
    const log = await w.client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?action_type=73`, w.botAuth);
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    expect(log.body.audit_log_entries).toMatchObject([
      {
        action_type: 73,
        user_id: w.bot.id,
        target_id: w.general.id,
        options: { count: '2' },
        reason: 'clean up ✓',
      },
    ]);
  });

  it('2 to 100 distinct ids: fewer, more or duplicates are 400 50035 naming messages, and nothing is deleted', async () => {
    const w = await messageWorld();
    await manager(w);
    const [a, b] = await sent(w, 2);
    expectInvalidField(await w.client.post(bulk(w), { messages: [a] }, w.botAuth), 'messages');
    const many = Array.from({ length: 101 }, (_, i) => String(BigInt(a) + BigInt(i)));
    expectInvalidField(await w.client.post(bulk(w), { messages: many }, w.botAuth), 'messages');
    expectInvalidField(await w.client.post(bulk(w), { messages: [a, a] }, w.botAuth), 'messages');
    expect((await w.client.get(w.messages(), w.aliceAuth)).body.map((m: any) => m.id)).toEqual([b, a]);
    expect(await eventsOf(w.client, 'MESSAGE_DELETE_BULK')).toEqual([]);
  });

  it('a message older than 14 days by the platform clock refuses the whole request: 400 50034', async () => {
    const w = await messageWorld();
    await manager(w);
    await w.client.put('/sandbox/clock', { now: '2026-03-01T00:00:00.000Z' });
    const [old] = await sent(w, 1);
    await w.client.put('/sandbox/clock', { now: '2026-03-14T23:59:00.000Z' });
    const [fresh] = await sent(w, 1);
    await w.client.put('/sandbox/clock', { now: '2026-03-15T00:00:01.000Z' });
    expectError(await w.client.post(bulk(w), { messages: [old, fresh] }, w.botAuth), 400, 50034);
    expect((await w.client.get(w.messages(), w.aliceAuth)).body).toHaveLength(2);
    await w.client.put('/sandbox/clock', { now: '2026-03-14T23:59:30.000Z' });
    expect((await w.client.post(bulk(w), { messages: [old, fresh] }, w.botAuth)).status).toBe(204);
  });

  it('ids of messages that do not exist count toward the limits and are skipped', async () => {
    const w = await messageWorld();
    await manager(w);
    const [a] = await sent(w, 1);
    const ghost = String(BigInt(a) + 1n);
    expect((await w.client.post(bulk(w), { messages: [a, ghost] }, w.botAuth)).status).toBe(204);
    const [event] = await eventsOf(w.client, 'MESSAGE_DELETE_BULK');
    expect(event.data).toMatchObject({ ids: [a] });
  });

  it('needs MANAGE_MESSAGES (403 50013, nothing deleted); a user token is 403 20002; a DM channel is 403 50003', async () => {
    const w = await messageWorld();
    const ids = await sent(w, 2);
    expectError(await w.client.post(bulk(w), { messages: ids }, w.botAuth), 403, 50013);
    expect((await w.client.get(w.messages(), w.aliceAuth)).body).toHaveLength(2);
    expectError(await w.client.post(bulk(w), { messages: ids }, w.aliceAuth), 403, 20002);
    const dm = (await w.client.post('/api/v10/users/@me/channels', { recipient_id: w.alice.id }, w.botAuth)).body;
    expectError(await w.client.post(bulk(w, dm.id), { messages: ids }, w.botAuth), 403, 50003);
    expect(await eventsOf(w.client, 'MESSAGE_DELETE_BULK')).toEqual([]);
  });
});
