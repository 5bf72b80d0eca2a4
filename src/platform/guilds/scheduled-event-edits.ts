/**
 * One guild scheduled event: get, modify and delete (`/guilds/{guild.id}/scheduled-events/{id}`).
 * Modifying or deleting needs MANAGE_EVENTS, or CREATE_EVENTS for an event the caller created;
 * for a stage or voice event the bits are read in its channel (and in the new one when it
 * moves). The status moves SCHEDULED → ACTIVE → COMPLETED, or SCHEDULED → CANCELED; a completed
 * or canceled event cannot change (180000). Each change emits GUILD_SCHEDULED_EVENT_UPDATE /
 * DELETE (GUILD_SCHEDULED_EVENTS intent) and writes its audit log entry.
 */
import { write, type WriteTx } from '../../store/write';
import type { ReadTransaction } from '../../store/port';
import type { PlatformDB } from '../../store/schema';
import type { BotPrincipal, Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { hasPermission, PERMISSIONS } from '../core/permissions';
import { INTENTS } from '../core/intents';
import { CHANNEL_TYPES } from '../../store/records/core';
import type { ScheduledEventRecord } from '../../store/records/guilds';
import {
  canViewChannel,
  channelPermissions,
  dbReader,
  type GuildView,
  guildPermissions,
  loadGuildView,
  requireMember,
  txReader,
} from './access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from './audit-log';
import { SCHEDULED_EVENT_ENTITY_TYPES, serializeScheduledEvent } from './scheduled-events';
import { eventUserRange } from './scheduled-event-users';

/** Statuses: 1 SCHEDULED, 2 ACTIVE, 3 COMPLETED, 4 CANCELED. */
export const SCHEDULED_EVENT_STATUS = { SCHEDULED: 1, ACTIVE: 2, COMPLETED: 3, CANCELED: 4 } as const;

/** The moves the platform's docs allow, from each status. */
const NEXT_STATUSES: Record<number, readonly number[]> = {
  [SCHEDULED_EVENT_STATUS.SCHEDULED]: [SCHEDULED_EVENT_STATUS.ACTIVE, SCHEDULED_EVENT_STATUS.CANCELED],
  [SCHEDULED_EVENT_STATUS.ACTIVE]: [SCHEDULED_EVENT_STATUS.COMPLETED],
};

/** A modify request, validated by the route (times as epoch ms). */
export interface ModifyScheduledEventInput {
  name?: string;
  description?: string | null;
  entity_type?: 1 | 2 | 3 | null;
  channel_id?: string | null;
  entity_metadata?: { location?: string } | null;
  scheduled_start_time?: number;
  scheduled_end_time?: number | null;
  status?: 1 | 2 | 3 | 4 | null;
}

const STORES = [
  'guilds',
  'roles',
  'members',
  'channels',
  'users',
  'guild_scheduled_events',
  'guild_scheduled_event_users',
  'audit_log_entries',
] as const;

/** The event of this guild, or 404 (10070). */
async function eventOf(
  tx: ReadTransaction<PlatformDB, 'guild_scheduled_events'>,
  guildId: string,
  eventId: string,
): Promise<ScheduledEventRecord> {
  const event = await tx.store('guild_scheduled_events').get(eventId);
  if (!event || event.guild_id !== guildId) throw ApiError.of('UNKNOWN_GUILD_SCHEDULED_EVENT');
  return event;
}

/**
 * The caller's bits where the event is hosted: in its channel (which must be visible) for a
 * stage or voice event, in the guild for an external one.
 */
async function bitsAt(tx: WriteTx, view: GuildView, channelId: string | null): Promise<bigint> {
  if (channelId === null) return guildPermissions(view);
  const channel = await tx.store('channels').get(channelId);
  if (!channel || channel.guild_id !== view.guild.id) return guildPermissions(view);
  if (!canViewChannel(view, channel)) throw ApiError.of('MISSING_ACCESS');
  return channelPermissions(view, channel);
}

/** MANAGE_EVENTS, or CREATE_EVENTS for the caller's own event; 403 (50013) otherwise. */
function requireEventManager(bits: bigint, event: ScheduledEventRecord, userId: string): void {
  const own = event.creator_id === userId && hasPermission(bits, PERMISSIONS.CREATE_EVENTS);
  if (!own && !hasPermission(bits, PERMISSIONS.MANAGE_EVENTS)) throw ApiError.of('MISSING_PERMISSIONS');
}

/**
 * `GET /guilds/{guild.id}/scheduled-events/{id}`: for a member, with its creator, and with
 * `user_count` when asked.
 */
export async function getScheduledEvent(
  ctx: PlatformContext,
  principal: Principal,
  guildId: string,
  eventId: string,
  withUserCount: boolean,
) {
  requireMember(await loadGuildView(dbReader(ctx.db), guildId, principal.user.id));
  const tx = ctx.db.read(['guild_scheduled_events', 'guild_scheduled_event_users', 'users']);
  const event = await eventOf(tx, guildId, eventId);
  const creator = await tx.store('users').get(event.creator_id);
  const wire = serializeScheduledEvent(event, creator);
  if (!withUserCount) return wire;
  return { ...wire, user_count: await tx.store('guild_scheduled_event_users').count(eventUserRange(eventId)) };
}

/** The audit log's change list between two versions of an event. */
function changesOf(before: ScheduledEventRecord, after: ScheduledEventRecord) {
  const keys = [
    'name',
    'description',
    'channel_id',
    'entity_type',
    'status',
    'scheduled_start_time',
    'scheduled_end_time',
  ] as const;
  const changes = keys
    .filter((key) => before[key] !== after[key])
    .map((key) => ({ key, old_value: before[key], new_value: after[key] }));
  if (before.entity_metadata?.location !== after.entity_metadata?.location)
    changes.push({
      key: 'location',
      old_value: before.entity_metadata?.location ?? null,
      new_value: after.entity_metadata?.location ?? null,
    } as never);
  return changes.map((c) =>
    c.key === 'scheduled_start_time' || c.key === 'scheduled_end_time'
      ? {
          ...c,
          old_value: c.old_value === null ? null : new Date(c.old_value as number).toISOString(),
          new_value: c.new_value === null ? null : new Date(c.new_value as number).toISOString(),
        }
      : c,
  );
}

/** The event `input` makes of `event`, with the form errors of the docs' rules. */
function applyInput(event: ScheduledEventRecord, input: ModifyScheduledEventInput, now: number): ScheduledEventRecord {
  const entityType = input.entity_type ?? event.entity_type;
  const external = entityType === SCHEDULED_EVENT_ENTITY_TYPES.EXTERNAL;
  const start = input.scheduled_start_time ?? event.scheduled_start_time;
  const end = input.scheduled_end_time !== undefined ? input.scheduled_end_time : event.scheduled_end_time;
  const status = input.status ?? event.status;
  if (status !== event.status && !NEXT_STATUSES[event.status]?.includes(status))
    throw ApiError.invalidForm({ status: 'This status change is not allowed.' });
  if (input.scheduled_start_time !== undefined && status === SCHEDULED_EVENT_STATUS.SCHEDULED && start <= now)
    throw ApiError.invalidForm({ scheduled_start_time: 'Cannot schedule an event in the past.' });
  if (end !== null && end <= start) throw ApiError.invalidForm({ scheduled_end_time: 'Must be after the start time.' });
  let channelId: string | null;
  let metadata: { location: string } | null;
  if (external) {
    if (input.channel_id) throw ApiError.invalidForm({ channel_id: 'Must be null for an external event.' });
    const location =
      input.entity_metadata !== undefined ? input.entity_metadata?.location : event.entity_metadata?.location;
    if (!location) throw ApiError.invalidForm({ 'entity_metadata.location': 'Required for an external event.' });
    if (end === null) throw ApiError.invalidForm({ scheduled_end_time: 'Required for an external event.' });
    channelId = null;
    metadata = { location };
  } else {
    channelId = input.channel_id !== undefined ? input.channel_id : event.channel_id;
    if (!channelId) throw ApiError.invalidForm({ channel_id: 'Required for a stage or voice event.' });
    metadata = null;
  }
  return {
    ...event,
    name: input.name ?? event.name,
    description: input.description !== undefined ? input.description : event.description,
    entity_type: entityType,
    channel_id: channelId,
    entity_metadata: metadata,
    scheduled_start_time: start,
    scheduled_end_time: end,
    status,
  };
}

/**
 * `PATCH /guilds/{guild.id}/scheduled-events/{id}`: changes the fields given; moving a stage or
 * voice event needs a channel of its type that the caller may manage events in.
 * @example await modifyScheduledEvent(ctx, bot, guildId, eventId, { status: 2 });
 */
export async function modifyScheduledEvent(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  eventId: string,
  input: ModifyScheduledEventInput,
) {
  const now = ctx.clock.now();
  return write(ctx, [...STORES], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    const event = await eventOf(tx, guildId, eventId);
    requireEventManager(await bitsAt(tx, view, event.channel_id), event, principal.user.id);
    if (event.status === SCHEDULED_EVENT_STATUS.COMPLETED || event.status === SCHEDULED_EVENT_STATUS.CANCELED)
      throw ApiError.of('CANNOT_UPDATE_FINISHED_EVENT');
    const next = applyInput(event, input, now);
    if (next.channel_id !== null && (next.channel_id !== event.channel_id || next.entity_type !== event.entity_type)) {
      const channel = await tx.store('channels').get(next.channel_id);
      const type =
        next.entity_type === SCHEDULED_EVENT_ENTITY_TYPES.STAGE_INSTANCE
          ? CHANNEL_TYPES.GUILD_STAGE_VOICE
          : CHANNEL_TYPES.GUILD_VOICE;
      if (!channel || channel.guild_id !== guildId || channel.type !== type)
        throw ApiError.invalidForm({ channel_id: 'Must be a channel of this guild of the entity type.' });
      requireEventManager(await bitsAt(tx, view, next.channel_id), event, principal.user.id);
    }
    await tx.store('guild_scheduled_events').put(next);
    const creator = await tx.store('users').get(next.creator_id);
    const wire = serializeScheduledEvent(next, creator);
    emit({
      type: 'GUILD_SCHEDULED_EVENT_UPDATE',
      data: wire,
      audience: { guild_id: guildId, intent: INTENTS.GUILD_SCHEDULED_EVENTS },
    });
    const changes = changesOf(event, next);
    if (changes.length > 0)
      await appendAuditLogEntry(ctx, tx, {
        guild_id: guildId,
        action_type: AUDIT_LOG_EVENTS.GUILD_SCHEDULED_EVENT_UPDATE,
        user_id: principal.user.id,
        target_id: eventId,
        changes,
      });
    return wire;
  });
}

/**
 * `DELETE /guilds/{guild.id}/scheduled-events/{id}`: removes the event and its interested users,
 * whatever its status.
 */
export async function deleteScheduledEvent(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  eventId: string,
): Promise<void> {
  await write(ctx, [...STORES], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    const event = await eventOf(tx, guildId, eventId);
    requireEventManager(await bitsAt(tx, view, event.channel_id), event, principal.user.id);
    await tx.store('guild_scheduled_events').delete(eventId);
    await tx.store('guild_scheduled_event_users').delete(eventUserRange(eventId));
    const creator = await tx.store('users').get(event.creator_id);
    emit({
      type: 'GUILD_SCHEDULED_EVENT_DELETE',
      data: serializeScheduledEvent(event, creator),
      audience: { guild_id: guildId, intent: INTENTS.GUILD_SCHEDULED_EVENTS },
    });
    await appendAuditLogEntry(ctx, tx, {
      guild_id: guildId,
      action_type: AUDIT_LOG_EVENTS.GUILD_SCHEDULED_EVENT_DELETE,
      user_id: principal.user.id,
      target_id: eventId,
      changes: [{ key: 'name', old_value: event.name }],
    });
  });
}
