// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { APPLICATION_FLAGS } from '../../../src/store/records/core';
import { createGatewayHarness } from '../gateway/gateway-harness';
import { MESSAGE_SCOPES } from './messages-fixtures';

const MESSAGES = INTENTS.GUILDS | INTENTS.GUILD_MESSAGES;

/** A gateway next to the app, a guild with the bot and bob, and bob's token that may send. */
async function setup() {
  const h = await createGatewayHarness();
  const { guild, channels } = await h.guildWithBot({ bob: true });
  const general = channels.find((c: any) => c.name === 'general');
  const bob = (
    await h.api.post('/sandbox/tokens', {
      application_id: h.world.application.id,
      user_id: h.world.bob.id,
      scopes: MESSAGE_SCOPES,
    })
  ).body;
  const send = (channelId: string, content: string) =>
    h.api.post(`/api/v10/channels/${channelId}/messages`, { content }, `Bearer ${bob.access_token}`);
  return { h, guild, general, send };
}

describe('message events on the gateway (MESSAGE_CONTENT rule, channel visibility)', () => {
  it('a bot session without MESSAGE_CONTENT gets MESSAGE_CREATE with empty content, embeds, attachments and components, except when mentioned', async () => {
    const { h, general, send } = await setup();
    const bot = await h.identify(h.world.botAuth, { intents: MESSAGES });
    await send(general.id, 'private words');
    const plain = await bot.waitForDispatch('MESSAGE_CREATE');
    expect(plain.d).toMatchObject({
      content: '',
      embeds: [],
      attachments: [],
      components: [],
      channel_id: general.id,
      author: { id: h.world.bob.id },
    });
    await send(general.id, `hey <@${h.world.bot.id}>`);
    const mentioned = await bot.waitFor((p) => p.t === 'MESSAGE_CREATE' && p.d.content !== '', 0);
    expect(mentioned.d.content).toBe(`hey <@${h.world.bot.id}>`);
  });

  it('with the MESSAGE_CONTENT intent (granted by the toggle) the content arrives whole', async () => {
    const { h, general, send } = await setup();
    await h.updateApplication({ flags: String(APPLICATION_FLAGS.GATEWAY_MESSAGE_CONTENT_LIMITED) });
    const bot = await h.identify(h.world.botAuth, { intents: MESSAGES | INTENTS.MESSAGE_CONTENT });
    await send(general.id, 'private words');
    expect((await bot.waitForDispatch('MESSAGE_CREATE')).d.content).toBe('private words');
  });

  it('sessions that cannot view the channel receive none of its message or pin events; without GUILD_MESSAGES none either', async () => {
    const { h, guild, general, send } = await setup();
    const hidden = (
      await h.api.post(`/sandbox/guilds/${guild.id}/channels`, {
        name: 'staff',
        type: 0,
        permission_overwrites: [{ id: h.world.bot.id, type: 1, allow: '0', deny: String(PERMISSIONS.VIEW_CHANNEL) }],
      })
    ).body.channel;
    const bot = await h.identify(h.world.botAuth, { intents: MESSAGES });
    const noIntent = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const alice = `Bearer ${(await h.api.post('/sandbox/tokens', { application_id: h.world.application.id, user_id: h.world.alice.id, scopes: MESSAGE_SCOPES })).body.access_token}`;
    const secret = (await send(hidden.id, 'in secret')).body;
    expect(
      (await h.api.put(`/api/v10/channels/${hidden.id}/messages/pins/${secret.id}`, undefined, alice)).status,
    ).toBe(204);
    const open = (await send(general.id, 'in the open')).body;
    expect((await h.api.put(`/api/v10/channels/${general.id}/messages/pins/${open.id}`, undefined, alice)).status).toBe(
      204,
    );
    const pins = await bot.waitForDispatch('CHANNEL_PINS_UPDATE');
    expect(pins.d).toMatchObject({ channel_id: general.id, guild_id: guild.id });
    expect(bot.dispatches('MESSAGE_CREATE').map((p) => p.d.channel_id)).toEqual([general.id]);
    expect(bot.dispatches('CHANNEL_PINS_UPDATE')).toHaveLength(1);
    expect(noIntent.dispatches('MESSAGE_CREATE')).toEqual([]);
    expect(noIntent.dispatches('CHANNEL_PINS_UPDATE')).toHaveLength(1);
  });
});
