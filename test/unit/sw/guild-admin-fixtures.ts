/**
 * Fixtures of the guild feature tests (invites, emoji, voice states, prune, member edits): a
 * guild owned by alice with the bot holding a role of chosen permissions, and helpers to read
 * events and the store, and to build multipart bodies.
 */
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { createWorld, type TestClient } from '../app-harness';

/** A 1x1 PNG as a data URI: an image that decodes. */
export const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
/** A GIF as a data URI: the platform calls such images animated. */
export const GIF = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/**
 * A guild owned by alice. Roles by position: `member` (1, no permissions) below `bot` (2, with
 * `botPermissions`, held by the bot) below `high` (3). bob is a plain member; carol is not in
 * the guild. `text` and `voice` are the guild's default channels.
 */
export async function guildWorld(client: TestClient, botPermissions: bigint = 0n) {
  const world = await createWorld(client, 'openid sdk.social_layer guilds');
  const created = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id })).body;
  const guild = created.guild;
  const memberRole = (await client.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'member', permissions: '0' })).body
    .role;
  const botRole = (
    await client.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'bot', permissions: String(botPermissions) })
  ).body.role;
  const highRole = (await client.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'high', permissions: '0' })).body
    .role;
  await client.put(`/sandbox/guilds/${guild.id}/members/${world.bot.id}`, { roles: [botRole.id] });
  await client.put(`/sandbox/guilds/${guild.id}/members/${world.bob.id}`, {});
  const carol = (await client.post('/sandbox/users', { username: 'carol' })).body.user;
  const text = created.channels.find((c: any) => c.type === 0);
  const voice = created.channels.find((c: any) => c.type === 2);
  return { ...world, guild, memberRole, botRole, highRole, carol, text, voice };
}

/** Replaces the permissions of a role straight in the store (a fixture, not an API call). */
export async function setRolePermissions(client: TestClient, roleId: string, bits: bigint): Promise<void> {
  const role = await client.db.get('roles', roleId);
  await client.db.put('roles', { ...role!, permissions: String(bits) });
}

/** A second application whose bot is in the guild with a role of `bits`. */
export async function otherBot(client: TestClient, guildId: string, bits: bigint) {
  const app = (await client.post('/sandbox/applications', { name: `Other${Math.random().toString(36).slice(2, 6)}` }))
    .body;
  const role = (await client.post(`/sandbox/guilds/${guildId}/roles`, { name: 'other', permissions: String(bits) }))
    .body.role;
  await client.put(`/sandbox/guilds/${guildId}/members/${app.bot.id}`, { roles: [role.id] });
  return { auth: `Bot ${app.bot_token}`, bot: app.bot, role };
}

/** Every logged event of `type`, oldest first. */
export async function eventsOf(client: TestClient, type: string) {
  return (await client.db.getAll('events')).filter((e) => e.type === type);
}

/** The number of records in a store. */
export async function countOf(
  client: TestClient,
  store: 'invites' | 'emojis' | 'guild_scheduled_events' | 'voice_states' | 'members' | 'audit_log_entries',
) {
  return client.db.count(store);
}

/** A multipart body with a `target_users_file` CSV and optional other fields. */
export function csvForm(csv: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('target_users_file', new Blob([csv], { type: 'text/csv' }), 'users.csv');
  return form;
}

export { PERMISSIONS };
