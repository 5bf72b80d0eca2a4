// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { createGatewayHarness } from './gateway-harness';

describe('GUILD_CREATE voice_states (the public gateway: states of members in voice channels, without guild_id)', () => {
  it('lists who is in which voice channel to sessions with GUILD_VOICE_STATES, and nothing to others', async () => {
    const h = await createGatewayHarness();
    const { guild, channels } = await h.guildWithBot({ bob: true });
    const voice = channels.find((c: { type: number }) => c.type === 2);
    await h.api.put(`/sandbox/guilds/${guild.id}/voice-states/${h.world.bob.id}`, { channel_id: voice.id });

    const withIntent = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_VOICE_STATES });
    const created = (await withIntent.waitForDispatch('GUILD_CREATE')).d;
    expect(created.voice_states).toEqual([
      expect.objectContaining({ channel_id: voice.id, user_id: h.world.bob.id, self_mute: false, self_deaf: false }),
    ]);
    expect(created.voice_states[0]).not.toHaveProperty('guild_id');
    expect(created.voice_states[0].member.user.id).toBe(h.world.bob.id);

    const without = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    expect((await without.waitForDispatch('GUILD_CREATE')).d.voice_states).toEqual([]);
  });
});
