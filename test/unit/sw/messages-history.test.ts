// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createMessage } from '../../../src/platform/messages/create';
import { editMessage } from '../../../src/platform/messages/edits';
import { CHANNEL_MESSAGE_FLAGS, MESSAGE_TYPES } from '../../../src/store/records/messages';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { serializeUser } from '../../../src/platform/accounts/users';
import { itInProcess } from '../app-harness';
import {
  deny,
  eventsOf,
  expectError,
  expectInvalidField,
  messageCounts,
  messageWorld,
  type MessageWorld,
} from './messages-fixtures';

/** Five messages m0 (oldest) to m4 by the bot; their ids. */
async function five(w: MessageWorld): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await w.client.post(w.messages(), { content: `m${i}` }, w.botAuth)).body.id);
  return ids;
}

describe('GET /channels/{id}/messages?limit&before&after&around', () => {
  it('answers newest first; before, after (the closest ones) and around; limit 1 to 100', async () => {
    const w = await messageWorld();
    const m = await five(w);
    const contents = async (query: string) =>
      (await w.client.get(`${w.messages()}${query}`, w.botAuth)).body.map((x: any) => x.content);
    expect(await contents('')).toEqual(['m4', 'm3', 'm2', 'm1', 'm0']);
    expect(await contents('?limit=2')).toEqual(['m4', 'm3']);
    expect(await contents(`?before=${m[3]}`)).toEqual(['m2', 'm1', 'm0']);
    expect(await contents(`?after=${m[1]}&limit=2`)).toEqual(['m3', 'm2']);
    expect(await contents(`?after=${m[1]}`)).toEqual(['m4', 'm3', 'm2']);
    expect(await contents(`?around=${m[2]}&limit=3`)).toEqual(['m3', 'm2', 'm1']);
    expectInvalidField(await w.client.get(`${w.messages()}?limit=101`, w.botAuth), 'limit');
    expect((await w.client.get(`${w.messages()}?before=${m[1]}&after=${m[0]}`, w.botAuth)).status).toBe(400);
  });

  it('needs VIEW_CHANNEL (403 50001); without READ_MESSAGE_HISTORY the history is empty and one message is 403 50013', async () => {
    const w = await messageWorld();
    const noHistory = await w.channel({ permission_overwrites: [deny(w.bot.id, PERMISSIONS.READ_MESSAGE_HISTORY, 1)] });
    const hidden = await w.channel({ permission_overwrites: [deny(w.guild.id, PERMISSIONS.VIEW_CHANNEL)] });
    const sent = (await w.client.post(w.messages(noHistory.id), { content: 'x' }, w.aliceAuth)).body;
    expect((await w.client.get(w.messages(noHistory.id), w.botAuth)).body).toEqual([]);
    expectError(await w.client.get(`${w.messages(noHistory.id)}/${sent.id}`, w.botAuth), 403, 50013);
    expectError(await w.client.get(w.messages(hidden.id), w.botAuth), 403, 50001);
    expect((await w.client.get(w.messages(noHistory.id), w.bobAuth)).body).toHaveLength(1);
  });

  it('GET one message answers it; an unknown message is 404 10008', async () => {
    const w = await messageWorld();
    const sent = (await w.client.post(w.messages(), { content: 'one' }, w.botAuth)).body;
    expect((await w.client.get(`${w.messages()}/${sent.id}`, w.botAuth)).body).toMatchObject({
      id: sent.id,
      content: 'one',
    });
    expect((await w.client.get(`${w.messages()}/${sent.id}`, w.botAuth)).body.nonce).toBeUndefined();
    expectError(await w.client.get(`${w.messages()}/123`, w.botAuth), 404, 10008);
  });

  it('MESSAGE_CONTENT: a bot without the intent reads empty content, embeds, attachments and components, except its own messages and those mentioning it', async () => {
    const w = await messageWorld();
    await w.client.post(w.messages(), { content: 'secret', embeds: [{ title: 't' }] }, w.aliceAuth);
    await w.client.post(w.messages(), { content: `hey <@${w.bot.id}>` }, w.aliceAuth);
    await w.client.post(w.messages(), { content: 'mine' }, w.botAuth);
    const bot = (await w.client.get(w.messages(), w.botAuth)).body;
    expect(bot.map((m: any) => m.content)).toEqual(['mine', `hey <@${w.bot.id}>`, '']);
    expect(bot[2]).toMatchObject({ embeds: [], attachments: [], components: [] });
    const reader = (await w.client.get(w.messages(), w.readerAuth)).body;
    expect(reader.map((m: any) => m.content)).toEqual(['mine', `hey <@${w.bot.id}>`, 'secret']);
    expect((await w.client.get(w.messages(), w.bobAuth)).body[2].content).toBe('secret');
  });
});

describe('PATCH /channels/{id}/messages/{id}', () => {
  it('the author edits content: edited_timestamp by the platform clock, MESSAGE_UPDATE to the guild', async () => {
    const w = await messageWorld();
    const sent = (await w.client.post(w.messages(), { content: 'typo' }, w.botAuth)).body;
    await w.client.put('/sandbox/clock', { now: '2026-04-01T12:00:00.000Z' });
    const edited = await w.client.patch(`${w.messages()}/${sent.id}`, { content: `fixed <@${w.bob.id}>` }, w.botAuth);
    expect(edited.body).toMatchObject({
      id: sent.id,
      content: `fixed <@${w.bob.id}>`,
      edited_timestamp: '2026-04-01T12:00:00.000Z',
      mentions: [{ id: w.bob.id }],
    });
    const [event] = await eventsOf(w.client, 'MESSAGE_UPDATE');
    expect(event.data).toMatchObject({ id: sent.id, content: edited.body.content, guild_id: w.guild.id });
  });

  it("another user's content is 403 50005; others may change flags (SUPPRESS_EMBEDS) only with MANAGE_MESSAGES (403 50013)", async () => {
    const w = await messageWorld();
    const sent = (await w.client.post(w.messages(), { content: 'bot says', embeds: [{ title: 'e' }] }, w.botAuth)).body;
    const path = `${w.messages()}/${sent.id}`;
    expectError(await w.client.patch(path, { content: 'hacked' }, w.aliceAuth), 403, 50005);
    expectError(await w.client.patch(path, { flags: CHANNEL_MESSAGE_FLAGS.SUPPRESS_EMBEDS }, w.bobAuth), 403, 50013);
    const suppressed = await w.client.patch(path, { flags: CHANNEL_MESSAGE_FLAGS.SUPPRESS_EMBEDS }, w.aliceAuth);
    expect(suppressed.body).toMatchObject({
      flags: CHANNEL_MESSAGE_FLAGS.SUPPRESS_EMBEDS,
      content: 'bot says',
      edited_timestamp: null,
    });
  });

  it('IS_COMPONENTS_V2 can be set (content reset to null, embeds to []) but never removed', async () => {
    const w = await messageWorld();
    const sent = (await w.client.post(w.messages(), { content: 'legacy' }, w.botAuth)).body;
    const path = `${w.messages()}/${sent.id}`;
    const components = [{ type: 10, content: 'now V2' }];
    expectInvalidField(
      await w.client.patch(path, { flags: CHANNEL_MESSAGE_FLAGS.IS_COMPONENTS_V2, components }, w.botAuth),
      'content',
    );
    const v2 = await w.client.patch(
      path,
      { flags: CHANNEL_MESSAGE_FLAGS.IS_COMPONENTS_V2, content: null, components },
      w.botAuth,
    );
    expect(v2.body).toMatchObject({
      flags: CHANNEL_MESSAGE_FLAGS.IS_COMPONENTS_V2,
      content: '',
      components: [{ type: 10, content: 'now V2' }],
    });
    expectInvalidField(await w.client.patch(path, { flags: 0 }, w.botAuth), 'flags');
    expectInvalidField(await w.client.patch(path, { content: 'back' }, w.botAuth), 'content');
  });

  it('an edit AutoMod blocks is 400 200000 and leaves the message as it was (also for an interaction response edited with a poll)', async () => {
    const w = await messageWorld();
    const sent = (await w.client.post(w.messages(), { content: 'fine' }, w.botAuth)).body;
    await w.client.put(`/sandbox/guilds/${w.guild.id}/automod/keywords`, { keywords: ['forbidden'] });
    const before = await messageCounts(w.client);
    expectError(
      await w.client.patch(`${w.messages()}/${sent.id}`, { content: 'forbidden words' }, w.botAuth),
      400,
      200000,
    );
    expect((await w.client.get(`${w.messages()}/${sent.id}`, w.botAuth)).body.content).toBe('fine');
    expect(await messageCounts(w.client)).toEqual(before);
    expectInvalidField(
      await w.client.patch(
        `${w.messages()}/${sent.id}`,
        { poll: { question: { text: 'Q' }, answers: [{ poll_media: { text: 'A' } }] } },
        w.botAuth,
      ),
      'poll',
    );
  });

  itInProcess('AutoMod blocks an interaction response edited with a poll too (400 200000)', async () => {
    const w = await messageWorld();
    const sent = (await w.client.post(w.messages(), { content: 'fine' }, w.botAuth)).body;
    await w.client.put(`/sandbox/guilds/${w.guild.id}/automod/keywords`, { keywords: ['forbidden'] });
    const ctx = w.client.app.ctx;
    const bot = (await ctx.db.get('users', w.bot.id))!;
    const edit = editMessage(ctx, {
      channelId: w.general.id,
      messageId: sent.id,
      editor: { user: bot, application: null },
      allowPoll: true,
      input: { content: 'Forbidden', poll: { question: { text: 'Q' }, answers: [{ poll_media: { text: 'A' } }] } },
    });
    await expect(edit).rejects.toMatchObject({ status: 400, code: 200000 });
  });
});

describe('DELETE /channels/{id}/messages/{id}', () => {
  it("the author's own, or anyone's with MANAGE_MESSAGES; logs MESSAGE_DELETE with its ids; unknown is 404 10008", async () => {
    const w = await messageWorld();
    const a = (await w.client.post(w.messages(), { content: 'a' }, w.botAuth)).body;
    const b = (await w.client.post(w.messages(), { content: 'b' }, w.botAuth)).body;
    expectError(await w.client.delete(`${w.messages()}/${a.id}`, w.bobAuth), 403, 50013);
    expect((await w.client.delete(`${w.messages()}/${a.id}`, w.botAuth)).status).toBe(204);
    expect((await w.client.delete(`${w.messages()}/${b.id}`, w.aliceAuth)).status).toBe(204);
    expectError(await w.client.delete(`${w.messages()}/${a.id}`, w.botAuth), 404, 10008);
    const events = await eventsOf(w.client, 'MESSAGE_DELETE');
    expect(events.map((e) => e.data)).toEqual([
      { id: a.id, channel_id: w.general.id, guild_id: w.guild.id },
      { id: b.id, channel_id: w.general.id, guild_id: w.guild.id },
    ]);
    expect((await messageCounts(w.client)).messages).toBe(0);
  });
});

describe('interaction_metadata (spec: on messages created by an interaction response or follow-up; its user is a nested user object, no user_id)', () => {
  itInProcess(
    'createMessage stores and answers it as given, with the interaction type and the application',
    async () => {
      const w = await messageWorld();
      const ctx = w.client.app.ctx;
      const [bot, bob] = await Promise.all([ctx.db.get('users', w.bot.id), ctx.db.get('users', w.bob.id)]);
      const metadata = {
        id: '999',
        type: 2,
        user: serializeUser(bob!),
        authorizing_integration_owners: { '0': w.guild.id },
      };
      const message = await createMessage(ctx, {
        channelId: w.general.id,
        author: { user: bot!, application: null },
        input: { content: 'pong' },
        checkPermissions: false,
        type: MESSAGE_TYPES.CHAT_INPUT_COMMAND,
        applicationId: w.application.id,
        webhookId: w.application.id,
        interactionMetadata: metadata,
        uploadContext: 'interaction',
      });
      expect(message).toMatchObject({
        type: 20,
        application_id: w.application.id,
        webhook_id: w.application.id,
        interaction_metadata: metadata,
      });
      expect(message.interaction_metadata).not.toHaveProperty('user_id');
      const read = (await w.client.get(`${w.messages()}/${message.id}`, w.bobAuth)).body;
      expect(read.interaction_metadata.user).toMatchObject({ id: w.bob.id, username: 'bob' });
      expect(read).not.toHaveProperty('interaction');
    },
  );
});
