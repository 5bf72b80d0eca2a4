/**
 * Where an activity can be launched besides the world's guild voice channel: a DM. The
 * platform keeps a DM channel between friends, opened by a first message, so the cockpit makes
 * the two users friends (the sandbox's relationship control) and sends one as the user (with a
 * token it mints for that and keeps in memory only), then launches in that channel, outside
 * any guild (`guild_id` absent, `location_id` `c-<channel_id>`).
 */
import type { SandboxClient } from '../../components/sandbox-client';
import type { LaunchPlace } from './players';
import type { SandboxWorld } from './world';

/** The DM of `userId` with `otherId`, opened if need be. */
export async function directMessagePlace(
  sandbox: SandboxClient,
  world: SandboxWorld,
  userId: string,
  otherId: string | undefined,
): Promise<LaunchPlace> {
  if (!otherId || otherId === userId) throw new Error('pick another user for the DM');
  const { access_token } = await sandbox.createToken({
    application_id: world.application_id,
    user_id: userId,
    scopes: 'dm_channels.read dm_channels.messages.write',
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`/api/v10${path}`, {
      method,
      headers: { Authorization: `Bearer ${access_token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${json.message ?? response.status}`);
    return json;
  };
  const find = async () =>
    ((await call('GET', '/users/@me/channels')) as { id: string; recipients: { id: string }[] }[]).find((c) =>
      c.recipients.some((r) => r.id === otherId),
    );
  let channel = await find();
  if (!channel) {
    await sandbox.setRelationship(userId, otherId, { type: 1 });
    await call('POST', `/users/@me/dms/${otherId}/messages`, { content: 'Started an activity' });
    channel = await find();
  }
  if (!channel) throw new Error('the platform opened no DM channel');
  return { guild_id: null, channel_id: channel.id };
}
