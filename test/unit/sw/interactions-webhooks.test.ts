// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { eventsOf, expectError, expectInvalidField } from './messages-fixtures';
import { freeze, interactionWorld, invoked } from './interactions-fixtures';

const poll = {
  question: { text: 'Best die?' },
  answers: [{ poll_media: { text: 'd6' } }, { poll_media: { text: 'd20' } }],
};

describe('/webhooks/{application.id}/{interaction.token}: the original response and follow-ups', () => {
  it('a deferred response (5) shows a loading message; PATCH @original replaces it, GET @original reads it', async () => {
    const w = await interactionWorld();
    const interaction = await invoked(w);
    const deferred = await w.callback(interaction, { type: 5 }, '?with_response=true');
    expect(deferred.body.interaction).toMatchObject({
      response_message_loading: true,
      response_message_ephemeral: false,
    });
    const edited = await w.client.patch(w.webhook(interaction, '/messages/@original'), {
      embeds: [{ title: 'Result' }],
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      id: deferred.body.interaction.response_message_id,
      content: '',
      embeds: [{ title: 'Result' }],
    });
    expect((await w.client.get(w.webhook(interaction, '/messages/@original'))).body.id).toBe(edited.body.id);
  });

  it('edit original interaction response: a poll can be created while editing a deferred response, not on a response sent as a message', async () => {
    const w = await interactionWorld();
    const deferred = await invoked(w);
    await w.callback(deferred, { type: 5 });
    const withPoll = await w.client.patch(w.webhook(deferred, '/messages/@original'), { poll });
    expect(withPoll.status, JSON.stringify(withPoll.body)).toBe(200);
    expect(withPoll.body.poll.question.text).toBe('Best die?');
    const direct = await invoked(w);
    await w.callback(direct, { type: 4, data: { content: 'Rolled' } });
    expectInvalidField(await w.client.patch(w.webhook(direct, '/messages/@original'), { poll }), 'poll');
  });

  it('HTTP 400 when AutoMod blocks the content of an edited deferred response; the loading message stays', async () => {
    const w = await interactionWorld();
    await w.client.put(`/sandbox/guilds/${w.guild.id}/automod/keywords`, { keywords: ['cheat'] });
    const interaction = await invoked(w);
    await w.callback(interaction, { type: 5 });
    const blocked = await w.client.patch(w.webhook(interaction, '/messages/@original'), {
      content: 'cheat codes inside',
    });
    expectError(blocked, 400, 200000);
    expect((await w.client.get(w.webhook(interaction, '/messages/@original'))).body.content).toMatch(/thinking/);
    expect(
      (await w.client.patch(w.webhook(interaction, '/messages/@original'), { content: 'clean' })).body.content,
    ).toBe('clean');
  });

  it('a follow-up carries interaction_metadata with the original response id; DELETE removes it (204, then 10008)', async () => {
    const w = await interactionWorld();
    const interaction = await invoked(w);
    const original = (await w.callback(interaction, { type: 4, data: { content: 'first' } }, '?with_response=true'))
      .body.resource.message;
    const followup = await w.client.post(w.webhook(interaction), { content: 'second', flags: 64 });
    expect(followup.status).toBe(200);
    expect(followup.body).toMatchObject({
      content: 'second',
      flags: 64,
      interaction_metadata: { id: interaction.id, original_response_message_id: original.id, user: { id: w.alice.id } },
    });
    expect(
      (await w.client.patch(w.webhook(interaction, `/messages/${followup.body.id}`), { content: 'edited' })).body
        .content,
    ).toBe('edited');
    expect((await w.client.delete(w.webhook(interaction, `/messages/${followup.body.id}`))).status).toBe(204);
    expectError(await w.client.get(w.webhook(interaction, `/messages/${followup.body.id}`)), 404, 10008);
    // Only messages of this interaction.
    const other = (await w.client.post(`/api/v10/channels/${w.general.id}/messages`, { content: 'mine' }, w.botAuth))
      .body;
    expectError(await w.client.get(w.webhook(interaction, `/messages/${other.id}`)), 404, 10008);
  });

  it('a follow-up right after a deferral edits the loading message instead (deprecated), keeping its ephemeral state', async () => {
    const w = await interactionWorld();
    const interaction = await invoked(w);
    const deferred = (await w.callback(interaction, { type: 5, data: { flags: 64 } }, '?with_response=true')).body;
    const reply = await w.client.post(w.webhook(interaction), { content: 'done' });
    expect(reply.body).toMatchObject({ id: deferred.interaction.response_message_id, content: 'done', flags: 64 });
    const next = await w.client.post(w.webhook(interaction), { content: 'more' });
    expect(next.body.id).not.toBe(deferred.interaction.response_message_id);
  });

  it('apps installed only as user-installed apps may create at most 5 follow-ups per interaction (40094 after); guild-installed apps more', async () => {
    const w = await interactionWorld();
    const { id: cmd } = (
      await w.client.post(
        `/api/v10/applications/${w.activity.id}/commands`,
        { name: 'ping', description: 'Ping', integration_types: [1] },
        w.activity.auth,
      )
    ).body;
    await w.userInstall(w.alice.id, w.activity.id);
    const interaction = await invoked(w, { application_id: w.activity.id, data: { id: cmd } });
    expect(interaction.authorizing_integration_owners).toEqual({ 1: w.alice.id });
    await w.callback(interaction, { type: 4, data: { content: 'pong' } });
    for (let i = 0; i < 5; i++)
      expect((await w.client.post(w.webhook(interaction, '', w.activity.id), { content: `f${i}` })).status).toBe(200);
    const sixth = await w.client.post(w.webhook(interaction, '', w.activity.id), { content: 'f5' });
    expectError(sixth, 400, 40094);
    const guildApp = await invoked(w);
    await w.callback(guildApp, { type: 4, data: { content: 'pong' } });
    for (let i = 0; i < 6; i++)
      expect((await w.client.post(w.webhook(guildApp), { content: `f${i}` })).status).toBe(200);
  });

  it('the token works for 15 minutes by the platform clock (404 10015 Unknown Webhook after), only once answered, only for its application', async () => {
    const w = await interactionWorld();
    await freeze(w.client, '2026-03-01T10:00:00.000Z');
    const unanswered = await invoked(w);
    expectError(await w.client.post(w.webhook(unanswered), { content: 'x' }), 404, 10015);
    const interaction = await invoked(w);
    await w.callback(interaction, { type: 4, data: { content: 'first' } });
    expectError(await w.client.post(w.webhook(interaction, '', w.activity.id), { content: 'x' }), 404, 10015);
    await freeze(w.client, '2026-03-01T10:14:59.000Z');
    expect((await w.client.post(w.webhook(interaction), { content: 'in time' })).status).toBe(200);
    await freeze(w.client, '2026-03-01T10:15:00.000Z');
    expectError(await w.client.post(w.webhook(interaction), { content: 'late' }), 404, 10015);
    expectError(await w.client.get(w.webhook({ token: 'interaction.nope' }, '/messages/@original')), 404, 10015);
  });

  it('in the DM with the bot the response and follow-ups are DM messages the recipients see (MESSAGE_CREATE to them)', async () => {
    const w = await interactionWorld();
    const interaction = await invoked(w, { guild_id: undefined, channel_id: undefined });
    const reply = await w.callback(interaction, { type: 4, data: { content: 'dm reply' } }, '?with_response=true');
    expect(reply.body.resource.message).toMatchObject({
      channel_id: interaction.channel_id,
      content: 'dm reply',
      interaction_metadata: { id: interaction.id },
    });
    const [event] = (await eventsOf(w.client, 'MESSAGE_CREATE')).filter(
      (e) => (e.data as any).channel_id === interaction.channel_id,
    );
    expect(event.audience.user_ids?.sort()).toEqual([w.alice.id, w.bot.id].sort());
    expect(
      (await w.client.patch(w.webhook(interaction, '/messages/@original'), { content: 'edited' })).body.content,
    ).toBe('edited');
    expect((await w.client.post(w.webhook(interaction), { content: 'follow' })).status).toBe(200);
    expect((await w.client.delete(w.webhook(interaction, '/messages/@original'))).status).toBe(204);
    expectError(await w.client.get(w.webhook(interaction, '/messages/@original')), 404, 10008);
  });
});
