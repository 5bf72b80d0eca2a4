/**
 * The URL an activity frame loads: the activity's page with its own query kept and the frame's
 * parameters added (CONTRACT §5), as the platform's public embedded-app SDK reads them.
 */
import type { ActivityPlatform } from '../rpc/protocol';

/**
 * The `mobile_app_version` a frame on the mobile platform is launched with, as the platform's
 * mobile client adds it: the public SDK sends its `sdk_version` in the HANDSHAKE only from
 * mobile version 250 on, so a version at or above it behaves as today's phones do.
 */
export const MOBILE_APP_VERSION = '290.0';

/**
 * The activity page's URL with `frame_id`, `instance_id`, `platform`, `guild_id`, `channel_id`
 * and `location_id` added to its own query. `location_id` names the guild channel
 * (`gc-<guild_id>-<channel_id>`) or, outside a guild, the channel (`c-<channel_id>`).
 * @example frameUrl(new URL('https://x/activities/1/?level=3'), { frame_id, instance_id, platform: 'desktop', guild_id: '2', channel_id: '3' })
 */
export function frameUrl(
  page: URL,
  params: {
    frame_id: string;
    instance_id: string;
    platform: ActivityPlatform;
    guild_id: string | null;
    channel_id: string;
  },
): URL {
  const url = new URL(page);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  if (params.platform === 'mobile') url.searchParams.set('mobile_app_version', MOBILE_APP_VERSION);
  url.searchParams.set(
    'location_id',
    params.guild_id ? `gc-${params.guild_id}-${params.channel_id}` : `c-${params.channel_id}`,
  );
  return url;
}
