/**
 * Application commands of one application: global (`/applications/{id}/commands`) or of one
 * guild (`/applications/{id}/guilds/{guild.id}/commands`), managed with the application's bot
 * token. Creating a command whose name the scope already has for that type overwrites it (200,
 * same id); a bulk overwrite replaces the scope's whole list in one transaction. Every change
 * bumps the command's `version`.
 */
import { write, type WriteTx } from '../../store/write';
import type { BotPrincipal, Principal } from '../oauth2/auth';
import { requireBot } from '../oauth2/auth';
import {
  COMMAND_TYPES,
  INTERACTION_CONTEXTS,
  type ApplicationCommand,
  type ApplicationCommandRecord,
} from '../../store/records/commands';
import { checkScopeLimits, normalizeCommand, type CommandFields } from './command-rules';
import type { CommandCreateInput, CommandEditInput } from './command-schemas';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { ApplicationRecord } from '../../store/records/core';

/** Where commands live: an application and a guild (null for global commands). */
export interface CommandScope {
  application: ApplicationRecord;
  guildId: string | null;
}

/**
 * The scope a bot may manage: its own application (else 403 50001) and, for guild commands, a
 * guild (404 10004) its bot is in (the sandbox's guild install; else 403 50001).
 */
export async function commandScope(
  ctx: PlatformContext,
  principal: Principal,
  applicationId: string,
  guildId: string | null,
): Promise<CommandScope> {
  requireBot(principal);
  const bot: BotPrincipal = principal;
  if (bot.application.id !== applicationId) throw ApiError.of('MISSING_ACCESS');
  if (guildId !== null) {
    if (!(await ctx.db.getKey('guilds', guildId))) throw ApiError.of('UNKNOWN_GUILD');
    if (!(await ctx.db.getKey('members', [guildId, bot.user.id]))) throw ApiError.of('MISSING_ACCESS');
  }
  return { application: bot.application, guildId };
}

const scopeKey = (scope: CommandScope) => scope.guildId ?? '';

/**
 * The command object. `dm_permission` (deprecated) is answered for global commands, true when
 * BOT_DM is among `contexts`.
 */
export function serializeCommand(record: ApplicationCommandRecord): ApplicationCommand {
  return {
    id: record.id,
    type: record.type,
    application_id: record.application_id,
    ...(record.guild_id !== null ? { guild_id: record.guild_id } : {}),
    name: record.name,
    name_localizations: record.name_localizations,
    description: record.description,
    description_localizations: record.description_localizations,
    ...(record.type === COMMAND_TYPES.CHAT_INPUT ? { options: record.options } : {}),
    default_member_permissions: record.default_member_permissions,
    ...(record.guild_id === null
      ? { dm_permission: (record.contexts ?? []).includes(INTERACTION_CONTEXTS.BOT_DM) }
      : {}),
    nsfw: record.nsfw,
    integration_types: record.integration_types,
    contexts: record.contexts,
    ...(record.handler !== undefined ? { handler: record.handler } : {}),
    version: record.version,
  };
}

/** Every command of the scope, in creation order. */
async function scopeCommands(tx: WriteTx, scope: CommandScope): Promise<ApplicationCommandRecord[]> {
  const all = await tx
    .store('application_commands')
    .index('by_scope')
    .getAll([scope.application.id, scopeKey(scope)]);
  return all.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
}

/** The scope's commands. */
export async function listCommands(ctx: PlatformContext, scope: CommandScope): Promise<ApplicationCommand[]> {
  const all = await ctx.db.getAllFromIndex('application_commands', 'by_scope', [scope.application.id, scopeKey(scope)]);
  return all.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1)).map(serializeCommand);
}

/** One command of the scope, or 404 10063. */
export async function getCommand(
  ctx: PlatformContext,
  scope: CommandScope,
  commandId: string,
): Promise<ApplicationCommand> {
  const record = await ctx.db.get('application_commands', commandId);
  if (!record || record.application_id !== scope.application.id || record.scope_key !== scopeKey(scope))
    throw ApiError.of('UNKNOWN_APPLICATION_COMMAND');
  return serializeCommand(record);
}

/** A record of `fields` in the scope, keeping `id` and `created_at` when it replaces one. */
function toRecord(
  ctx: PlatformContext,
  scope: CommandScope,
  fields: CommandFields,
  previous?: ApplicationCommandRecord,
): ApplicationCommandRecord {
  return {
    ...fields,
    id: previous?.id ?? ctx.ids.next(),
    application_id: scope.application.id,
    guild_id: scope.guildId,
    scope_key: scopeKey(scope),
    version: ctx.ids.next(),
    created_at: previous?.created_at ?? ctx.clock.now(),
  };
}

/**
 * Creates a command, or overwrites the scope's command of the same type and name (then
 * `created` is false: the route answers 200 instead of 201). Limits are counted with the new
 * command in (30032 when over).
 * @example const { command, created } = await createCommand(ctx, scope, { name: 'roll', description: 'Roll a die', type: 1 });
 */
export async function createCommand(
  ctx: PlatformContext,
  scope: CommandScope,
  input: CommandCreateInput,
): Promise<{ command: ApplicationCommand; created: boolean }> {
  const fields = normalizeCommand(input, scope.application, scope.guildId);
  return write(ctx, ['application_commands'], async (tx) => {
    const existing = await tx
      .store('application_commands')
      .index('by_name')
      .get([scope.application.id, scopeKey(scope), fields.type, fields.name]);
    const record = toRecord(ctx, scope, fields, existing);
    const others = (await scopeCommands(tx, scope)).filter((c) => c.id !== record.id);
    checkScopeLimits([...others, record]);
    await tx.store('application_commands').put(record);
    return { command: serializeCommand(record), created: !existing };
  });
}

/** Edits a command: what the body gives replaces what was there; a name the scope already has for the type is 400 50035. */
export async function editCommand(
  ctx: PlatformContext,
  scope: CommandScope,
  commandId: string,
  input: CommandEditInput,
): Promise<ApplicationCommand> {
  const current = await ctx.db.get('application_commands', commandId);
  if (!current || current.application_id !== scope.application.id || current.scope_key !== scopeKey(scope))
    throw ApiError.of('UNKNOWN_APPLICATION_COMMAND');
  const merged = {
    name: current.name,
    name_localizations: current.name_localizations,
    description: current.description,
    description_localizations: current.description_localizations,
    options: current.options,
    default_member_permissions: current.default_member_permissions,
    nsfw: current.nsfw,
    integration_types: current.integration_types,
    contexts: current.contexts,
    handler: current.handler,
    ...Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)),
    // A deprecated `dm_permission` alone rewrites the contexts; given `contexts` win.
    ...(input.dm_permission !== undefined && input.dm_permission !== null && input.contexts === undefined
      ? { contexts: undefined }
      : {}),
    type: current.type,
  } as CommandEditInput & { type: number };
  const fields = normalizeCommand(merged, scope.application, scope.guildId);
  return write(ctx, ['application_commands'], async (tx) => {
    const latest = await tx.store('application_commands').get(commandId);
    if (!latest) throw ApiError.of('UNKNOWN_APPLICATION_COMMAND');
    const clash = await tx
      .store('application_commands')
      .index('by_name')
      .get([scope.application.id, scopeKey(scope), fields.type, fields.name]);
    if (clash && clash.id !== commandId)
      throw ApiError.invalidForm({
        name: { code: 'APPLICATION_COMMAND_ALREADY_EXISTS', message: 'A command with this name already exists.' },
      });
    const record = toRecord(ctx, scope, fields, latest);
    await tx.store('application_commands').put(record);
    return serializeCommand(record);
  });
}

/** Deletes a command (404 10063 when the scope has no such command). */
export async function deleteCommand(ctx: PlatformContext, scope: CommandScope, commandId: string): Promise<void> {
  await write(ctx, ['application_commands'], async (tx) => {
    const current = await tx.store('application_commands').get(commandId);
    if (!current || current.application_id !== scope.application.id || current.scope_key !== scopeKey(scope))
      throw ApiError.of('UNKNOWN_APPLICATION_COMMAND');
    await tx.store('application_commands').delete(commandId);
  });
}

/**
 * Replaces the scope's commands with `inputs`: a command keeps its id when an entry names it
 * (`id`) or has its type and name; the others are deleted. Checked whole before anything is
 * written (names unique per type, limits), so a refused overwrite leaves the list as it was.
 */
export async function bulkOverwriteCommands(
  ctx: PlatformContext,
  scope: CommandScope,
  inputs: readonly CommandCreateInput[],
): Promise<ApplicationCommand[]> {
  const fields = inputs.map((input, i) => normalizeCommand(input, scope.application, scope.guildId, `${i}.`));
  const seen = new Map<string, number>();
  fields.forEach((f, i) => {
    const key = `${f.type} ${f.name}`;
    if (seen.has(key))
      throw ApiError.invalidForm({
        [`${i}.name`]: {
          code: 'APPLICATION_COMMAND_ALREADY_EXISTS',
          message: 'Two commands of one type cannot share a name.',
        },
      });
    seen.set(key, i);
  });
  checkScopeLimits(fields);
  return write(ctx, ['application_commands'], async (tx) => {
    const current = await scopeCommands(tx, scope);
    const records = fields.map((f, i) => {
      const byId = inputs[i].id === undefined ? undefined : current.find((c) => c.id === inputs[i].id);
      const previous = byId ?? current.find((c) => c.type === f.type && c.name === f.name);
      return toRecord(ctx, scope, f, previous);
    });
    const kept = new Set(records.map((r) => r.id));
    // Deletions first, so that a renamed command frees its name for another entry.
    await Promise.all(current.filter((c) => !kept.has(c.id)).map((c) => tx.store('application_commands').delete(c.id)));
    for (const record of records) await tx.store('application_commands').delete(record.id);
    for (const record of records) await tx.store('application_commands').put(record);
    return records.map(serializeCommand);
  });
}
