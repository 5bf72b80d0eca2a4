// @vitest-environment node
/**
 * `editThread` and `deleteThread`, called directly (no route of this family exposes them: they
 * are what `PATCH` / `DELETE /channels/{id}` do for a thread).
 */
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../../../src/platform/core/errors';
import type { Principal } from '../../../../src/platform/oauth2/auth';
import { deleteThread, editThread } from '../../../../src/platform/threads/edit';
import { eventsOf, messageWorld, type MessageWorld } from '../../sw/messages-fixtures';

/** A user of the world as the principal of a call. */
async function principalOf(w: MessageWorld, userId: string): Promise<Principal> {
  const [user, application] = await Promise.all([
    w.client.db.get('users', userId),
    w.client.db.get('applications', w.application.id),
  ]);
  return { kind: 'bot', user: user!, application: application! };
}

/** The API error a promise rejects with, as `[status, code]`. */
async function refusal(p: Promise<unknown>): Promise<[number, number]> {
  const error = (await p.then(
    () => null,
    (e: unknown) => e,
  )) as ApiError | null;
  expect(error, 'refused').not.toBeNull();
  return [error!.status, error!.code];
}

async function world() {
  const w = await messageWorld();
  await w.client.put('/sandbox/clock', { now: '2026-03-01T00:00:00.000Z' });
  const thread = (await w.client.post(`/api/v10/channels/${w.general.id}/threads`, { name: 'T', type: 11 }, w.bobAuth))
    .body;
  return {
    w,
    thread,
    ctx: w.client.app.ctx,
    alice: await principalOf(w, w.alice.id),
    bob: await principalOf(w, w.bob.id),
  };
}

describe('editThread / deleteThread', () => {
  it('MANAGE_THREADS archives and locks; THREAD_UPDATE and the audit entry 111 with the changes; an edit that changes nothing logs nothing', async () => {
    const { w, thread, ctx, alice } = await world();
    await w.client.put('/sandbox/clock', { now: '2026-03-01T00:10:00.000Z' });
    expect((await editThread(ctx, alice, thread.id, { name: 'T' })).name).toBe('T');
    expect(await eventsOf(w.client, 'THREAD_UPDATE')).toEqual([]);
    const edited = await editThread(ctx, alice, thread.id, { archived: true, locked: true }, 'tidy');
    expect(edited.thread_metadata).toMatchObject({
      archived: true,
      locked: true,
      archive_timestamp: '2026-03-01T00:10:00.000Z',
    });
    const [update] = await eventsOf(w.client, 'THREAD_UPDATE');
    expect(update.data).toMatchObject({ id: thread.id, thread_metadata: { archived: true, locked: true } });
    const audit = (await w.client.db.getAll('audit_log_entries')).filter((e) => e.action_type === 111);
    expect(audit).toMatchObject([
      {
        target_id: thread.id,
        reason: 'tidy',
        changes: [
          { key: 'archived', old_value: false, new_value: true },
          { key: 'locked', old_value: false, new_value: true },
        ],
      },
    ]);
  });

  it('the creator renames and archives their own thread; locking, slowmode and others’ threads need MANAGE_THREADS (403 50013)', async () => {
    const { w, thread, ctx, bob } = await world();
    expect((await editThread(ctx, bob, thread.id, { name: 'Renamed' })).name).toBe('Renamed');
    expect(await refusal(editThread(ctx, bob, thread.id, { locked: true }))).toEqual([403, 50013]);
    expect(await refusal(editThread(ctx, bob, thread.id, { rate_limit_per_user: 10 }))).toEqual([403, 50013]);
    const aliceThread = (
      await w.client.post(`/api/v10/channels/${w.general.id}/threads`, { name: 'A', type: 11 }, w.aliceAuth)
    ).body;
    expect(await refusal(editThread(ctx, bob, aliceThread.id, { name: 'Mine' }))).toEqual([403, 50013]);
    expect((await editThread(ctx, bob, thread.id, { archived: true })).thread_metadata?.archived).toBe(true);
  });

  it('an archived thread takes only its unarchiving (400 50083); unarchiving a thread that is not locked needs only SEND_MESSAGES_IN_THREADS, a locked one MANAGE_THREADS', async () => {
    const { w, thread, ctx, alice, bob } = await world();
    await editThread(ctx, alice, thread.id, { archived: true });
    expect(await refusal(editThread(ctx, alice, thread.id, { name: 'x' }))).toEqual([400, 50083]);
    const other = (
      await w.client.post(`/api/v10/channels/${w.general.id}/threads`, { name: 'O', type: 11 }, w.aliceAuth)
    ).body;
    await editThread(ctx, alice, other.id, { archived: true });
    expect((await editThread(ctx, bob, other.id, { archived: false })).thread_metadata?.archived).toBe(false);
    await editThread(ctx, alice, other.id, { archived: true, locked: true });
    expect(await refusal(editThread(ctx, bob, other.id, { archived: false }))).toEqual([403, 50013]);
    expect((await editThread(ctx, alice, other.id, { archived: false })).thread_metadata?.archived).toBe(false);
    // Not a thread: 400 50024.
    expect(await refusal(editThread(ctx, alice, w.general.id, { name: 'x' }))).toEqual([400, 50024]);
  });

  it('auto_archive_duration is read by the clock from the last activity; invitable only on a private thread (400 50024)', async () => {
    const { w, thread, ctx, alice } = await world();
    expect(await refusal(editThread(ctx, alice, thread.id, { invitable: false }))).toEqual([400, 50024]);
    await editThread(ctx, alice, thread.id, { auto_archive_duration: 60 });
    await w.client.put('/sandbox/clock', { now: '2026-03-01T02:00:00.000Z' });
    expect(await refusal(editThread(ctx, alice, thread.id, { name: 'late' }))).toEqual([400, 50083]);
  });

  it('deleting needs MANAGE_THREADS; it takes the thread, its members and messages, logs THREAD_DELETE and the audit entry 112', async () => {
    const { w, thread, ctx, alice, bob } = await world();
    await w.client.post(w.messages(thread.id), { content: 'bye' }, w.bobAuth);
    expect(await refusal(deleteThread(ctx, bob, thread.id))).toEqual([403, 50013]);
    const gone = await deleteThread(ctx, alice, thread.id);
    expect(gone.id).toBe(thread.id);
    expect(await w.client.db.get('channels', thread.id)).toBeUndefined();
    expect(await w.client.db.count('thread_members')).toBe(0);
    expect((await w.client.db.getAll('channel_messages')).filter((m) => m.channel_id === thread.id)).toEqual([]);
    const [deleted] = await eventsOf(w.client, 'THREAD_DELETE');
    expect(deleted.data).toEqual({ id: thread.id, guild_id: w.guild.id, parent_id: w.general.id, type: 11 });
    expect((await w.client.db.getAll('audit_log_entries')).some((e) => e.action_type === 112)).toBe(true);
  });
});
