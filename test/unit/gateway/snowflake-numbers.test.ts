// @vitest-environment node
/**
 * Gateway payloads take ids as JSON numbers too (as the platform does), read exactly from the
 * payload's text: op 8 Request Guild Members' `guild_id` and `user_ids`, op 4 Voice State
 * Update's `channel_id`. Ids exceed 2^53, where a number parsed as a double loses digits.
 */
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { createGatewayHarness } from './gateway-harness';
import { createVoiceHarness } from './voice-harness';

describe('ids as JSON numbers in gateway payloads, exact beyond 2^53', () => {
  it("op 8 with guild_id and user_ids as numbers: the member is found, and the id one above bob's (the same double) is not_found", async () => {
    const h = await createGatewayHarness();
    const { guild } = await h.guildWithBot({ bob: true });
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const bob: string = h.world.bob.id;
    const neighbour = (BigInt(bob) + 1n).toString();
    expect(Number(neighbour)).toBe(Number(bob));
    const from = bot.received.length;
    bot.sendRaw(`{"op":8,"d":{"guild_id":${guild.id},"user_ids":[${bob},${neighbour}],"limit":0}}`);
    const chunk = await bot.waitFor((p) => p.t === 'GUILD_MEMBERS_CHUNK', from);
    expect(chunk.d.guild_id).toBe(guild.id);
    expect(chunk.d.members.map((m: any) => m.user.id)).toEqual([bob]);
    expect(chunk.d.not_found).toEqual([neighbour]);
  });

  it('an id number that is no snowflake (fractional) closes with 4002 naming the field', async () => {
    const h = await createGatewayHarness();
    await h.guildWithBot();
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    bot.sendRaw('{"op":8,"d":{"guild_id":1.5,"query":"","limit":0}}');
    const closed = await bot.waitForClose();
    expect(closed.code).toBe(4002);
    expect(closed.reason).toContain('d.guild_id');
  });

  it("op 4 with channel_id as a number joins that lobby's call; the state names the id as a string", async () => {
    const h = await createVoiceHarness();
    const alice = await h.identify(h.world.aliceAuth);
    alice.sendRaw(`{"op":4,"d":{"guild_id":null,"channel_id":${h.lobby.id},"self_mute":false,"self_deaf":false}}`);
    const server = await alice.waitForDispatch('VOICE_SERVER_UPDATE');
    expect(server.d.channel_id).toBe(h.lobby.id);
    expect(alice.dispatches('VOICE_STATE_UPDATE')[0].d.channel_id).toBe(h.lobby.id);
  });
});
