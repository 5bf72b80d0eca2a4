// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { PNG } from './guild-admin-fixtures';
import {
  deny,
  eventsOf,
  expectError,
  expectInvalidField,
  messageWorld,
  multipart,
  sendForm,
  type MessageWorld,
} from './messages-fixtures';

/** The message world with a bot that may manage webhooks and read the audit log. */
async function hookWorld() {
  const w = await messageWorld();
  await w.grant(w.bot.id, PERMISSIONS.MANAGE_WEBHOOKS | PERMISSIONS.VIEW_AUDIT_LOG);
  const hooks = (channelId: string = w.general.id) => `/api/v10/channels/${channelId}/webhooks`;
  const create = async (body: Record<string, unknown> = { name: 'Deploys' }) =>
    (await w.client.post(hooks(), body, w.botAuth)).body;
  return { ...w, hooks, create };
}

const url = (hook: { id: string; token?: string }, rest = '') =>
  `/api/v10/webhooks/${hook.id}${hook.token === undefined ? '' : `/${hook.token}`}${rest}`;

async function auditActions(w: MessageWorld) {
  const log = (await w.client.get(`/api/v10/guilds/${w.guild.id}/audit-logs`, w.botAuth)).body;
  return log.audit_log_entries.map((e: any) => [e.action_type, e.user_id, e.target_id]);
}

describe('incoming webhooks: /channels/{id}/webhooks, /guilds/{id}/webhooks, /webhooks/{id}[/{token}]', () => {
  it('POST /channels/{id}/webhooks creates an incoming webhook (type 1) answered with its token and creator; GET lists it by channel and guild', async () => {
    const w = await hookWorld();
    const hook = await w.create({ name: 'Deploys', avatar: PNG });
    expect(hook).toMatchObject({
      type: 1,
      name: 'Deploys',
      channel_id: w.general.id,
      guild_id: w.guild.id,
      application_id: w.application.id,
      user: { id: w.bot.id },
    });
    expect(hook.token).toMatch(/^[A-Za-z0-9_-]{60,}$/);
    expect(hook.avatar).toMatch(/^[0-9a-f]+$/);
    const byChannel = (await w.client.get(w.hooks(), w.botAuth)).body;
    const byGuild = (await w.client.get(`/api/v10/guilds/${w.guild.id}/webhooks`, w.botAuth)).body;
    expect(byChannel).toEqual([hook]);
    expect(byGuild).toEqual([hook]);
    expect((await w.client.get(url({ id: hook.id }), w.botAuth)).body).toEqual(hook);
  });

  it('MANAGE_WEBHOOKS is needed (50013), a channel the bot cannot view is 50001, a user token is refused, and nothing is stored', async () => {
    const w = await messageWorld();
    const path = `/api/v10/channels/${w.general.id}/webhooks`;
    expectError(await w.client.post(path, { name: 'Deploys' }, w.botAuth), 403, 50013);
    expectError(await w.client.get(path, w.botAuth), 403, 50013);
    expectError(await w.client.get(`/api/v10/guilds/${w.guild.id}/webhooks`, w.botAuth), 403, 50013);
    await w.grant(w.bot.id, PERMISSIONS.MANAGE_WEBHOOKS);
    const hidden = await w.channel({ permission_overwrites: [deny(w.guild.id, PERMISSIONS.VIEW_CHANNEL)] });
    expectError(await w.client.post(`/api/v10/channels/${hidden.id}/webhooks`, { name: 'x' }, w.botAuth), 403, 50001);
    expectError(await w.client.post(path, { name: 'Deploys' }, w.aliceAuth), 403, 20002);
    expectError(await w.client.post('/api/v10/channels/1/webhooks', { name: 'x' }, w.botAuth), 404, 10003);
    expect(await w.client.db.count('channel_webhooks')).toBe(0);
    expect(await eventsOf(w.client, 'WEBHOOKS_UPDATE')).toEqual([]);
  });

  it('a name is 1-80 characters and may not contain "clyde" or "discord" (50035); an avatar must be an image data URI', async () => {
    const w = await hookWorld();
    const post = (body: unknown) => w.client.post(w.hooks(), body, w.botAuth);
    expectInvalidField(await post({ name: '' }), 'name');
    expectInvalidField(await post({ name: 'x'.repeat(81) }), 'name');
    expectInvalidField(await post({ name: 'My Clyde bot' }), 'name');
    expectInvalidField(await post({ name: 'DISCORD hooks' }), 'name');
    expectInvalidField(await post({ name: 'ok', avatar: 'not an image' }), 'avatar');
    expect((await post({ name: 'x'.repeat(80) })).status).toBe(200);
    expect(await w.client.db.count('channel_webhooks')).toBe(1);
  });

  it('a channel holds at most 15 webhooks: the 16th is 400 30007', async () => {
    const w = await hookWorld();
    for (let i = 0; i < 15; i++)
      expect((await w.client.post(w.hooks(), { name: `h${i}` }, w.botAuth)).status).toBe(200);
    expectError(await w.client.post(w.hooks(), { name: 'h15' }, w.botAuth), 400, 30007);
    expect(await w.client.db.count('channel_webhooks')).toBe(15);
  });

  it('create, modify and delete each log WEBHOOKS_UPDATE {guild_id, channel_id} (GUILD_WEBHOOKS intent) and a WEBHOOK_CREATE / UPDATE / DELETE audit entry, never the token', async () => {
    const w = await hookWorld();
    const hook = await w.create();
    const other = await w.channel();
    const moved = (await w.client.patch(url({ id: hook.id }), { name: 'Builds', channel_id: other.id }, w.botAuth))
      .body;
    expect(moved).toMatchObject({ name: 'Builds', channel_id: other.id, token: hook.token });
    expect((await w.client.delete(url({ id: hook.id }), w.botAuth)).status).toBe(204);
    const events = await eventsOf(w.client, 'WEBHOOKS_UPDATE');
    expect(events.map((e) => (e.data as any).channel_id)).toEqual([w.general.id, other.id, w.general.id, other.id]);
    expect(events[0].audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_WEBHOOKS });
    expect(await auditActions(w)).toEqual([
      [52, w.bot.id, hook.id],
      [51, w.bot.id, hook.id],
      [50, w.bot.id, hook.id],
    ]);
    const audit = (await w.client.get(`/api/v10/guilds/${w.guild.id}/audit-logs`, w.botAuth)).body;
    // The deleted webhook is gone from the audit log's `webhooks`; a live one is listed, without token.
    expect(audit.webhooks).toEqual([]);
    const live = await w.create({ name: 'Live' });
    const { token: _t, user: _u, ...listed } = live;
    expect((await w.client.get(`/api/v10/guilds/${w.guild.id}/audit-logs`, w.botAuth)).body.webhooks).toEqual([listed]);
    const log = JSON.stringify([await w.client.db.getAll('events'), await w.client.db.getAll('audit_log_entries')]);
    expect(log).not.toContain(hook.token);
    expectError(await w.client.get(url({ id: hook.id }), w.botAuth), 404, 10015);
  });

  it('PATCH /webhooks/{id} may only move it to a channel of its guild where the bot also has MANAGE_WEBHOOKS', async () => {
    const w = await hookWorld();
    const hook = await w.create();
    const locked = await w.channel({ permission_overwrites: [deny(w.guild.id, PERMISSIONS.MANAGE_WEBHOOKS)] });
    const { guild } = (await w.client.post('/sandbox/guilds', { name: 'Elsewhere', owner_id: w.alice.id })).body;
    const elsewhere = (await w.client.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'x', type: 0 })).body
      .channel;
    const byId = url({ id: hook.id });
    expectError(await w.client.patch(byId, { channel_id: locked.id }, w.botAuth), 403, 50013);
    expectInvalidField(await w.client.patch(byId, { channel_id: elsewhere.id }, w.botAuth), 'channel_id');
    expect((await w.client.db.get('channel_webhooks', hook.id))!.channel_id).toBe(w.general.id);
  });

  it('GET / PATCH / DELETE /webhooks/{id}/{token} need no Authorization and answer without user; a wrong token is 401 50027, an unknown webhook 404 10015', async () => {
    const w = await hookWorld();
    const hook = await w.create();
    const { user: _user, ...withoutUser } = hook;
    expect((await w.client.get(url(hook))).body).toEqual(withoutUser);
    const renamed = (await w.client.patch(url(hook), { name: 'Renamed' })).body;
    expect(renamed).toMatchObject({ name: 'Renamed', token: hook.token });
    expect(renamed.user).toBeUndefined();
    // Without the bot's token the webhook cannot move: `channel_id` is not read.
    const other = await w.channel();
    expect((await w.client.patch(url(hook), { channel_id: other.id })).body.channel_id).toBe(w.general.id);
    expectError(await w.client.get(url({ id: hook.id, token: 'wrong' })), 401, 50027);
    expectError(await w.client.delete(url({ id: hook.id, token: 'wrong' })), 401, 50027);
    expectError(await w.client.get(url({ id: '1', token: 'x' })), 404, 10015);
    expect((await w.client.delete(url(hook))).status).toBe(204);
    expect(await w.client.db.count('channel_webhooks')).toBe(0);
    // Changes made with the webhook's own token are audited with no user.
    expect((await auditActions(w)).slice(0, 2)).toEqual([
      [52, null, hook.id],
      [51, null, hook.id],
    ]);
  });
});

describe('executing an incoming webhook: POST /webhooks/{id}/{token} and its messages', () => {
  it('sends a message authored by the webhook (its id, bot, the username override) with webhook_id; 204 without wait, the message with wait=true', async () => {
    const w = await hookWorld();
    const hook = await w.create();
    expect((await w.client.post(url(hook), { content: 'quiet' })).status).toBe(204);
    const sent = await w.client.post(url(hook, '?wait=true'), {
      content: 'deployed',
      username: 'CI',
      embeds: [{ title: 'Build 42' }],
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      content: 'deployed',
      channel_id: w.general.id,
      webhook_id: hook.id,
      author: { id: hook.id, username: 'CI', bot: true },
      embeds: [{ title: 'Build 42' }],
    });
    const history = (await w.client.get(w.messages(), w.aliceAuth)).body;
    expect(history.map((m: any) => [m.content, m.author.username])).toEqual([
      ['deployed', 'CI'],
      ['quiet', 'Deploys'],
    ]);
    const created = await eventsOf(w.client, 'MESSAGE_CREATE');
    expect(created).toHaveLength(2);
    expect((created[1].data as any).member).toBeUndefined();
    expect(JSON.stringify(created)).not.toContain(hook.token);
  });

  it('the token authorizes, not channel permissions; a bad body (empty, username with "discord") is 50035 and stores nothing', async () => {
    const w = await hookWorld();
    const hook = await w.create();
    await w.client.put(
      `/api/v10/channels/${w.general.id}/permissions/${w.guild.id}`,
      deny(w.guild.id, PERMISSIONS.SEND_MESSAGES),
      w.botAuth,
    );
    expect((await w.client.post(url(hook, '?wait=true'), { content: 'still' })).status).toBe(200);
    expectError(await w.client.post(url(hook), {}), 400, 50006);
    expectInvalidField(await w.client.post(url(hook), { content: 'x', username: 'discord' }), 'username');
    expectInvalidField(await w.client.post(url(hook, '?wait=maybe'), { content: 'x' }), 'wait');
    expectError(await w.client.post(url({ id: hook.id, token: 'nope' }), { content: 'x' }), 401, 50027);
    expect(await w.client.db.count('channel_messages')).toBe(1);
  });

  it("multipart executions upload files; thread_id must name a thread of the webhook's channel (10003)", async () => {
    const w = await hookWorld();
    const hook = await w.create();
    const form = multipart({ content: 'log' }, [{ name: 'build.txt', content: 'ok' }]);
    const sent = await sendForm(w.client, 'POST', url(hook, '?wait=true'), form, '');
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.attachments.map((a: any) => a.filename)).toEqual(['build.txt']);
    expectError(await w.client.post(url(hook, `?thread_id=${w.general.id}`), { content: 'x' }), 404, 10003);
  });

  it("GET / PATCH / DELETE .../messages/{id} reach only the webhook's own messages (10008 otherwise, and for @original)", async () => {
    const w = await hookWorld();
    const hook = await w.create();
    const other = await w.create({ name: 'Other' });
    const sent = (await w.client.post(url(hook, '?wait=true'), { content: 'v1', username: 'CI' })).body;
    const mine = url(hook, `/messages/${sent.id}`);
    expect((await w.client.get(mine)).body).toMatchObject({ id: sent.id, content: 'v1', author: { username: 'CI' } });
    const edited = (await w.client.patch(mine, { content: 'v2' })).body;
    expect(edited).toMatchObject({ content: 'v2', webhook_id: hook.id, author: { id: hook.id, username: 'CI' } });
    expect(edited.edited_timestamp).not.toBeNull();
    expectError(await w.client.get(url(other, `/messages/${sent.id}`)), 404, 10008);
    expectError(await w.client.get(url(hook, '/messages/@original')), 404, 10008);
    const byAlice = (await w.client.post(w.messages(), { content: 'hi' }, w.aliceAuth)).body;
    expectError(await w.client.delete(url(hook, `/messages/${byAlice.id}`)), 404, 10008);
    expect((await w.client.delete(mine)).status).toBe(204);
    expectError(await w.client.get(mine), 404, 10008);
    expect((await eventsOf(w.client, 'MESSAGE_UPDATE')).length).toBe(1);
    expect((await eventsOf(w.client, 'MESSAGE_DELETE')).length).toBe(1);
  });

  it('an id that is no webhook is still an application with an interaction token: follow-ups keep working on the shared path', async () => {
    const w = await hookWorld();
    expectError(await w.client.post(`/api/v10/webhooks/${w.application.id}/not-a-token`, { content: 'x' }), 404, 10015);
  });

  it('POST .../slack turns a Slack body into a webhook message (text the content, attachments embeds) and answers ok; a wrong token is 401 50027', async () => {
    const w = await hookWorld();
    const hook = await w.create();
    const reply = await w.client.request('POST', url(hook, '/slack'), {
      body: {
        text: 'deployed',
        username: 'CI',
        attachments: [
          {
            title: 'Build 7',
            text: 'all green',
            color: '#36a64f',
            fields: [{ title: 'Tests', value: '412', short: true }],
          },
        ],
      },
    });
    expect(reply.status).toBe(200);
    const [message] = (await w.client.get(w.messages(), w.aliceAuth)).body;
    expect(message).toMatchObject({
      content: 'deployed',
      webhook_id: hook.id,
      author: { username: 'CI' },
      embeds: [
        {
          title: 'Build 7',
          description: 'all green',
          color: 0x36a64f,
          fields: [{ name: 'Tests', value: '412', inline: true }],
        },
      ],
    });
    expectError(await w.client.post(url({ id: hook.id, token: 'nope' }, '/slack'), { text: 'x' }), 401, 50027);
    expectInvalidField(await w.client.post(url(hook, '/slack'), { text: 'x', username: 'discord' }), 'username');
    expect(await w.client.db.count('channel_messages')).toBe(1);
  });
});
