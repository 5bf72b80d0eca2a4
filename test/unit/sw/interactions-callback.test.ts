// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { eventsOf, expectError, expectInvalidField, messageCounts, multipart } from './messages-fixtures';
import { freeze, interactionWorld, invoked, type InteractionWorld } from './interactions-fixtures';

const MiB = 1024 * 1024;

/** A message of the bot with a button and a select, and a component interaction on it. */
async function componentInteraction(w: InteractionWorld) {
  const interaction = await invoked(w);
  const components = [
    { type: 1, components: [{ type: 2, style: 1, custom_id: 'again', label: 'Again' }] },
    {
      type: 1,
      components: [
        {
          type: 3,
          custom_id: 'pick',
          options: [
            { label: 'A', value: 'a' },
            { label: 'B', value: 'b' },
          ],
        },
      ],
    },
  ];
  const reply = await w.callback(
    interaction,
    { type: 4, data: { content: 'Rolled 4', components } },
    '?with_response=true',
  );
  const message = reply.body.resource.message;
  const click = await invoked(w, { type: 3, data: { message_id: message.id, custom_id: 'again' } });
  return { message, click };
}

describe('POST /interactions/{id}/{token}/callback', () => {
  it('CHANNEL_MESSAGE_WITH_SOURCE (4) posts the bot message with interaction_metadata (nested user, no user_id; not the deprecated interaction); 204', async () => {
    const w = await interactionWorld();
    const interaction = await invoked(w);
    const reply = await w.callback(interaction, { type: 4, data: { content: 'You rolled 4' } });
    expect(reply.status).toBe(204);
    const [event] = await eventsOf(w.client, 'MESSAGE_CREATE');
    const message = event.data as any;
    expect(message).toMatchObject({
      content: 'You rolled 4',
      type: 20,
      author: { id: w.bot.id, bot: true },
      application_id: w.application.id,
      webhook_id: w.application.id,
    });
    expect(message.interaction_metadata).toMatchObject({
      id: interaction.id,
      type: 2,
      user: { id: w.alice.id, username: 'alice' },
      authorizing_integration_owners: { 0: w.guild.id },
    });
    expect(message.interaction_metadata.user_id).toBeUndefined();
    expect(message.interaction).toBeUndefined();
    expect(
      (await w.client.get(`/api/v10/channels/${w.general.id}/messages/${message.id}`, w.botAuth)).body
        .interaction_metadata.id,
    ).toBe(interaction.id);
  });

  it('with_response=true answers the interaction callback response with the created message', async () => {
    const w = await interactionWorld();
    const interaction = await invoked(w);
    const reply = await w.callback(interaction, { type: 4, data: { content: 'hi', flags: 64 } }, '?with_response=true');
    expect(reply.status).toBe(200);
    expect(reply.body.interaction).toMatchObject({
      id: interaction.id,
      type: 2,
      response_message_loading: false,
      response_message_ephemeral: true,
    });
    expect(reply.body.resource).toMatchObject({
      type: 4,
      message: { id: reply.body.interaction.response_message_id, flags: 64 },
    });
  });

  it('only one initial response: a second is 400 40060 "Interaction has already been acknowledged" and creates nothing', async () => {
    const w = await interactionWorld();
    const interaction = await invoked(w);
    expect((await w.callback(interaction, { type: 5 })).status).toBe(204);
    const before = await messageCounts(w.client);
    const again = await w.callback(interaction, { type: 4, data: { content: 'again' } });
    expectError(again, 400, 40060);
    expect(again.body.message).toBe('Interaction has already been acknowledged.');
    expect(await messageCounts(w.client)).toEqual(before);
  });

  it('the initial response must come within 3 s of the interaction by the platform clock (404 10062 Unknown interaction after); a wrong token is 10062 too', async () => {
    const w = await interactionWorld();
    await freeze(w.client, '2026-03-01T10:00:00.000Z');
    const late = await invoked(w);
    const onTime = await invoked(w);
    await freeze(w.client, '2026-03-01T10:00:02.999Z');
    expect((await w.callback(onTime, { type: 4, data: { content: 'ok' } })).status).toBe(204);
    await freeze(w.client, '2026-03-01T10:00:03.000Z');
    expectError(await w.callback(late, { type: 4, data: { content: 'late' } }), 404, 10062);
    const other = await invoked(w);
    expectError(
      await w.callback({ id: other.id, token: onTime.token }, { type: 4, data: { content: 'x' } }),
      404,
      10062,
    );
  });

  it('a refused response changes nothing: AutoMod-blocked content is 400 200000 and the interaction can still be answered', async () => {
    const w = await interactionWorld();
    await w.client.put(`/sandbox/guilds/${w.guild.id}/automod/keywords`, { keywords: ['cheat'] });
    const interaction = await invoked(w);
    const blocked = await w.callback(interaction, { type: 4, data: { content: 'a cheat code' } });
    expectError(blocked, 400, 200000);
    expect((await w.callback(interaction, { type: 4, data: { content: 'fine' } })).status).toBe(204);
  });

  it('callback types must fit the interaction: PONG never, UPDATE_MESSAGE only for components, AUTOCOMPLETE_RESULT only for autocomplete (400 50035 naming type)', async () => {
    const w = await interactionWorld();
    const interaction = await invoked(w);
    expectInvalidField(await w.callback(interaction, { type: 1 }), 'type');
    expectInvalidField(await w.callback(interaction, { type: 7, data: { content: 'x' } }), 'type');
    expectInvalidField(await w.callback(interaction, { type: 8, data: { choices: [] } }), 'type');
    expectInvalidField(await w.callback(interaction, { type: 11 }), 'type');
  });

  it('a deferral (5) may only set EPHEMERAL; an interaction response may set SUPPRESS_EMBEDS, EPHEMERAL, IS_COMPONENTS_V2, IS_VOICE_MESSAGE, SUPPRESS_NOTIFICATIONS', async () => {
    const w = await interactionWorld();
    const a = await invoked(w);
    expectInvalidField(await w.callback(a, { type: 5, data: { flags: 1 << 15 } }), 'data.flags');
    expect((await w.callback(a, { type: 5, data: { flags: 64 } })).status).toBe(204);
    const b = await invoked(w);
    expectInvalidField(await w.callback(b, { type: 4, data: { content: 'x', flags: 1 << 1 } }), 'flags');
  });

  it('components: UPDATE_MESSAGE (7) edits the message the component is on; the component interaction carries message and values', async () => {
    const w = await interactionWorld();
    const { message, click } = await componentInteraction(w);
    expect(click).toMatchObject({
      type: 3,
      data: { custom_id: 'again', component_type: 2 },
      message: { id: message.id },
    });
    const updated = await w.callback(click, { type: 7, data: { content: 'Rolled 6' } }, '?with_response=true');
    expect(updated.body.resource.message).toMatchObject({ id: message.id, content: 'Rolled 6' });
    const pick = await invoked(w, { type: 3, data: { message_id: message.id, custom_id: 'pick', values: ['b'] } });
    expect(pick.data).toEqual({ custom_id: 'pick', component_type: 3, values: ['b'] });
    expectInvalidField(
      await w.interact({ type: 3, data: { message_id: message.id, custom_id: 'pick', values: ['z'] } }),
      'data.values.0',
    );
  });

  it('autocomplete (4) is answered with up to 25 choices (8)', async () => {
    const w = await interactionWorld();
    await w.client.post(
      w.commands,
      { name: 'find', description: 'Find', options: [{ type: 3, name: 'q', description: 'q', autocomplete: true }] },
      w.botAuth,
    );
    const auto = await invoked(w, {
      type: 4,
      data: { name: 'find', options: [{ name: 'q', value: 'ab', focused: true }] },
    });
    expect(auto.data.options).toEqual([{ name: 'q', type: 3, value: 'ab', focused: true }]);
    const choices = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `c${i}`, value: `c${i}` }));
    expectInvalidField(await w.callback(auto, { type: 8, data: { choices: choices(26) } }), 'data.choices');
    expect((await w.callback(auto, { type: 8, data: { choices: choices(25) } })).status).toBe(204);
    expectInvalidField(await w.callback(auto, { type: 4, data: { content: 'x' } }), 'type');
  });
});

describe('LAUNCH_ACTIVITY (12) and PREMIUM_REQUIRED (10)', () => {
  async function activityWorld() {
    const w = await interactionWorld();
    await w.client.put(`/sandbox/guilds/${w.guild.id}/members/${w.activity.bot.id}`, {});
    const cmd = (
      await w.client.post(
        `/api/v10/applications/${w.activity.id}/commands`,
        { name: 'play', description: 'Play' },
        w.activity.auth,
      )
    ).body;
    const invoke = (body: Record<string, unknown> = {}) =>
      invoked(w, { application_id: w.activity.id, data: { id: cmd.id }, ...body });
    return { w, cmd, invoke };
  }

  it('LAUNCH_ACTIVITY answers an APPLICATION_COMMAND: ACTIVITY_LAUNCH goes to the user sessions, with_response names the activity instance', async () => {
    const { w, invoke } = await activityWorld();
    const interaction = await invoke();
    const reply = await w.callback(interaction, { type: 12 }, '?with_response=true');
    expect(reply.status).toBe(200);
    const instance = reply.body.interaction.activity_instance_id;
    expect(reply.body.resource).toEqual({ type: 12, activity_instance: { id: instance } });
    const [event] = await eventsOf(w.client, 'ACTIVITY_LAUNCH');
    expect(event.audience).toEqual({ user_ids: [w.alice.id] });
    expect(event.data).toMatchObject({
      application_id: w.activity.id,
      instance_id: instance,
      interaction_id: interaction.id,
      channel_id: w.general.id,
      guild_id: w.guild.id,
    });
  });

  it('LAUNCH_ACTIVITY answers MESSAGE_COMPONENT and MODAL_SUBMIT interactions too, but not autocomplete (400 50035)', async () => {
    const { w, invoke } = await activityWorld();
    const first = await invoke();
    const posted = await w.callback(
      first,
      {
        type: 4,
        data: {
          content: 'Play?',
          components: [{ type: 1, components: [{ type: 2, style: 1, custom_id: 'go', label: 'Go' }] }],
        },
      },
      '?with_response=true',
    );
    const click = await invoked(w, {
      application_id: w.activity.id,
      type: 3,
      data: { message_id: posted.body.resource.message.id, custom_id: 'go' },
    });
    expect((await w.callback(click, { type: 12 })).status).toBe(204);
    const opener = await invoke();
    await w.callback(opener, {
      type: 9,
      data: {
        custom_id: 'm',
        title: 'Ready?',
        components: [{ type: 18, label: 'Name', component: { type: 4, custom_id: 'name', style: 1 } }],
      },
    });
    const submit = await invoked(w, {
      application_id: w.activity.id,
      type: 5,
      data: { custom_id: 'm', values: { name: 'Al' } },
    });
    expect((await w.callback(submit, { type: 12 })).status).toBe(204);
    await w.client.post(
      `/api/v10/applications/${w.activity.id}/commands`,
      { name: 'find', description: 'Find', options: [{ type: 3, name: 'q', description: 'q', autocomplete: true }] },
      w.activity.auth,
    );
    const auto = await invoked(w, {
      application_id: w.activity.id,
      type: 4,
      data: { name: 'find', options: [{ name: 'q', value: 'a', focused: true }] },
    });
    expectInvalidField(await w.callback(auto, { type: 12 }), 'type');
    expect(await eventsOf(w.client, 'ACTIVITY_LAUNCH')).toHaveLength(2);
  });

  it('LAUNCH_ACTIVITY needs an app with Activities (the EMBEDDED flag)', async () => {
    const w = await interactionWorld();
    expectInvalidField(await w.callback(await invoked(w), { type: 12 }), 'type');
  });

  it('an entry point command with handler PLATFORM_LAUNCH_ACTIVITY launches the activity without asking the app', async () => {
    const { w } = await activityWorld();
    const entry = (
      await w.client.post(
        `/api/v10/applications/${w.activity.id}/commands`,
        { name: 'launch', type: 4, handler: 2 },
        w.activity.auth,
      )
    ).body;
    const reply = await w.interact({ application_id: w.activity.id, data: { id: entry.id } });
    expect(reply.body.delivery).toEqual({ via: 'platform' });
    expect(await eventsOf(w.client, 'INTERACTION_CREATE')).toHaveLength(0);
    expect(await eventsOf(w.client, 'ACTIVITY_LAUNCH')).toHaveLength(1);
    expectError(await w.callback(reply.body.interaction, { type: 4, data: { content: 'x' } }), 400, 40060);
  });

  it('PREMIUM_REQUIRED (deprecated) is accepted from an app that sells SKUs; a premium button (style 6) must name an available SKU of the app', async () => {
    const w = await interactionWorld();
    expectInvalidField(await w.callback(await invoked(w), { type: 10 }), 'type');
    const sku = (await w.client.post(`/sandbox/applications/${w.application.id}/skus`, { name: 'Gold', type: 2 })).body;
    const skuId = sku.sku.id;
    expect((await w.callback(await invoked(w), { type: 10 })).status).toBe(204);
    const premium = (id: string) => ({
      type: 4,
      data: { content: 'Buy', components: [{ type: 1, components: [{ type: 2, style: 6, sku_id: id }] }] },
    });
    expectInvalidField(await w.callback(await invoked(w), premium('123')), 'data.components.0.components.0.sku_id');
    expect((await w.callback(await invoked(w), premium(skuId))).status).toBe(204);
  });
});

describe('interaction response uploads (10 MiB default from 2025-01-16, was 25 MiB)', () => {
  it('a file over 10 MiB is refused with 413 from 2025-01-16 and accepted before; the limit is per attachment', async () => {
    const w = await interactionWorld();
    const file = new Uint8Array(11 * MiB);
    const send = async () => {
      const interaction = await invoked(w);
      const form = multipart({ type: 4, data: { content: 'file' } }, [
        { name: 'big.bin', content: file, type: 'application/octet-stream' },
      ]);
      return w.client.request('POST', `/api/v10/interactions/${interaction.id}/${interaction.token}/callback`, {
        raw: form,
      });
    };
    await freeze(w.client, '2025-01-15T12:00:00.000Z');
    expect((await send()).status).toBe(204);
    await freeze(w.client, '2025-01-16T00:00:00.000Z');
    expectError(await send(), 413, 40005);
  });
});
