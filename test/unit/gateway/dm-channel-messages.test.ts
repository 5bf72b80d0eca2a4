// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { createGatewayHarness } from './gateway-harness';

describe('a bot DM (POST /users/@me/channels, then POST /channels/{dm.id}/messages): MESSAGE_CREATE reaches the user, and the bot with DIRECT_MESSAGES', () => {
  it('the recipient user and a bot session with DIRECT_MESSAGES receive it; a bot session without it does not', async () => {
    const h = await createGatewayHarness();
    await h.guildWithBot({ bob: true });
    const bob = await h.identify(h.world.bobAuth, { intents: 0 });
    const withIntent = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.DIRECT_MESSAGES });
    const without = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_MESSAGES });
    const dm = (await h.api.post('/api/v10/users/@me/channels', { recipient_id: h.world.bob.id }, h.world.botAuth))
      .body;
    const sent = await h.api.post(`/api/v10/channels/${dm.id}/messages`, { content: 'hello bob' }, h.world.botAuth);
    expect(sent.status).toBe(200);
    const heard = await bob.waitForDispatch('MESSAGE_CREATE');
    expect(heard.d).toMatchObject({ id: sent.body.id, channel_id: dm.id, content: 'hello bob' });
    expect(heard.d.author).toMatchObject({ id: h.world.bot.id, bot: true });
    // DMs are not held to MESSAGE_CONTENT: the bot reads its own DM's content.
    expect((await withIntent.waitForDispatch('MESSAGE_CREATE')).d.content).toBe('hello bob');
    await h.flush();
    expect(without.dispatches('MESSAGE_CREATE')).toEqual([]);
    // Opening the DM sent no CHANNEL_CREATE to anyone (the platform sends it for guild channels).
    expect(bob.dispatches('CHANNEL_CREATE')).toEqual([]);
    expect(withIntent.dispatches('CHANNEL_CREATE')).toEqual([]);
  });
});
