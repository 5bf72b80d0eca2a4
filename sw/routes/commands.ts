/**
 * Application commands, global and per guild, managed with the application's bot token:
 * `GET/POST/PUT /applications/{id}/commands`, `GET/PATCH/DELETE .../commands/{command.id}`, and
 * the same under `/applications/{id}/guilds/{guild.id}/commands`. POST answers 201 for a new
 * command and 200 when it overwrote the command of the same type and name; PUT overwrites the
 * whole list.
 */
import { Hono } from 'hono';
import {
  bulkOverwriteCommands,
  commandScope,
  createCommand,
  deleteCommand,
  editCommand,
  getCommand,
  listCommands,
} from '../../src/platform/interactions/commands';
import {
  CommandBulkSchema,
  CommandCreateSchema,
  CommandEditSchema,
} from '../../src/platform/interactions/command-schemas';
import { noContent, readJson, readQuery, validate, type AppContext, type AppEnv } from '../http';
import { CommandListQuerySchema, CommandPathSchema } from '../../src/platform/interactions/command-schemas';

/** The scope of the request's path, checked against the caller. */
async function scope(c: AppContext) {
  const { application_id, guild_id } = validate(CommandPathSchema, c.req.param());
  return commandScope(c.get('ctx'), c.get('principal'), application_id, guild_id ?? null);
}

const commandId = (c: AppContext) => validate(CommandPathSchema, c.req.param()).command_id!;

/** The command routes (mounted at `/applications`). */
export function commandRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  for (const base of ['/:application_id/commands', '/:application_id/guilds/:guild_id/commands']) {
    r.get(base, async (c) => {
      readQuery(c, CommandListQuerySchema);
      return c.json(await listCommands(c.get('ctx'), await scope(c)));
    });
    r.post(base, async (c) => {
      const s = await scope(c);
      const { command, created } = await createCommand(c.get('ctx'), s, await readJson(c, CommandCreateSchema));
      return c.json(command, created ? 201 : 200);
    });
    r.put(base, async (c) => {
      const s = await scope(c);
      return c.json(await bulkOverwriteCommands(c.get('ctx'), s, await readJson(c, CommandBulkSchema)));
    });
    r.get(`${base}/:command_id`, async (c) => c.json(await getCommand(c.get('ctx'), await scope(c), commandId(c))));
    r.patch(`${base}/:command_id`, async (c) => {
      const s = await scope(c);
      return c.json(await editCommand(c.get('ctx'), s, commandId(c), await readJson(c, CommandEditSchema)));
    });
    r.delete(`${base}/:command_id`, async (c) => {
      await deleteCommand(c.get('ctx'), await scope(c), commandId(c));
      return noContent();
    });
  }
  return r;
}
