/**
 * Activity instances in the store: which frames run which application in which channel (or
 * lobby), and who takes part. Frames of one application and channel share one instance, which
 * ends (is deleted) with its last frame (CONTRACT §5). Each change that alters the participants
 * appends ACTIVITY_INSTANCE_UPDATE to the log in the same transaction, so that every connection
 * holding a frame of the instance hears it (ARCHITECTURE rules 2 and 3).
 *
 * On a server these records are the instances themselves, shared by every device's pages; in
 * one browser the hub's registry (`src/rpc/instances.ts`) keeps them and mirrors them here, so
 * the HTTP API answers for them on both hosts.
 */
import type { ActivityInstanceRecord, InstanceParticipantRecord } from '../../store/records/activities';
import type { ActivityInstanceView } from '../../store/records/events';
import { type Emit, type WriteTx, write } from '../../store/write';
import type { PlatformContext } from '../core/context';

/** What a frame says when it joins an instance on the store. */
export interface StoredInstanceJoin {
  application_id: string;
  channel_id: string;
  guild_id: string | null;
  frame_id: string;
  /** The connection holding the frame: when it ends, {@link leaveHolderInstances} removes its frames. */
  holder: string;
  user: InstanceParticipantRecord;
  /** The instance the frame ran in before its connection was lost: kept when no other runs there. */
  instance_id?: string;
}

/** The instance as its frames see it: each user once, in first-join order. */
export function instanceView(record: ActivityInstanceRecord): ActivityInstanceView {
  const seen = new Map<string, InstanceParticipantRecord>();
  for (const m of record.members) if (!seen.has(m.user.id)) seen.set(m.user.id, m.user);
  return {
    instance_id: record.instance_id,
    application_id: record.application_id,
    channel_id: record.channel_id,
    guild_id: record.guild_id,
    participants: [...seen.values()].map((u) => ({ ...u })),
  };
}

function participantIds(record: ActivityInstanceRecord): string {
  return instanceView(record)
    .participants.map((p) => p.id)
    .join(',');
}

/** Saves `record` (or deletes it once empty) and emits the update when its participants changed. */
async function settle(tx: WriteTx, emit: Emit, record: ActivityInstanceRecord, before: string, frameId: string) {
  const store = tx.store('activity_instances');
  const ended = record.members.length === 0;
  if (ended) await store.delete(record.instance_id);
  else await store.put(record);
  if (ended || participantIds(record) !== before)
    emit({
      type: 'ACTIVITY_INSTANCE_UPDATE',
      data: { instance: instanceView(record), frame_id: frameId, ended },
      audience: { application_id: record.application_id },
      channels: [],
    });
}

/** Removes `frameId` from whichever instance holds it, inside `tx`; the instance as it is after, or null. */
async function removeFrame(tx: WriteTx, emit: Emit, frameId: string): Promise<ActivityInstanceRecord | null> {
  for (const record of await tx.store('activity_instances').getAll()) {
    if (!record.members.some((m) => m.frame_id === frameId)) continue;
    const before = participantIds(record);
    const after = { ...record, members: record.members.filter((m) => m.frame_id !== frameId) };
    await settle(tx, emit, after, before, frameId);
    return after.members.length === 0 ? null : after;
  }
  return null;
}

/**
 * Adds a frame to the instance of its application and channel, creating it for the first frame;
 * joining again with the same `frame_id` replaces the frame's earlier membership.
 * @example const view = await joinStoredInstance(ctx, { application_id, channel_id, guild_id: null, frame_id, holder, user });
 */
export async function joinStoredInstance(
  ctx: PlatformContext,
  join: StoredInstanceJoin,
): Promise<ActivityInstanceView> {
  const launchId = ctx.ids.next();
  const fresh = `i-${crypto.randomUUID()}`;
  return write(ctx, ['activity_instances'], async (tx, emit) => {
    await removeFrame(tx, emit, join.frame_id);
    const store = tx.store('activity_instances');
    let record = await store.index('by_application_channel').get([join.application_id, join.channel_id]);
    if (!record) {
      const kept = join.instance_id !== undefined && !(await store.get(join.instance_id)) ? join.instance_id : fresh;
      record = {
        instance_id: kept,
        application_id: join.application_id,
        channel_id: join.channel_id,
        guild_id: join.guild_id,
        launch_id: launchId,
        members: [],
        created_at: ctx.clock.now(),
      };
    }
    const before = record.members.length === 0 ? '' : participantIds(record);
    record = {
      ...record,
      members: [...record.members, { frame_id: join.frame_id, holder: join.holder, user: join.user }],
    };
    await settle(tx, emit, record, before, join.frame_id);
    return instanceView(record);
  });
}

/** Removes a frame; the instance as it is afterwards, or null (an unknown frame, or the instance ended). */
export async function leaveStoredInstance(ctx: PlatformContext, frameId: string): Promise<ActivityInstanceView | null> {
  const after = await write(ctx, ['activity_instances'], (tx, emit) => removeFrame(tx, emit, frameId));
  return after ? instanceView(after) : null;
}

/** Removes every frame `holder` holds (a connection that ended). */
export async function leaveHolderInstances(ctx: PlatformContext, holder: string): Promise<void> {
  await write(ctx, ['activity_instances'], async (tx, emit) => {
    for (const record of await tx.store('activity_instances').getAll()) {
      const frames = record.members.filter((m) => m.holder === holder).map((m) => m.frame_id);
      for (const frameId of frames) await removeFrame(tx, emit, frameId);
    }
  });
}

/** True while a frame of `userId` runs `applicationId` in any stored instance. */
export async function runsApplication(ctx: PlatformContext, userId: string, applicationId: string): Promise<boolean> {
  for (const record of await ctx.db.getAll('activity_instances'))
    if (record.application_id === applicationId && record.members.some((m) => m.user.id === userId)) return true;
  return false;
}

/**
 * Forgets every stored instance. The hub (or a server's sandbox object) that starts holds no
 * connection of its predecessor's, whose frames join again naming their instance.
 */
export async function clearStoredInstances(ctx: PlatformContext): Promise<void> {
  await write(ctx, ['activity_instances'], async (tx) => {
    await tx.store('activity_instances').clear();
  });
}

/**
 * Mirrors one instance of the hub's registry (its participants, one member per user) into the
 * store, or deletes it when it ended; keeps its `launch_id` and start time.
 * @example await mirrorInstance(ctx, snapshot, false);
 */
export async function mirrorInstance(ctx: PlatformContext, view: ActivityInstanceView, ended: boolean): Promise<void> {
  const launchId = ctx.ids.next();
  await write(ctx, ['activity_instances'], async (tx) => {
    const store = tx.store('activity_instances');
    if (ended) return store.delete(view.instance_id);
    const existing = await store.get(view.instance_id);
    await store.put({
      instance_id: view.instance_id,
      application_id: view.application_id,
      channel_id: view.channel_id,
      guild_id: view.guild_id,
      launch_id: existing?.launch_id ?? launchId,
      members: view.participants.map((user) => ({ frame_id: `user-${user.id}`, holder: 'hub', user })),
      created_at: existing?.created_at ?? ctx.clock.now(),
    });
  });
}
