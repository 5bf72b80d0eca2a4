// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DEFAULT_EVERYONE_PERMISSIONS, PERMISSIONS } from '../../../src/platform/core/permissions';
import { eventsOf, expectError, expectInvalidField } from './messages-fixtures';
import { freeze, interactionWorld, invoked, storeDump } from './interactions-fixtures';

const MiB = 1024 * 1024;

describe('POST /sandbox/interactions: a user invokes a command', () => {
  it('delivers INTERACTION_CREATE over the gateway to the app bot sessions only, without the token; the token is answered once and stored only as a hash', async () => {
    const w = await interactionWorld();
    const interaction = await invoked(w, { data: { name: 'roll', options: [{ name: 'sides', value: 6 }] } });
    expect(interaction.token).toMatch(/^interaction\./);
    expect(interaction).toMatchObject({
      type: 2,
      version: 1,
      application_id: w.application.id,
      guild_id: w.guild.id,
      channel_id: w.general.id,
      data: { id: w.roll.id, name: 'roll', type: 1, options: [{ name: 'sides', type: 4, value: 6 }] },
    });
    const [event] = await eventsOf(w.client, 'INTERACTION_CREATE');
    expect(event.audience).toEqual({ user_ids: [w.bot.id], application_id: w.application.id });
    expect((event.data as any).id).toBe(interaction.id);
    expect((event.data as any).token).toBeUndefined();
    expect(await storeDump(w.client)).not.toContain(interaction.token.slice('interaction.'.length));
  });

  it('carries context, authorizing_integration_owners (values as strings), app_permissions (always, as a string) and the member with permissions', async () => {
    const w = await interactionWorld();
    const interaction = await invoked(w);
    expect(interaction.context).toBe(0);
    expect(interaction.authorizing_integration_owners).toEqual({ 0: w.guild.id });
    expect(typeof interaction.app_permissions).toBe('string');
    expect(BigInt(interaction.app_permissions) & PERMISSIONS.SEND_MESSAGES).toBe(PERMISSIONS.SEND_MESSAGES);
    expect(interaction.member.user.id).toBe(w.alice.id);
    expect(typeof interaction.member.permissions).toBe('string');
    expect(interaction.user).toBeUndefined();
    expect(interaction.entitlements).toEqual([]);
  });

  it('entitlements: the invoking user active entitlements of the app', async () => {
    const w = await interactionWorld();
    const sku = (await w.client.post(`/sandbox/applications/${w.application.id}/skus`, { name: 'Gold', type: 2 })).body
      .sku;
    const bought = await w.client.post('/sandbox/purchases', { user_id: w.alice.id, sku_id: sku.id });
    expect(bought.status, JSON.stringify(bought.body)).toBeLessThan(300);
    const interaction = await invoked(w);
    expect(interaction.entitlements).toEqual([
      expect.objectContaining({ sku_id: sku.id, user_id: w.alice.id, application_id: w.application.id }),
    ]);
    expect((await invoked(w, { user_id: w.bob.id })).entitlements).toEqual([]);
  });

  it('attachment_size_limit is the interaction default (25 MiB before 2025-01-16, 10 MiB from it) raised by the invoking user premium', async () => {
    const w = await interactionWorld();
    await freeze(w.client, '2025-01-15T23:59:59.000Z');
    expect((await invoked(w)).attachment_size_limit).toBe(25 * MiB);
    await freeze(w.client, '2025-01-16T00:00:00.000Z');
    expect((await invoked(w)).attachment_size_limit).toBe(10 * MiB);
    const nitro = (await w.client.post('/sandbox/users', { username: 'nitro', premium_type: 2 })).body.user;
    await w.client.put(`/sandbox/guilds/${w.guild.id}/members/${nitro.id}`, {});
    expect((await invoked(w, { user_id: nitro.id })).attachment_size_limit).toBe(500 * MiB);
  });

  it('a user-installed app in a guild without its bot: owners {"1": user id}, app_permissions are what @everyone has in the channel', async () => {
    const w = await interactionWorld();
    const { id: cmd } = (
      await w.client.post(
        `/api/v10/applications/${w.activity.id}/commands`,
        { name: 'ping', description: 'Ping', integration_types: [1] },
        w.activity.auth,
      )
    ).body;
    await w.userInstall(w.alice.id, w.activity.id);
    const interaction = await invoked(w, { application_id: w.activity.id, data: { id: cmd } });
    expect(interaction.authorizing_integration_owners).toEqual({ 1: w.alice.id });
    expect(BigInt(interaction.app_permissions)).toBe(DEFAULT_EVERYONE_PERMISSIONS);
    // An @everyone overwrite of the channel shows in them.
    const quiet = (
      await w.client.post(`/sandbox/guilds/${w.guild.id}/channels`, {
        name: 'quiet',
        type: 0,
        permission_overwrites: [{ id: w.guild.id, type: 0, allow: '0', deny: String(PERMISSIONS.EMBED_LINKS) }],
      })
    ).body.channel;
    const there = await invoked(w, { application_id: w.activity.id, channel_id: quiet.id, data: { id: cmd } });
    expect(BigInt(there.app_permissions)).toBe(DEFAULT_EVERYONE_PERMISSIONS & ~PERMISSIONS.EMBED_LINKS);
    // Not installed by bob: the command is not available to him.
    expectInvalidField(
      await w.interact({ application_id: w.activity.id, user_id: w.bob.id, data: { id: cmd } }),
      'data',
    );
  });

  it('in the DM with the app bot (BOT_DM): context 1, owners "0" for the guild install ("0" as a string) and the user install; app_permissions include ATTACH_FILES, EMBED_LINKS, MENTION_EVERYONE and USE_EXTERNAL_EMOJIS', async () => {
    const w = await interactionWorld();
    await w.userInstall(w.alice.id);
    const interaction = await invoked(w, { guild_id: undefined, channel_id: undefined });
    expect(interaction.context).toBe(1);
    expect(interaction.authorizing_integration_owners).toEqual({ 0: '0', 1: w.alice.id });
    expect(interaction.user.id).toBe(w.alice.id);
    expect(interaction.member).toBeUndefined();
    const perms = BigInt(interaction.app_permissions);
    for (const bit of [
      PERMISSIONS.ATTACH_FILES,
      PERMISSIONS.EMBED_LINKS,
      PERMISSIONS.MENTION_EVERYONE,
      PERMISSIONS.USE_EXTERNAL_EMOJIS,
    ])
      expect(perms & bit).toBe(bit);
  });

  it('in a DM between users (PRIVATE_CHANNEL): context 2, only a user install authorizes; app_permissions include ATTACH_FILES, EMBED_LINKS, MENTION_EVERYONE but not USE_EXTERNAL_EMOJIS', async () => {
    const w = await interactionWorld();
    const [low, high] = [w.alice.id, w.bob.id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    await w.client.app.ctx.db.add('dm_channels', {
      id: '4242',
      user_low: low,
      user_high: high,
      recipient_ids: [low, high],
      last_message_id: null,
      created_at: 0,
    });
    expectInvalidField(await w.interact({ guild_id: undefined, channel_id: '4242' }), 'data');
    await w.userInstall(w.alice.id);
    const interaction = await invoked(w, { guild_id: undefined, channel_id: '4242' });
    expect(interaction.context).toBe(2);
    expect(interaction.authorizing_integration_owners).toEqual({ 1: w.alice.id });
    const perms = BigInt(interaction.app_permissions);
    for (const bit of [PERMISSIONS.ATTACH_FILES, PERMISSIONS.EMBED_LINKS, PERMISSIONS.MENTION_EVERYONE])
      expect(perms & bit).toBe(bit);
    expect(perms & PERMISSIONS.USE_EXTERNAL_EMOJIS).toBe(0n);
  });

  it('a command is available only in its contexts: contexts [GUILD] refuses the DM with the bot', async () => {
    const w = await interactionWorld();
    await w.client.patch(`${w.commands}/${w.roll.id}`, { contexts: [0] }, w.botAuth);
    expectInvalidField(await w.interact({ guild_id: undefined, channel_id: undefined }), 'data');
    expect((await w.interact()).status).toBe(201);
  });

  it('unknown commands are 404 10063; default_member_permissions and USE_APPLICATION_COMMANDS gate use in a guild (403 50013)', async () => {
    const w = await interactionWorld();
    expectError(await w.interact({ data: { name: 'nope' } }), 404, 10063);
    await w.client.patch(
      `${w.commands}/${w.roll.id}`,
      { default_member_permissions: String(PERMISSIONS.MANAGE_GUILD) },
      w.botAuth,
    );
    expectError(await w.interact({ user_id: w.bob.id }), 403, 50013);
    expect((await w.interact()).status).toBe(201);
  });

  it('options are checked against the command: ranges, required options, types (400 50035 naming data.options)', async () => {
    const w = await interactionWorld();
    expectInvalidField(
      await w.interact({ data: { name: 'roll', options: [{ name: 'sides', value: 1 }] } }),
      'data.options.0.value',
    );
    expectInvalidField(
      await w.interact({ data: { name: 'roll', options: [{ name: 'sides', value: 'six' }] } }),
      'data.options.0.value',
    );
    expectInvalidField(
      await w.interact({ data: { name: 'roll', options: [{ name: 'other', value: 1 }] } }),
      'data.options.0.name',
    );
    await w.client.post(
      w.commands,
      { name: 'say', description: 'Say', options: [{ type: 3, name: 'text', description: 't', required: true }] },
      w.botAuth,
    );
    expectInvalidField(await w.interact({ data: { name: 'say' } }), 'data.options');
  });

  it('resolved channels carry the bot app_permissions only when the app bot is in the guild', async () => {
    const w = await interactionWorld();
    await w.client.post(
      w.commands,
      { name: 'where', description: 'Where', options: [{ type: 7, name: 'channel', description: 'c' }] },
      w.botAuth,
    );
    const inGuild = await invoked(w, { data: { name: 'where', options: [{ name: 'channel', value: w.general.id }] } });
    expect(inGuild.data.resolved.channels[w.general.id]).toMatchObject({
      id: w.general.id,
      permissions: expect.any(String),
      app_permissions: expect.any(String),
    });
    const { id } = (
      await w.client.post(
        `/api/v10/applications/${w.activity.id}/commands`,
        {
          name: 'where',
          description: 'Where',
          integration_types: [1],
          options: [{ type: 7, name: 'channel', description: 'c' }],
        },
        w.activity.auth,
      )
    ).body;
    await w.userInstall(w.alice.id, w.activity.id);
    const userApp = await invoked(w, {
      application_id: w.activity.id,
      data: { id, options: [{ name: 'channel', value: w.general.id }] },
    });
    expect(userApp.data.resolved.channels[w.general.id].permissions).toEqual(expect.any(String));
    expect(userApp.data.resolved.channels[w.general.id].app_permissions).toBeUndefined();
  });

  it('ATTACHMENT options: the file is stored and resolved; a type outside file_types is 400, a file over attachment_size_limit 413', async () => {
    const w = await interactionWorld();
    await w.client.post(
      w.commands,
      {
        name: 'upload',
        description: 'Up',
        options: [{ type: 11, name: 'file', description: 'f', required: true, file_types: ['.png', 'image/jpeg'] }],
      },
      w.botAuth,
    );
    const png = { filename: 'a.png', content_type: 'image/png', data: btoa('png!') };
    const ok = await invoked(w, { data: { name: 'upload', options: [{ name: 'file', value: png }] } });
    const id = ok.data.options[0].value;
    expect(ok.data.resolved.attachments[id]).toMatchObject({ filename: 'a.png', size: 4, content_type: 'image/png' });
    expect((await w.client.get(ok.data.resolved.attachments[id].url)).body).toBe('png!');
    expectInvalidField(
      await w.interact({
        data: { name: 'upload', options: [{ name: 'file', value: { filename: 'a.txt', data: btoa('x') } }] },
      }),
      'data.options.0.value',
    );
    await freeze(w.client, '2025-06-01T00:00:00.000Z');
    const big = { filename: 'big.png', data: Buffer.alloc(10 * MiB + 1).toString('base64') };
    expectError(await w.interact({ data: { name: 'upload', options: [{ name: 'file', value: big }] } }), 413, 40005);
  });

  it('user and message context menu commands resolve their target', async () => {
    const w = await interactionWorld();
    const user = (await w.client.post(w.commands, { name: 'High Five', type: 2 }, w.botAuth)).body;
    const interaction = await invoked(w, { data: { id: user.id, target_id: w.bob.id } });
    expect(interaction.data).toMatchObject({
      type: 2,
      target_id: w.bob.id,
      resolved: { users: { [w.bob.id]: { id: w.bob.id } }, members: { [w.bob.id]: { roles: [] } } },
    });
    expectInvalidField(await w.interact({ data: { id: user.id } }), 'data.target_id');
  });
});
