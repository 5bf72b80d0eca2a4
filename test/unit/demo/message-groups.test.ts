// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { GROUP_WINDOW_MS, messageRows } from '../../../demo/shell/message-groups';
import type { WireMessage } from '../../../demo/shell/wire';

const alice = { id: '1', username: 'alice', global_name: 'Alice' };
const bob = { id: '2', username: 'bob', global_name: 'Bob' };
const at = (iso: string) => new Date(iso).toISOString();
let next = 100;
const msg = (author: typeof alice, timestamp: string, extra: Partial<WireMessage> = {}): WireMessage => ({
  id: String(next++),
  author,
  content: 'x',
  timestamp: at(timestamp),
  ...extra,
});
const heads = (rows: ReturnType<typeof messageRows>) => rows.flatMap((r) => (r.kind === 'message' ? [r.head] : []));

describe('message grouping (the demo lays out a log as chat clients do)', () => {
  it("groups consecutive messages of one author within seven minutes under the first one's name and avatar", () => {
    const rows = messageRows([
      msg(alice, '2026-05-01T10:00:00'),
      msg(alice, '2026-05-01T10:03:00'),
      msg(alice, '2026-05-01T10:06:59'),
      msg(bob, '2026-05-01T10:07:00'),
      msg(bob, new Date(Date.parse('2026-05-01T10:07:00') + GROUP_WINDOW_MS + 1).toISOString()),
    ]);
    expect(heads(rows)).toEqual([true, false, false, true, true]);
  });

  it('starts a group with every reply, since a reply shows what it answers', () => {
    const rows = messageRows([msg(alice, '2026-05-01T10:00:00'), msg(alice, '2026-05-01T10:01:00', { type: 19 })]);
    expect(heads(rows)).toEqual([true, true]);
  });

  it('puts a line with the date before the first message of each day, and a group never spans two days', () => {
    const rows = messageRows([msg(alice, '2026-05-01T23:58:00'), msg(alice, '2026-05-02T00:01:00')]);
    expect(rows.map((r) => r.kind)).toEqual(['day', 'message', 'day', 'message']);
    expect(heads(rows)).toEqual([true, true]);
  });

  it('puts the "New" line once, before the first message that was unread, which starts a group', () => {
    const first = msg(bob, '2026-05-01T10:00:00');
    const unread = msg(bob, '2026-05-01T10:01:00');
    const rows = messageRows([first, unread, msg(bob, '2026-05-01T10:02:00')], { newFrom: unread.id });
    expect(rows.map((r) => r.kind)).toEqual(['day', 'message', 'new', 'message', 'message']);
    expect(heads(rows)).toEqual([true, true, false]);
  });
});
