// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { createGatewayHarness, type GatewayHarness } from './gateway-harness';

/** A guild with the bot holding BAN_MEMBERS, MANAGE_ROLES and MANAGE_GUILD, and bob as a member. */
async function moderatedGuild(h: GatewayHarness) {
  const { guild } = await h.guildWithBot({ bob: true });
  const bits = PERMISSIONS.BAN_MEMBERS | PERMISSIONS.MANAGE_ROLES | PERMISSIONS.MANAGE_GUILD;
  const role = (await h.api.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'mod', permissions: String(bits) })).body
    .role;
  await h.api.put(`/sandbox/guilds/${guild.id}/members/${h.world.bot.id}`, { roles: [role.id] });
  return guild;
}

describe('guild administration events over the gateway, with and without their intents', () => {
  it('GUILD_BAN_ADD and GUILD_BAN_REMOVE reach sessions with GUILD_MODERATION only', async () => {
    const h = await createGatewayHarness();
    const guild = await moderatedGuild(h);
    const moderation = await h.identify(h.world.botAuth, { intents: INTENTS.GUILD_MODERATION });
    const guildsOnly = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    await h.api.put(`/api/v10/guilds/${guild.id}/bans/${h.world.bob.id}`, {}, h.world.botAuth);
    const added = await moderation.waitForDispatch('GUILD_BAN_ADD');
    expect(added.d).toMatchObject({ guild_id: guild.id, user: { id: h.world.bob.id } });
    await h.api.delete(`/api/v10/guilds/${guild.id}/bans/${h.world.bob.id}`, h.world.botAuth);
    const removed = await moderation.waitForDispatch('GUILD_BAN_REMOVE');
    expect(removed.d).toMatchObject({ guild_id: guild.id, user: { id: h.world.bob.id } });
    await h.flush();
    expect(guildsOnly.dispatches('GUILD_BAN_ADD')).toEqual([]);
    expect(guildsOnly.dispatches('GUILD_BAN_REMOVE')).toEqual([]);
  });

  it('GUILD_ROLE_CREATE / DELETE and GUILD_UPDATE reach sessions with GUILDS only', async () => {
    const h = await createGatewayHarness();
    const guild = await moderatedGuild(h);
    const guilds = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const moderationOnly = await h.identify(h.world.botAuth, { intents: INTENTS.GUILD_MODERATION });
    const role = (await h.api.post(`/api/v10/guilds/${guild.id}/roles`, { name: 'raiders' }, h.world.botAuth)).body;
    expect((await guilds.waitForDispatch('GUILD_ROLE_CREATE')).d).toMatchObject({ role: { id: role.id } });
    await h.api.delete(`/api/v10/guilds/${guild.id}/roles/${role.id}`, h.world.botAuth);
    expect((await guilds.waitForDispatch('GUILD_ROLE_DELETE')).d).toEqual({ guild_id: guild.id, role_id: role.id });
    await h.api.patch(`/api/v10/guilds/${guild.id}`, { name: 'Renamed' }, h.world.botAuth);
    expect((await guilds.waitForDispatch('GUILD_UPDATE')).d).toMatchObject({ id: guild.id, name: 'Renamed' });
    await h.flush();
    for (const t of ['GUILD_ROLE_CREATE', 'GUILD_ROLE_DELETE', 'GUILD_UPDATE'] as const)
      expect(moderationOnly.dispatches(t)).toEqual([]);
  });
});
