// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CAPABILITY_CHANNEL_OBFUSCATION } from '../../../src/gateway/protocol';
import { INTENTS } from '../../../src/platform/core/intents';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { CHANNEL_OBFUSCATED } from '../../../src/store/records/core';
import { createGatewayHarness } from '../gateway/gateway-harness';

const VIEW = String(PERMISSIONS.VIEW_CHANNEL);

/** A guild with the game's bot (watching) and an administrator bot (acting over HTTP). */
async function setup() {
  const h = await createGatewayHarness();
  const { guild, channels } = await h.guildWithBot();
  const general = channels.find((c: any) => c.name === 'general');
  const adminRole = (
    await h.api.post(`/sandbox/guilds/${guild.id}/roles`, {
      name: 'admins',
      permissions: String(PERMISSIONS.ADMINISTRATOR),
    })
  ).body.role;
  const admin = (await h.api.post('/sandbox/applications', { name: 'Admin' })).body;
  await h.api.put(`/sandbox/guilds/${guild.id}/members/${admin.bot.id}`, { roles: [adminRole.id] });
  return { h, guild, general, adminAuth: `Bot ${admin.bot_token}` };
}

describe('channel and webhook events on the gateway', () => {
  it('WEBHOOKS_UPDATE {guild_id, channel_id} reaches sessions with GUILD_WEBHOOKS, not those without it', async () => {
    const { h, guild, general, adminAuth } = await setup();
    const watching = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_WEBHOOKS });
    const without = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const hook = await h.api.post(`/api/v10/channels/${general.id}/webhooks`, { name: 'Deploys' }, adminAuth);
    expect(hook.status).toBe(200);
    const update = await watching.waitForDispatch('WEBHOOKS_UPDATE');
    expect(update.d).toEqual({ guild_id: guild.id, channel_id: general.id });
    expect(JSON.stringify(update)).not.toContain(hook.body.token);
    await h.pump();
    expect(without.dispatches('WEBHOOKS_UPDATE')).toEqual([]);
  });

  it('CHANNEL_CREATE / UPDATE / DELETE over HTTP follow the obfuscation rules: hidden from an opted-in bot until a PATCH lets it view, then in full', async () => {
    const { h, guild, adminAuth } = await setup();
    const bot = await h.identify(h.world.botAuth, {
      intents: INTENTS.GUILDS,
      capabilities: CAPABILITY_CHANNEL_OBFUSCATION,
    });
    await bot.waitForDispatch('GUILD_CREATE');
    const created = (
      await h.api.post(
        `/api/v10/guilds/${guild.id}/channels`,
        { name: 'staff', permission_overwrites: [{ id: guild.id, type: 0, deny: VIEW }] },
        adminAuth,
      )
    ).body;
    const hidden = await bot.waitForDispatch('CHANNEL_CREATE');
    expect(hidden.d.name).toBe('___hidden___');
    expect(hidden.d.flags & CHANNEL_OBFUSCATED).toBe(CHANNEL_OBFUSCATED);
    const from = bot.received.length;
    await h.api.patch(`/api/v10/channels/${created.id}`, { topic: 'Staff only', permission_overwrites: [] }, adminAuth);
    const revealed = await bot.waitForDispatch('CHANNEL_UPDATE', from);
    expect(revealed.d).toMatchObject({ id: created.id, name: 'staff', topic: 'Staff only', permission_overwrites: [] });
    expect(revealed.d.flags & CHANNEL_OBFUSCATED).toBe(0);
    await h.api.delete(`/api/v10/channels/${created.id}`, adminAuth);
    expect((await bot.waitForDispatch('CHANNEL_DELETE')).d).toMatchObject({ id: created.id, name: 'staff' });
  });
});
