// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ClientState } from '../../../demo/shell/client-state';
import { newerThan, ReadMarks } from '../../../demo/shell/read-marks';
import { pickUser, type DemoWorld } from '../../../demo/shell/world';
import { snowflakeAt } from '../../../src/platform/core/snowflake';

const me = { id: '10', username: 'alice', global_name: 'Alice' };
const bob = { id: '20', username: 'bob', global_name: 'Bob' };

function ready(): ClientState {
  const state = new ClientState();
  state.apply('READY', { user: me });
  state.apply('GUILD_CREATE', {
    id: 'g',
    name: 'G',
    owner_id: '10',
    roles: [],
    channels: [],
    members: [],
    voice_states: [{ channel_id: 'voice', user_id: '20', self_mute: true, self_deaf: false }],
  });
  return state;
}

describe('the demo client follows the gateway', () => {
  it("knows who is in which voice channel: GUILD_CREATE's voice_states, then VOICE_STATE_UPDATE (channel_id null leaves)", () => {
    const state = ready();
    expect(state.voiceStates.of('20', 'voice')).toMatchObject({ channel_id: 'voice', guild_id: 'g', self_mute: true });
    state.apply('VOICE_STATE_UPDATE', { guild_id: 'g', channel_id: 'other', user_id: '30', self_mute: false });
    expect(state.voiceStates.in('other').map((v) => v.user_id)).toEqual(['30']);
    state.apply('VOICE_STATE_UPDATE', { guild_id: 'g', channel_id: null, user_id: '20' });
    expect(state.voiceStates.in('voice')).toEqual([]);
    // A lobby call's voice state is no guild channel's: it is the lobby's call.
    state.apply('VOICE_STATE_UPDATE', { guild_id: null, channel_id: 'lobby', lobby_id: 'lobby', user_id: '40' });
    expect(state.voiceStates.in('lobby').map((v) => v.user_id)).toEqual(['40']);
    expect(state.voiceStates.in('other').map((v) => v.user_id)).toEqual(['30']);
  });

  it('forgets every voice state on READY: a new session hears them afresh', () => {
    const state = ready();
    state.apply('VOICE_STATE_UPDATE', { guild_id: null, channel_id: 'lobby', lobby_id: 'lobby', user_id: '40' });
    state.apply('READY', { user: me });
    expect(state.voiceStates.in('voice')).toEqual([]);
    expect(state.voiceStates.in('lobby')).toEqual([]);
  });

  it('shows TYPING_START of others (never its own) until their message arrives', () => {
    const state = ready();
    state.apply('TYPING_START', { channel_id: 'c', user_id: '10', timestamp: 1 });
    state.apply('TYPING_START', { channel_id: 'c', user_id: '20', timestamp: 1, member: { user: bob } });
    expect(state.typing.typists('c')).toEqual(['20']);
    expect(state.users.get('20')?.username).toBe('bob');
    state.apply('MESSAGE_CREATE', {
      id: '1',
      channel_id: 'c',
      guild_id: 'g',
      author: bob,
      content: 'hi',
      timestamp: '',
    });
    expect(state.typing.typists('c')).toEqual([]);
  });

  it('files a direct message under the DM channel with the other user, whoever wrote it', () => {
    const state = ready();
    state.apply('MESSAGE_CREATE', {
      id: '1',
      channel_id: 'dm',
      recipient_id: '10',
      author: bob,
      content: 'hi',
      timestamp: '',
    });
    expect(state.dmChannelWith('20')).toBe('dm');
    state.apply('MESSAGE_CREATE', {
      id: '2',
      channel_id: 'dm2',
      recipient_id: '30',
      author: me,
      content: 'yo',
      timestamp: '',
    });
    expect(state.dmChannelWith('30')).toBe('dm2');
    expect(state.channelMessages.get('dm')?.map((m) => m.id)).toEqual(['1']);
  });

  it('merges MESSAGE_UPDATE into a message it has, and never brings back one it does not (deleted here meanwhile)', () => {
    const state = ready();
    state.addChannelMessages('c', [{ id: '1', author: bob, content: 'a', timestamp: '' }]);
    state.apply('MESSAGE_UPDATE', { id: '1', channel_id: 'c', guild_id: 'g', content: 'b', edited_timestamp: 'now' });
    expect(state.channelMessages.get('c')?.[0]).toMatchObject({ content: 'b', author: bob, edited_timestamp: 'now' });
    state.apply('MESSAGE_DELETE', { id: '1', channel_id: 'c' });
    state.apply('MESSAGE_UPDATE', { id: '1', channel_id: 'c', guild_id: 'g', content: 'c' });
    expect(state.channelMessages.get('c')).toEqual([]);
  });

  it('marks pinned messages from the pins list', () => {
    const state = ready();
    state.addChannelMessages('c', [
      { id: '1', author: bob, content: 'a', timestamp: '' },
      { id: '2', author: bob, content: 'b', timestamp: '', pinned: true },
    ]);
    state.setPinned('c', new Set(['1']));
    expect(state.channelMessages.get('c')?.map((m) => !!m.pinned)).toEqual([true, false]);
  });
});

describe('unread messages (read marks)', () => {
  const at = (ms: number, author = bob) => ({ id: snowflakeAt(ms), author, content: '', timestamp: '' });

  it('counts messages of others newer than the mark; a conversation never opened counts from when the client started', () => {
    const marks = new ReadMarks('10', Date.UTC(2026, 4, 1));
    const before = at(Date.UTC(2026, 3, 30));
    const after = at(Date.UTC(2026, 4, 2));
    const mine = at(Date.UTC(2026, 4, 3), me);
    expect(marks.unread('lobby:1', [before, after, mine], '10')).toEqual([after]);
    marks.read('lobby:1', after.id);
    expect(marks.unread('lobby:1', [before, after, mine], '10')).toEqual([]);
    // A mark never moves back.
    marks.read('lobby:1', before.id);
    expect(marks.mark('lobby:1')).toBe(after.id);
  });

  it('compares snowflakes as numbers', () => {
    expect(newerThan('100', '99')).toBe(true);
    expect(newerThan('99', '100')).toBe(false);
    expect(newerThan('123', '123')).toBe(false);
  });
});

describe('whose tab this is (?as=)', () => {
  const world = {
    users: [
      { id: '1', username: 'alice' },
      { id: '2', username: 'bob' },
    ],
  } as DemoWorld;

  it('opens as the user named by username or id, the first user when none is named, and nobody for a name it does not know', () => {
    expect(pickUser(world, 'BOB')?.id).toBe('2');
    expect(pickUser(world, '1')?.username).toBe('alice');
    expect(pickUser(world, null)?.username).toBe('alice');
    expect(pickUser(world, '')?.username).toBe('alice');
    expect(pickUser(world, 'nobody')).toBeNull();
  });
});
