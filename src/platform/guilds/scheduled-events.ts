/**
 * Guild scheduled events, as far as the spec's permission split needs them to be real: create
 * (`POST /guilds/{guild.id}/scheduled-events`, emitting GUILD_SCHEDULED_EVENT_CREATE to the
 * GUILD_SCHEDULED_EVENTS intent, with its GUILD_SCHEDULED_EVENT_CREATE audit entry) and list. Creating needs CREATE_EVENTS from 2026-02-23 and
 * MANAGE_EVENTS (or CREATE_EVENTS) before; for a stage or voice event the bits are read in its
 * channel, which the bot must be able to view.
 */
import { write } from '../../store/write';
import type { BotPrincipal, Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import {
  canViewChannel,
  channelPermissions,
  dbReader,
  guildPermissions,
  loadGuildView,
  requireMember,
  txReader,
} from './access';
import { requireCreatePermission } from './permission-split';
import type { ScheduledEventRecord } from '../../store/records/guilds';
import type { ScheduledEvent } from '../../store/records/dispatches';
import { INTENTS } from '../core/intents';
import { CHANNEL_TYPES, type UserRecord } from '../../store/records/core';
import { serializeUser } from '../accounts/users';
import { keyRange } from '../../store/port';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from './audit-log';

/** Entity types: 1 STAGE_INSTANCE, 2 VOICE, 3 EXTERNAL. */
export const SCHEDULED_EVENT_ENTITY_TYPES = { STAGE_INSTANCE: 1, VOICE: 2, EXTERNAL: 3 } as const;

/** A create request, validated by the route (times as epoch ms). */
export interface CreateScheduledEventInput {
  name: string;
  description?: string | null;
  entity_type: 1 | 2 | 3;
  channel_id?: string | null;
  entity_metadata?: { location?: string } | null;
  scheduled_start_time: number;
  scheduled_end_time?: number | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The scheduled event object. */
export function serializeScheduledEvent(event: ScheduledEventRecord, creator?: UserRecord): ScheduledEvent {
  return {
    id: event.id,
    guild_id: event.guild_id,
    channel_id: event.channel_id,
    creator_id: event.creator_id,
    name: event.name,
    description: event.description,
    scheduled_start_time: iso(event.scheduled_start_time),
    scheduled_end_time: iso(event.scheduled_end_time),
    privacy_level: event.privacy_level,
    status: event.status,
    entity_type: event.entity_type,
    entity_id: null,
    entity_metadata: event.entity_metadata,
    ...(creator ? { creator: serializeUser(creator) } : {}),
    image: null,
    recurrence_rule: null,
    guild_scheduled_event_exceptions: [],
  };
}

/**
 * Creates a scheduled event. An external event needs `entity_metadata.location` and an end
 * time; a stage or voice event needs a channel of that type; the start must be in the future
 * and before the end (400 naming the field otherwise).
 * @example await createScheduledEvent(ctx, bot, guildId, { name: 'Raid', entity_type: 2, channel_id, scheduled_start_time: Date.parse('2026-03-01T20:00:00Z') });
 */
export async function createScheduledEvent(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  input: CreateScheduledEventInput,
) {
  const now = ctx.clock.now();
  const external = input.entity_type === SCHEDULED_EVENT_ENTITY_TYPES.EXTERNAL;
  const end = input.scheduled_end_time ?? null;
  if (input.scheduled_start_time <= now)
    throw ApiError.invalidForm({ scheduled_start_time: 'Cannot schedule an event in the past.' });
  if (end !== null && end <= input.scheduled_start_time)
    throw ApiError.invalidForm({ scheduled_end_time: 'Must be after the start time.' });
  if (external && !input.entity_metadata?.location)
    throw ApiError.invalidForm({ 'entity_metadata.location': 'Required for an external event.' });
  if (external && end === null) throw ApiError.invalidForm({ scheduled_end_time: 'Required for an external event.' });
  if (!external && !input.channel_id)
    throw ApiError.invalidForm({ channel_id: 'Required for a stage or voice event.' });
  const stores = ['guilds', 'roles', 'members', 'channels', 'guild_scheduled_events', 'audit_log_entries'] as const;
  return write(ctx, [...stores], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    let bits = guildPermissions(view);
    if (!external) {
      const channel = await tx.store('channels').get(input.channel_id!);
      const type =
        input.entity_type === SCHEDULED_EVENT_ENTITY_TYPES.STAGE_INSTANCE
          ? CHANNEL_TYPES.GUILD_STAGE_VOICE
          : CHANNEL_TYPES.GUILD_VOICE;
      if (!channel || channel.guild_id !== guildId || channel.type !== type)
        throw ApiError.invalidForm({ channel_id: 'Must be a channel of this guild of the entity type.' });
      if (!canViewChannel(view, channel)) throw ApiError.of('MISSING_ACCESS');
      bits = channelPermissions(view, channel);
    }
    requireCreatePermission(bits, 'events', now);
    const event: ScheduledEventRecord = {
      id: ctx.ids.next(),
      guild_id: guildId,
      channel_id: external ? null : input.channel_id!,
      creator_id: principal.user.id,
      name: input.name,
      description: input.description ?? null,
      scheduled_start_time: input.scheduled_start_time,
      scheduled_end_time: end,
      privacy_level: 2,
      status: 1,
      entity_type: input.entity_type,
      entity_metadata: external ? { location: input.entity_metadata!.location! } : null,
      created_at: now,
    };
    await tx.store('guild_scheduled_events').add(event);
    const wire = serializeScheduledEvent(event, principal.user);
    emit({
      type: 'GUILD_SCHEDULED_EVENT_CREATE',
      data: wire,
      audience: { guild_id: guildId, intent: INTENTS.GUILD_SCHEDULED_EVENTS },
    });
    await appendAuditLogEntry(ctx, tx, {
      guild_id: guildId,
      action_type: AUDIT_LOG_EVENTS.GUILD_SCHEDULED_EVENT_CREATE,
      user_id: principal.user.id,
      target_id: event.id,
      changes: [
        { key: 'name', new_value: event.name },
        { key: 'entity_type', new_value: event.entity_type },
        { key: 'status', new_value: event.status },
      ],
    });
    return wire;
  });
}

/**
 * `GET /guilds/{guild.id}/scheduled-events`: the guild's events in id order, for a member, with
 * each event's `user_count` when asked.
 */
export async function listScheduledEvents(
  ctx: PlatformContext,
  principal: Principal,
  guildId: string,
  withUserCount = false,
) {
  requireMember(await loadGuildView(dbReader(ctx.db), guildId, principal.user.id));
  const tx = ctx.db.read(['guild_scheduled_events', 'guild_scheduled_event_users']);
  const events = await tx.store('guild_scheduled_events').index('by_guild').getAll(guildId);
  const sorted = events.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  return Promise.all(
    sorted.map(async (e) =>
      withUserCount
        ? {
            ...serializeScheduledEvent(e),
            user_count: await tx
              .store('guild_scheduled_event_users')
              .count(keyRange.bound([e.id, ''], [e.id, '\uffff'])),
          }
        : serializeScheduledEvent(e),
    ),
  );
}
