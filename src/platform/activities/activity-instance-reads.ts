/**
 * `GET /applications/{application_id}/activity-instances/{instance_id}`: what an activity's
 * backend asks to check that an instance id its client sent is real, where it runs and who is
 * in it, with the application's bot token. An unknown or ended instance, or one of another
 * application, is 404.
 */
import type { ActivityInstanceRecord } from '../../store/records/activities';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { instanceView } from './activity-instances';

/** Where an instance runs, in the public shape: a guild channel (`gc`) or a private channel (`pc`). */
export type ActivityLocation =
  | { id: string; kind: 'gc'; channel_id: string; guild_id: string }
  | { id: string; kind: 'pc'; channel_id: string };

/** An activity instance in the public shape. */
export interface ActivityInstanceResponse {
  application_id: string;
  instance_id: string;
  launch_id: string;
  location: ActivityLocation;
  /** The ids of the users connected to the instance. */
  users: string[];
}

/**
 * The location of an instance; its id is the frame's `location_id` (`gc-<guild_id>-<channel_id>`,
 * or `c-<channel_id>` outside a guild).
 */
export function activityLocation(record: Pick<ActivityInstanceRecord, 'guild_id' | 'channel_id'>): ActivityLocation {
  return record.guild_id
    ? {
        id: `gc-${record.guild_id}-${record.channel_id}`,
        kind: 'gc',
        channel_id: record.channel_id,
        guild_id: record.guild_id,
      }
    : { id: `c-${record.channel_id}`, kind: 'pc', channel_id: record.channel_id };
}

/** The instance in the public shape. */
export function serializeActivityInstance(record: ActivityInstanceRecord): ActivityInstanceResponse {
  return {
    application_id: record.application_id,
    instance_id: record.instance_id,
    launch_id: record.launch_id,
    location: activityLocation(record),
    users: instanceView(record).participants.map((p) => p.id),
  };
}

/**
 * The running instance `instanceId` of the bot's own application.
 * @example const instance = await getActivityInstance(ctx, bot, applicationId, instanceId);
 */
export async function getActivityInstance(
  ctx: PlatformContext,
  principal: BotPrincipal,
  applicationId: string,
  instanceId: string,
): Promise<ActivityInstanceResponse> {
  if (principal.application.id !== applicationId) throw ApiError.of('ENDPOINT_UNAVAILABLE');
  const record = await ctx.db.get('activity_instances', instanceId);
  if (!record || record.application_id !== applicationId || record.members.length === 0)
    throw ApiError.of('UNKNOWN_ACTIVITY_INSTANCE');
  return serializeActivityInstance(record);
}
