/**
 * The `data` of APPLICATION_COMMAND (and autocomplete) and MESSAGE_COMPONENT interactions, built
 * from what a simulated user did: which command (by id, or by name and type: a guild command of
 * the guild first, then a global one), whether it is available here (its `contexts`, and an
 * installation its `integration_types` allow), whether the user may use it
 * (USE_APPLICATION_COMMANDS and `default_member_permissions` in a guild), its options or target;
 * or which component of which message of the app, and the values picked.
 */
import * as v from 'valibot';
import { snowflakeSchema } from '../core/schema-parts';
import { jsonObject } from '../core/json-object';
import { COMMAND_TYPES, INTERACTION_CONTEXTS, type ApplicationCommandRecord } from '../../store/records/commands';
import { COMPONENT_TYPES } from './components';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { guildPermissions } from '../guilds/access';
import { InputOptionSchema, checkCommandOptions } from './options';
import type { PreparedFile } from './files';
import { authorizingOwners, type InteractionPlace } from './place';
import {
  compactResolved,
  emptyResolved,
  resolveChannel,
  resolveMentionable,
  resolveRole,
  resolveUser,
  type Resolved,
} from './resolved';
import { messageOrderKey } from '../messages/keys';
import { MESSAGE_TYPES, type ChannelMessageRecord } from '../../store/records/messages';
import { loadUsers, serializeChannelMessage, userIdsOf, type ChannelMessage } from '../messages/wire';
import { PERMISSIONS, hasPermission, parsePermissions } from '../core/permissions';

const snowflake = snowflakeSchema;
/** What the sandbox takes to invoke a command. */
export const CommandDataSchema = jsonObject({
  id: v.optional(snowflake),
  name: v.optional(v.pipe(v.string(), v.minLength(1))),
  type: v.optional(v.picklist([1, 2, 3, 4])),
  options: v.optional(v.array(InputOptionSchema)),
  target_id: v.optional(snowflake),
});
/** What the sandbox takes to use a component: the message it is on, its custom_id, the values picked. */
export const ComponentDataSchema = jsonObject({
  message_id: snowflake,
  custom_id: v.pipe(v.string(), v.minLength(1)),
  values: v.optional(v.array(v.string())),
});

/** The built `data` and what goes with it. */
export interface BuiltData {
  data: Record<string, unknown>;
  owners: Record<string, string>;
  files: PreparedFile[];
  messageType: number;
  command: ApplicationCommandRecord | null;
  message: ChannelMessage | null;
}

/** The command a user invokes, or 404 10063. */
async function findCommand(
  ctx: PlatformContext,
  place: InteractionPlace,
  input: v.InferOutput<typeof CommandDataSchema>,
): Promise<ApplicationCommandRecord> {
  const appId = place.application.id;
  const guildId = place.guild?.guild.id;
  if (input.id) {
    const byId = await ctx.db.get('application_commands', input.id);
    if (byId && byId.application_id === appId && (byId.guild_id === null || byId.guild_id === guildId)) return byId;
  } else if (input.name) {
    const type = input.type ?? COMMAND_TYPES.CHAT_INPUT;
    const inGuild = guildId
      ? await ctx.db.getFromIndex('application_commands', 'by_name', [appId, guildId, type, input.name])
      : undefined;
    const found =
      inGuild ?? (await ctx.db.getFromIndex('application_commands', 'by_name', [appId, '', type, input.name]));
    if (found) return found;
  }
  throw ApiError.of('UNKNOWN_APPLICATION_COMMAND');
}

/** Throws unless the user may use the command here (403 50013 for permissions). */
function requireCommandUse(place: InteractionPlace, command: ApplicationCommandRecord): void {
  if (!place.guild) return;
  if (!hasPermission(place.userPermissions, PERMISSIONS.USE_APPLICATION_COMMANDS))
    throw ApiError.of('MISSING_PERMISSIONS');
  const required =
    command.default_member_permissions === null ? null : (parsePermissions(command.default_member_permissions) ?? 0n);
  if (required === null) return;
  const base = guildPermissions(place.guild);
  // "0" leaves the command to administrators (and the owner, who has every bit).
  const allowed = required === 0n ? hasPermission(base, PERMISSIONS.ADMINISTRATOR) : hasPermission(base, required);
  if (!allowed) throw ApiError.of('MISSING_PERMISSIONS');
}

/**
 * The data of an APPLICATION_COMMAND (or APPLICATION_COMMAND_AUTOCOMPLETE) interaction.
 * @example const built = await commandData(ctx, place, body.data, { autocomplete: false, interactionId });
 */
export async function commandData(
  ctx: PlatformContext,
  place: InteractionPlace,
  raw: unknown,
  options: { autocomplete: boolean; interactionId: string },
): Promise<BuiltData> {
  const parsed = v.safeParse(CommandDataSchema, raw ?? {});
  if (!parsed.success)
    throw ApiError.invalidForm({
      [`data.${v.getDotPath(parsed.issues[0]) ?? ''}`.replace(/\.$/, '')]: parsed.issues[0].message,
    });
  const input = parsed.output;
  const command = await findCommand(ctx, place, input);
  const unavailable = () =>
    ApiError.invalidForm({
      data: { code: 'APPLICATION_COMMAND_UNAVAILABLE', message: 'This command is not available in this context.' },
    });
  let owners: Record<string, string>;
  if (command.guild_id !== null) {
    if (place.context !== INTERACTION_CONTEXTS.GUILD) throw unavailable();
    owners = await authorizingOwners(ctx, place, [0]);
  } else {
    if (!(command.contexts ?? [0, 1, 2]).includes(place.context)) throw unavailable();
    owners = await authorizingOwners(ctx, place, command.integration_types);
  }
  if (Object.keys(owners).length === 0) throw unavailable();
  requireCommandUse(place, command);
  if (options.autocomplete && command.type !== COMMAND_TYPES.CHAT_INPUT)
    throw ApiError.invalidForm({ type: 'Only CHAT_INPUT commands autocomplete.' });
  const resolved = emptyResolved();
  const data: Record<string, unknown> = {
    id: command.id,
    name: command.name,
    type: command.type,
    ...(command.guild_id ? { guild_id: command.guild_id } : {}),
  };
  let files: PreparedFile[] = [];
  let message: ChannelMessage | null = null;
  if (command.type === COMMAND_TYPES.CHAT_INPUT) {
    const checked = await checkCommandOptions(ctx, place, command.options, input.options ?? [], resolved, options);
    files = checked.files;
    if (checked.options.length > 0) data.options = checked.options;
  } else if (command.type === COMMAND_TYPES.USER || command.type === COMMAND_TYPES.MESSAGE) {
    if (!input.target_id) throw ApiError.invalidForm({ 'data.target_id': 'A context menu command needs a target.' });
    data.target_id = input.target_id;
    if (command.type === COMMAND_TYPES.USER) await resolveUser(ctx, place, resolved, input.target_id, 'data.target_id');
    else {
      message = await loadMessage(ctx, place, input.target_id);
      resolved.messages[message.id] = message;
    }
  }
  const compact = compactResolved(resolved);
  if (compact) data.resolved = compact;
  const messageType =
    command.type === COMMAND_TYPES.CHAT_INPUT
      ? MESSAGE_TYPES.CHAT_INPUT_COMMAND
      : command.type === COMMAND_TYPES.PRIMARY_ENTRY_POINT
        ? MESSAGE_TYPES.DEFAULT
        : MESSAGE_TYPES.CONTEXT_MENU_COMMAND;
  return { data, owners, files, messageType, command, message: null };
}

/** A message of the interaction's channel (guild channel or DM), serialized, or 400 50035. */
async function loadRecord(
  ctx: PlatformContext,
  place: InteractionPlace,
  messageId: string,
): Promise<ChannelMessageRecord> {
  const record = place.guild
    ? await ctx.db.get('channel_messages', [place.channelId, messageOrderKey(messageId)])
    : await ctx.db.get('interaction_messages', messageId);
  if (!record || record.channel_id !== place.channelId)
    throw ApiError.invalidForm({ 'data.message_id': 'Unknown message of this channel.' });
  return record;
}

async function loadMessage(ctx: PlatformContext, place: InteractionPlace, messageId: string): Promise<ChannelMessage> {
  const record = await loadRecord(ctx, place, messageId);
  const tx = ctx.db.read(['users']);
  return serializeChannelMessage(record, await loadUsers(tx as never, userIdsOf([record])));
}

/** The component with `customId` in a message's components, if any. */
function findComponent(
  components: readonly Record<string, unknown>[],
  customId: string,
): Record<string, unknown> | undefined {
  for (const node of components) {
    if (node.custom_id === customId) return node;
    const nested = [
      ...((node.components as Record<string, unknown>[] | undefined) ?? []),
      ...(node.accessory ? [node.accessory as Record<string, unknown>] : []),
    ];
    const found = findComponent(nested, customId);
    if (found) return found;
  }
  return undefined;
}

/**
 * The data of a MESSAGE_COMPONENT interaction: a button or a select of a message the app's bot
 * sent. A select's values must be between its `min_values` and `max_values` (1 unless given),
 * from its options (string select) or known entities (the others, resolved).
 */
export async function componentData(ctx: PlatformContext, place: InteractionPlace, raw: unknown): Promise<BuiltData> {
  const parsed = v.safeParse(ComponentDataSchema, raw ?? {});
  if (!parsed.success)
    throw ApiError.invalidForm({
      [`data.${v.getDotPath(parsed.issues[0]) ?? ''}`.replace(/\.$/, '')]: parsed.issues[0].message,
    });
  const input = parsed.output;
  const record = await loadRecord(ctx, place, input.message_id);
  if (record.author_id !== place.bot.id)
    throw ApiError.invalidForm({ 'data.message_id': 'The message is not one of this application.' });
  const node = findComponent(record.components, input.custom_id);
  if (!node || node.disabled === true)
    throw ApiError.invalidForm({
      'data.custom_id': node ? 'This component is disabled.' : 'The message has no component with this custom_id.',
    });
  const data: Record<string, unknown> = { custom_id: input.custom_id, component_type: node.type };
  const resolved: Resolved = emptyResolved();
  if (node.type !== COMPONENT_TYPES.BUTTON) {
    const values = input.values ?? [];
    const min = typeof node.min_values === 'number' ? node.min_values : 1;
    const max = typeof node.max_values === 'number' ? node.max_values : 1;
    if (values.length < min || values.length > max)
      throw ApiError.invalidForm({ 'data.values': `Pick between ${min} and ${max} values.` });
    for (const [i, value] of values.entries()) {
      const at = `data.values.${i}`;
      if (
        node.type === COMPONENT_TYPES.STRING_SELECT &&
        !(node.options as { value: string }[]).some((o) => o.value === value)
      )
        throw ApiError.invalidForm({ [at]: 'Not an option of this select.' });
      if (node.type === COMPONENT_TYPES.USER_SELECT) await resolveUser(ctx, place, resolved, value, at);
      if (node.type === COMPONENT_TYPES.ROLE_SELECT) resolveRole(place, resolved, value, at);
      if (node.type === COMPONENT_TYPES.MENTIONABLE_SELECT) await resolveMentionable(ctx, place, resolved, value, at);
      if (node.type === COMPONENT_TYPES.CHANNEL_SELECT)
        await resolveChannel(ctx, place, resolved, value, at, node.channel_types as number[] | undefined);
    }
    data.values = values;
    const compact = compactResolved(resolved);
    if (compact) data.resolved = compact;
  } else if (node.style === 5 || node.style === 6) {
    throw ApiError.invalidForm({ 'data.custom_id': 'Link and premium buttons do not send interactions.' });
  }
  const owners = record.interaction_metadata?.authorizing_integration_owners ?? (await authorizingOwners(ctx, place));
  if (Object.keys(owners).length === 0)
    throw ApiError.invalidForm({
      data: { code: 'APPLICATION_NOT_INSTALLED', message: 'The application is not installed where this component is.' },
    });
  const tx = ctx.db.read(['users']);
  const message = serializeChannelMessage(record, await loadUsers(tx as never, userIdsOf([record])));
  return { data, owners, files: [], messageType: MESSAGE_TYPES.DEFAULT, command: null, message };
}
