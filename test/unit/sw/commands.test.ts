// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { APPLICATION_FLAGS } from '../../../src/store/records/core';
import { createTestClient, createWorld } from '../app-harness';
import { expectError, expectInvalidField } from './messages-fixtures';

async function world(flags = 0) {
  const client = await createTestClient();
  const w = await createWorld(client);
  const embedded = (
    await client.post('/sandbox/applications', { name: 'Activity', flags: flags | APPLICATION_FLAGS.EMBEDDED })
  ).body;
  const { guild } = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: w.alice.id })).body;
  await client.put(`/sandbox/guilds/${guild.id}/members/${w.bot.id}`, {});
  return {
    client,
    ...w,
    guild,
    embedded: { id: embedded.application.id, auth: `Bot ${embedded.bot_token}` },
    global: (appId = w.application.id) => `/api/v10/applications/${appId}/commands`,
    guildPath: (appId = w.application.id) => `/api/v10/applications/${appId}/guilds/${guild.id}/commands`,
  };
}

const slash = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `The ${name} command`,
  ...extra,
});

describe('application commands: create, read, edit, delete', () => {
  it('creates a CHAT_INPUT command (201, type 1 by default) and overwrites one of the same name (200, same id, new version)', async () => {
    const w = await world();
    const created = await w.client.post(w.global(), slash('roll'), w.botAuth);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 1,
      name: 'roll',
      application_id: w.application.id,
      description: 'The roll command',
      options: [],
      default_member_permissions: null,
      nsfw: false,
      integration_types: [0, 1],
      contexts: [0, 1, 2],
      dm_permission: true,
    });
    const again = await w.client.post(w.global(), slash('roll', { description: 'Roll again' }), w.botAuth);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(created.body.id);
    expect(again.body.version).not.toBe(created.body.version);
    expect((await w.client.get(w.global(), w.botAuth)).body).toHaveLength(1);
    expect((await w.client.get(`${w.global()}/${created.body.id}`, w.botAuth)).body.description).toBe('Roll again');
  });

  it('localizations are dictionaries of locale to text: an array is 400 50035 naming the field, nothing stored', async () => {
    const w = await world();
    expectInvalidField(
      await w.client.post(w.global(), slash('roll', { name_localizations: ['rouler'] }), w.botAuth),
      'name_localizations',
    );
    expectInvalidField(
      await w.client.post(w.global(), slash('roll', { description_localizations: ['Lancer'] }), w.botAuth),
      'description_localizations',
    );
    expectInvalidField(
      await w.client.post(
        w.global(),
        slash('roll', { options: [{ type: 3, name: 'die', description: 'Die', name_localizations: [] }] }),
        w.botAuth,
      ),
      'options.0.name_localizations',
    );
    expect((await w.client.get(w.global(), w.botAuth)).body).toEqual([]);
  });

  it('PATCH replaces the given fields, DELETE answers 204, an unknown command is 404 10063', async () => {
    const w = await world();
    const { id } = (await w.client.post(w.global(), slash('roll'), w.botAuth)).body;
    const edited = await w.client.patch(`${w.global()}/${id}`, { description: 'Edited', nsfw: true }, w.botAuth);
    expect(edited.body).toMatchObject({ id, name: 'roll', description: 'Edited', nsfw: true });
    await w.client.post(w.global(), slash('other'), w.botAuth);
    expectInvalidField(await w.client.patch(`${w.global()}/${id}`, { name: 'other' }, w.botAuth), 'name');
    expect((await w.client.delete(`${w.global()}/${id}`, w.botAuth)).status).toBe(204);
    expectError(await w.client.get(`${w.global()}/${id}`, w.botAuth), 404, 10063);
    expectError(await w.client.delete(`${w.global()}/${id}`, w.botAuth), 404, 10063);
  });

  it('needs the application own bot token: a user token is 403 20002, another bot 403 50001, no token 401', async () => {
    const w = await world();
    expectError(await w.client.post(w.global(), slash('roll'), w.aliceAuth), 403, 20002);
    expectError(await w.client.post(w.global(w.embedded.id), slash('roll'), w.botAuth), 403, 50001);
    expect((await w.client.post(w.global(), slash('roll'))).status).toBe(401);
  });

  it('names: CHAT_INPUT names are lowercase words (400 50035 naming name), context menu names may be mixed case with spaces', async () => {
    const w = await world();
    expectInvalidField(await w.client.post(w.global(), slash('Roll'), w.botAuth), 'name');
    expectInvalidField(await w.client.post(w.global(), slash('roll dice'), w.botAuth), 'name');
    expect((await w.client.post(w.global(), slash('würfel'), w.botAuth)).status).toBe(201);
    expect((await w.client.post(w.global(), { name: 'High Five', type: 2 }, w.botAuth)).body).toMatchObject({
      type: 2,
      name: 'High Five',
      description: '',
    });
    expectInvalidField(
      await w.client.post(w.global(), { name: 'Bookmark', type: 3, description: 'no' }, w.botAuth),
      'description',
    );
    expectInvalidField(await w.client.post(w.global(), { name: 'nodesc' }, w.botAuth), 'description');
  });

  it('options: required before optional, unique names, choices only on value types, autocomplete not with choices, no options on context menus', async () => {
    const w = await world();
    const opt = (name: string, extra: Record<string, unknown> = {}) => ({ type: 3, name, description: 'd', ...extra });
    expectInvalidField(
      await w.client.post(w.global(), slash('a', { options: [opt('x'), opt('y', { required: true })] }), w.botAuth),
      'options.1.required',
    );
    expectInvalidField(
      await w.client.post(w.global(), slash('a', { options: [opt('x'), opt('x')] }), w.botAuth),
      'options.1.name',
    );
    expectInvalidField(
      await w.client.post(
        w.global(),
        slash('a', { options: [{ type: 5, name: 'b', description: 'd', choices: [{ name: 'n', value: 'v' }] }] }),
        w.botAuth,
      ),
      'options.0.choices',
    );
    expectInvalidField(
      await w.client.post(
        w.global(),
        slash('a', { options: [opt('x', { autocomplete: true, choices: [{ name: 'n', value: 'v' }] })] }),
        w.botAuth,
      ),
      'options.0.autocomplete',
    );
    expectInvalidField(
      await w.client.post(
        w.global(),
        slash('a', { options: [{ type: 4, name: 'n', description: 'd', choices: [{ name: 'n', value: 'v' }] }] }),
        w.botAuth,
      ),
      'options.0.choices.0.value',
    );
    expectInvalidField(
      await w.client.post(w.global(), { name: 'User', type: 2, options: [opt('x')] }, w.botAuth),
      'options',
    );
    const nested = slash('perm', {
      options: [
        {
          type: 2,
          name: 'user',
          description: 'd',
          options: [
            {
              type: 1,
              name: 'get',
              description: 'd',
              options: [{ type: 6, name: 'who', description: 'd', required: true }],
            },
          ],
        },
      ],
    });
    expect((await w.client.post(w.global(), nested, w.botAuth)).status).toBe(201);
    expectInvalidField(
      await w.client.post(
        w.global(),
        slash('bad', { options: [{ type: 1, name: 'sub', description: 'd' }, opt('x')] }),
        w.botAuth,
      ),
      'options',
    );
  });

  it('ATTACHMENT command options can restrict file types (file_types, extensions or media types; only on ATTACHMENT options)', async () => {
    const w = await world();
    const ok = await w.client.post(
      w.global(),
      slash('upload', {
        options: [
          { type: 11, name: 'file', description: 'd', required: true, file_types: ['.png', 'image/jpeg', 'text/*'] },
        ],
      }),
      w.botAuth,
    );
    expect(ok.status).toBe(201);
    expect(ok.body.options[0].file_types).toEqual(['.png', 'image/jpeg', 'text/*']);
    expectInvalidField(
      await w.client.post(
        w.global(),
        slash('bad', { options: [{ type: 3, name: 's', description: 'd', file_types: ['.png'] }] }),
        w.botAuth,
      ),
      'options.0.file_types',
    );
    expectInvalidField(
      await w.client.post(
        w.global(),
        slash('bad', { options: [{ type: 11, name: 'f', description: 'd', file_types: ['png files'] }] }),
        w.botAuth,
      ),
      'options.0.file_types.0',
    );
  });
});

describe('integration_types and contexts (dm_permission deprecated in favor of contexts)', () => {
  it('integration_types default to the installation contexts the app supports; contexts default to every interaction context', async () => {
    const w = await world();
    const body = (await w.client.post(w.global(), slash('a', { integration_types: [1], contexts: [1, 2] }), w.botAuth))
      .body;
    expect(body).toMatchObject({ integration_types: [1], contexts: [1, 2], dm_permission: true });
    expectInvalidField(await w.client.post(w.global(), slash('b', { contexts: [3] }), w.botAuth), 'contexts.0');
    expectInvalidField(
      await w.client.post(w.global(), slash('b', { integration_types: [2] }), w.botAuth),
      'integration_types.0',
    );
  });

  it('dm_permission: false is still accepted and maps to contexts [GUILD]; given contexts win over it', async () => {
    const w = await world();
    expect((await w.client.post(w.global(), slash('a', { dm_permission: false }), w.botAuth)).body).toMatchObject({
      contexts: [0],
      dm_permission: false,
    });
    expect(
      (await w.client.post(w.global(), slash('b', { dm_permission: false, contexts: [0, 1] }), w.botAuth)).body,
    ).toMatchObject({ contexts: [0, 1], dm_permission: true });
    const { id } = (await w.client.post(w.global(), slash('c'), w.botAuth)).body;
    expect((await w.client.patch(`${w.global()}/${id}`, { dm_permission: false }, w.botAuth)).body.contexts).toEqual([
      0,
    ]);
  });
});

describe('entry point commands and handler (APP_HANDLER 1, PLATFORM_LAUNCH_ACTIVITY 2)', () => {
  it('an EMBEDDED app creates one global PRIMARY_ENTRY_POINT command with a handler (APP_HANDLER unless given)', async () => {
    const w = await world();
    const launch = await w.client.post(
      w.global(w.embedded.id),
      { name: 'launch', type: 4, handler: 2 },
      w.embedded.auth,
    );
    expect(launch.status).toBe(201);
    expect(launch.body).toMatchObject({ type: 4, handler: 2 });
    expect(
      (await w.client.post(w.global(w.embedded.id), { name: 'launch', type: 4 }, w.embedded.auth)).body.handler,
    ).toBe(1);
  });

  it('only one global entry point command per app: a second one (another name) is 400 30032; none in a guild', async () => {
    const w = await world();
    await w.client.post(w.global(w.embedded.id), { name: 'launch', type: 4, handler: 2 }, w.embedded.auth);
    expectError(await w.client.post(w.global(w.embedded.id), { name: 'start', type: 4 }, w.embedded.auth), 400, 30032);
    await w.client.put(
      `/sandbox/guilds/${w.guild.id}/members/${(await w.client.get(`/api/v10/users/@me`, w.embedded.auth)).body.id}`,
      {},
    );
    expectInvalidField(
      await w.client.post(w.guildPath(w.embedded.id), { name: 'launch', type: 4 }, w.embedded.auth),
      'type',
    );
  });

  it('handler is refused on other command types and without the EMBEDDED flag (PLATFORM_LAUNCH_ACTIVITY needs an Activity)', async () => {
    const w = await world();
    expectInvalidField(
      await w.client.post(w.global(w.embedded.id), slash('roll', { handler: 1 }), w.embedded.auth),
      'handler',
    );
    expectInvalidField(await w.client.post(w.global(), { name: 'launch', type: 4, handler: 2 }, w.botAuth), 'handler');
    expectInvalidField(await w.client.post(w.global(), { name: 'launch', type: 4 }, w.botAuth), 'type');
  });
});

describe('limits per scope', () => {
  it('context menu commands: 15 per type (was 5): the 16th USER command is 400 30032, MESSAGE commands count apart', async () => {
    const w = await world();
    for (let i = 0; i < 15; i++)
      expect((await w.client.post(w.global(), { name: `User ${i}`, type: 2 }, w.botAuth)).status).toBe(201);
    expectError(await w.client.post(w.global(), { name: 'User 15', type: 2 }, w.botAuth), 400, 30032);
    expect((await w.client.post(w.global(), { name: 'Message 0', type: 3 }, w.botAuth)).status).toBe(201);
    // Overwriting an existing one is not a new command.
    expect((await w.client.post(w.global(), { name: 'User 3', type: 2 }, w.botAuth)).status).toBe(200);
    // Guild commands count per guild.
    expect((await w.client.post(w.guildPath(), { name: 'User 15', type: 2 }, w.botAuth)).status).toBe(201);
  });
});

describe('guild commands and bulk overwrite', () => {
  it('guild commands carry guild_id and live apart from global ones; the bot must be in the guild (403 50001), the guild known (404 10004)', async () => {
    const w = await world();
    const g = await w.client.post(w.guildPath(), slash('roll'), w.botAuth);
    expect(g.status).toBe(201);
    expect(g.body.guild_id).toBe(w.guild.id);
    expect(g.body.dm_permission).toBeUndefined();
    expect((await w.client.post(w.global(), slash('roll'), w.botAuth)).status).toBe(201);
    expect((await w.client.get(w.guildPath(), w.botAuth)).body).toHaveLength(1);
    expectError(await w.client.get(`${w.global()}/${g.body.id}`, w.botAuth), 404, 10063);
    const other = (await w.client.post('/sandbox/guilds', { name: 'Other', owner_id: w.alice.id })).body.guild;
    expectError(
      await w.client.get(`/api/v10/applications/${w.application.id}/guilds/${other.id}/commands`, w.botAuth),
      403,
      50001,
    );
    expectError(
      await w.client.get(`/api/v10/applications/${w.application.id}/guilds/123/commands`, w.botAuth),
      404,
      10004,
    );
  });

  it('PUT overwrites the whole list: same type and name keep their id, the rest are deleted; a refused list changes nothing', async () => {
    const w = await world();
    const roll = (await w.client.post(w.global(), slash('roll'), w.botAuth)).body;
    await w.client.post(w.global(), slash('gone'), w.botAuth);
    const put = await w.client.put(
      w.global(),
      [slash('roll', { description: 'new' }), { name: 'High Five', type: 2 }],
      w.botAuth,
    );
    expect(put.status).toBe(200);
    expect(put.body.map((c: any) => c.name)).toEqual(['roll', 'High Five']);
    expect(put.body[0].id).toBe(roll.id);
    expect((await w.client.get(w.global(), w.botAuth)).body.map((c: any) => c.name).sort()).toEqual([
      'High Five',
      'roll',
    ]);
    expectInvalidField(await w.client.put(w.global(), [slash('a'), slash('a')], w.botAuth), '1.name');
    const sixteen = Array.from({ length: 16 }, (_, i) => ({ name: `U${i}`, type: 2 }));
    expectError(await w.client.put(w.global(), sixteen, w.botAuth), 400, 30032);
    expect((await w.client.get(w.global(), w.botAuth)).body).toHaveLength(2);
  });
});
