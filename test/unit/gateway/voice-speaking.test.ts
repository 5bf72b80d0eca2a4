// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { SpeakingChange } from '../../../src/gateway/voice-speaking';
import { INTENTS } from '../../../src/platform/core/intents';
import { createVoiceHarness } from './voice-harness';

describe("who speaks in a call, for the platform's own client (the source of SPEAKING_START / SPEAKING_STOP)", () => {
  it('a lobby call: Speaking flags turning on is a start {lobby_id, user_id}, turning off a stop; repeated flags change nothing', async () => {
    const h = await createVoiceHarness();
    const heard: SpeakingChange[] = [];
    const stop = h.voice.speakers.watch(h.lobby.id, (change) => heard.push(change));
    const bob = await h.identifyVoice(await h.joinLobbyCall(h.world.bobAuth));
    const ssrc = bob.ops(2)[0].d.ssrc;
    bob.send({ op: 5, d: { speaking: 1, delay: 0, ssrc } });
    bob.send({ op: 5, d: { speaking: 5, delay: 0, ssrc } });
    bob.send({ op: 5, d: { speaking: 0, delay: 0, ssrc } });
    await expect
      .poll(() => heard)
      .toEqual([
        { user_id: h.world.bob.id, speaking: true, lobby_id: h.lobby.id },
        { user_id: h.world.bob.id, speaking: false, lobby_id: h.lobby.id },
      ]);
    stop();
    bob.send({ op: 5, d: { speaking: 1, delay: 0, ssrc } });
    await expect.poll(() => h.voice.speakers.speakers(h.lobby.id)).toEqual([h.world.bob.id]);
    expect(heard).toHaveLength(2);
  });

  it('a speaker who leaves the call stops speaking', async () => {
    const h = await createVoiceHarness();
    const bob = await h.identifyVoice(await h.joinLobbyCall(h.world.bobAuth));
    bob.send({ op: 5, d: { speaking: 1, delay: 0, ssrc: bob.ops(2)[0].d.ssrc } });
    await expect.poll(() => h.voice.speakers.speakers(h.lobby.id)).toEqual([h.world.bob.id]);
    const heard: SpeakingChange[] = [];
    h.voice.speakers.watch(h.lobby.id, (change) => heard.push(change));
    bob.disconnect(1000);
    await expect.poll(() => heard).toEqual([{ user_id: h.world.bob.id, speaking: false, lobby_id: h.lobby.id }]);
    expect(h.voice.speakers.speakers(h.lobby.id)).toEqual([]);
  });

  it('a guild voice channel: the change names the channel {channel_id, user_id}; other calls are not heard', async () => {
    const h = await createVoiceHarness();
    const { guild } = await h.guildWithBot();
    const voice = (await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'Voice', type: 2 })).body.channel;
    const heard: SpeakingChange[] = [];
    h.voice.speakers.watch(voice.id, (change) => heard.push(change));
    const bot = await h.identifyVoice(
      await h.joinVoice(h.world.botAuth, { guild_id: guild.id, channel_id: voice.id }, { intents: INTENTS.GUILDS }),
    );
    const bob = await h.identifyVoice(await h.joinLobbyCall(h.world.bobAuth));
    bob.send({ op: 5, d: { speaking: 1, delay: 0, ssrc: bob.ops(2)[0].d.ssrc } });
    bot.send({ op: 5, d: { speaking: 1, delay: 0, ssrc: bot.ops(2)[0].d.ssrc } });
    await expect.poll(() => h.voice.speakers.speakers(h.lobby.id)).toEqual([h.world.bob.id]);
    await expect.poll(() => heard).toEqual([{ user_id: h.world.bot.id, speaking: true, channel_id: voice.id }]);
  });
});
