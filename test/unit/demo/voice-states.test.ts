// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { VoiceStates } from '../../../demo/shell/voice-states';

const state = (over: Record<string, unknown>) => ({
  channel_id: null,
  user_id: '1',
  self_mute: false,
  self_deaf: false,
  ...over,
});

describe('who is in which call, from voice states', () => {
  it('a user is in one voice channel per guild: a move replaces the channel, a leave (channel_id null) removes them', () => {
    const states = new VoiceStates();
    expect(states.apply(state({ guild_id: 'g', channel_id: 'a' }))).toBe(true);
    states.apply(state({ guild_id: 'g', channel_id: 'b' }));
    expect(states.in('a')).toEqual([]);
    expect(states.in('b').map((v) => v.user_id)).toEqual(['1']);
    expect(states.apply(state({ guild_id: 'g', channel_id: null }))).toBe(true);
    expect(states.in('b')).toEqual([]);
    expect(states.apply(state({ guild_id: 'g', channel_id: null }))).toBe(false);
  });

  it('a user may be in a guild voice channel and a lobby call at once, each kept apart', () => {
    const states = new VoiceStates();
    states.apply(state({ guild_id: 'g', channel_id: 'room' }));
    states.apply(state({ guild_id: null, lobby_id: 'L', channel_id: 'L', self_mute: true }));
    expect(states.of('1', 'room')).toMatchObject({ guild_id: 'g' });
    expect(states.of('1', 'L')).toMatchObject({ lobby_id: 'L', self_mute: true });
  });

  it("a lobby call's leave names its lobby: a late leave of the call before does not remove the user from the next", () => {
    const states = new VoiceStates();
    states.apply(state({ guild_id: null, lobby_id: 'first', channel_id: 'first' }));
    states.apply(state({ guild_id: null, lobby_id: 'second', channel_id: 'second' }));
    expect(states.apply(state({ guild_id: null, lobby_id: 'first', channel_id: null }))).toBe(false);
    expect(states.in('second').map((v) => v.user_id)).toEqual(['1']);
    expect(states.apply(state({ guild_id: null, lobby_id: 'second', channel_id: null }))).toBe(true);
    expect(states.in('second')).toEqual([]);
  });

  it('a state that names neither a guild nor a lobby (a DM call of another client) changes nothing', () => {
    const states = new VoiceStates();
    expect(states.apply(state({ guild_id: null, channel_id: 'dm' }))).toBe(false);
    expect(states.in('dm')).toEqual([]);
  });
});
