/**
 * Where an activity can be launched besides the world's guild voice channel: a DM or a group
 * DM. The platform keeps a DM channel between friends, opened by a first message, so the cockpit
 * makes the two users friends (the sandbox's relationship control) and sends one as the user
 * (with a token it mints for that and keeps in memory only). A group DM is the application bot's
 * (the only group DMs the platform's public API makes), with the users in it, made once by the
 * sandbox's group DM fixture and found again in the user's channels. Either way the activity
 * launches in that channel, outside any guild (`guild_id` absent, `location_id` `c-<channel_id>`).
 */
import type { SandboxClient } from '../../components/sandbox-client';
import type { LaunchPlace } from './players';
import type { SandboxWorld } from './world';

/** Calls the API as `userId` with a token of the world's application holding `scopes`. */
async function userCaller(sandbox: SandboxClient, world: SandboxWorld, userId: string, scopes: string) {
  const { access_token } = await sandbox.createToken({ application_id: world.application_id, user_id: userId, scopes });
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`/api/v10${path}`, {
      method,
      headers: { Authorization: `Bearer ${access_token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${json.message ?? response.status}`);
    return json;
  };
}

/**
 * The group DM of the world's application with `userIds` (the first one launches), made if
 * there is none with exactly these users yet.
 */
export async function groupDmPlace(
  sandbox: SandboxClient,
  world: SandboxWorld,
  userIds: string[],
): Promise<LaunchPlace> {
  const [userId, ...others] = userIds;
  if (!userId || others.length === 0) throw new Error('a group DM needs two users or more');
  const call = await userCaller(sandbox, world, userId, 'dm_channels.read');
  const wanted = [...others].sort().join();
  const channels = (await call('GET', '/users/@me/channels')) as {
    id: string;
    type: number;
    application_id?: string;
    owner_id?: string;
    recipients: { id: string }[];
  }[];
  const existing = channels.find(
    (c) =>
      c.type === 3 &&
      c.application_id === world.application_id &&
      c.recipients
        .map((r) => r.id)
        .filter((id) => id !== c.owner_id)
        .sort()
        .join() === wanted,
  );
  const channel =
    existing ?? (await sandbox.createGroupDm({ application_id: world.application_id, user_ids: userIds })).channel;
  return { guild_id: null, channel_id: channel.id };
}

/** The DM of `userId` with `otherId`, opened if need be. */
export async function directMessagePlace(
  sandbox: SandboxClient,
  world: SandboxWorld,
  userId: string,
  otherId: string | undefined,
): Promise<LaunchPlace> {
  if (!otherId || otherId === userId) throw new Error('pick another user for the DM');
  const call = await userCaller(sandbox, world, userId, 'dm_channels.read dm_channels.messages.write');
  const find = async () =>
    ((await call('GET', '/users/@me/channels')) as { id: string; type: number; recipients: { id: string }[] }[]).find(
      (c) => c.type === 1 && c.recipients.some((r) => r.id === otherId),
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
