/**
 * Sharing from an activity through the platform's client: the places the client offers (the
 * text channels of the activity's guild where the user may post, and for media their friends),
 * a moment (OPEN_SHARE_MOMENT_DIALOG: an image of the platform's CDN posted as the user, "via"
 * the application) and an interaction (SHARE_INTERACTION: the application's command run by the
 * user in the chosen channel, whose answer is the message). Every share goes through the
 * platform's own rules: permissions, AutoMod, the upload limit, who may be messaged.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import { snowflakeSchema } from '../core/schema-parts';
import type { BearerPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { PERMISSIONS, hasPermission } from '../core/permissions';
import { channelPermissions, dbReader, loadGuildView } from '../guilds/access';
import { readAttachmentFile } from '../messages/attachment-files';
import { ATTACHMENTS_PATH } from '../messages/attachments';
import { createMessage } from '../messages/create';
import { sendUserMessage } from '../messages/direct-messages';
import { TEXT_CHANNEL_TYPES } from '../messages/access';
import { MessageCreateSchema } from '../messages/schemas';
import { COMMAND_TYPES, OPTION_TYPES } from '../../store/records/commands';
import { createInteraction } from '../interactions/create';
import type { FetchLike } from '../oauth2/oidc';
import { PLATFORM_SCOPE, RELATIONSHIP_TYPE } from '../../store/records/relationships';
import { scopeRange } from '../relationships/store';
import { EPHEMERAL_ATTACHMENTS_PATH, readImageUpload } from './image-uploads';
import { rpcUserView, type RpcUserView } from './rpc-social';

/** What is shared: a moment (media) or an interaction (a command). */
export type SharePurpose = 'moment' | 'interaction';

/** The places the client offers to share to. */
export interface ShareTargets {
  channels: { id: string; name: string; type: number; guild_id: string }[];
  friends: RpcUserView[];
}

/** What a channel must let the user do to be offered. */
const REQUIRED: Record<SharePurpose, bigint> = {
  moment: PERMISSIONS.VIEW_CHANNEL | PERMISSIONS.SEND_MESSAGES | PERMISSIONS.ATTACH_FILES,
  interaction: PERMISSIONS.VIEW_CHANNEL | PERMISSIONS.USE_APPLICATION_COMMANDS,
};

/**
 * Where the user may share from an activity running in `channelId`: the text channels of its
 * guild that allow it (the activity's own channel first), and for a moment the user's friends.
 * @example const { channels, friends } = await shareTargets(ctx, principal, frameChannelId, 'moment');
 */
export async function shareTargets(
  ctx: PlatformContext,
  principal: BearerPrincipal,
  channelId: string,
  purpose: SharePurpose,
): Promise<ShareTargets> {
  const userId = principal.user.id;
  const frame = await ctx.db.get('channels', channelId);
  const channels: ShareTargets['channels'] = [];
  if (frame?.guild_id) {
    const view = await loadGuildView(dbReader(ctx.db), frame.guild_id, userId);
    const all = await ctx.db.getAllFromIndex('channels', 'by_guild', frame.guild_id);
    all.sort((a, b) => Number(b.id === channelId) - Number(a.id === channelId) || a.position - b.position);
    for (const channel of all)
      if (
        TEXT_CHANNEL_TYPES.includes(channel.type) &&
        hasPermission(channelPermissions(view, channel), REQUIRED[purpose])
      )
        channels.push({ id: channel.id, name: channel.name ?? '', type: channel.type, guild_id: frame.guild_id });
  }
  const friends: RpcUserView[] = [];
  if (purpose === 'moment') {
    const records = await ctx.db.getAll('relationships', scopeRange(userId, PLATFORM_SCOPE));
    for (const record of records) {
      if (record.type !== RELATIONSHIP_TYPE.FRIEND) continue;
      const friend = await ctx.db.get('users', record.other_id);
      if (friend) friends.push(rpcUserView(friend, principal));
    }
  }
  return { channels, friends };
}

/** The file a platform CDN URL names (an attachment or an uploaded image), or null for any other URL. */
async function mediaFile(ctx: PlatformContext, mediaUrl: string, origin: string) {
  let url: URL;
  try {
    url = new URL(mediaUrl);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  const path = url.pathname.replace(/^\/\.proxy(?=\/)/, '');
  const parts = path.split('/').map((p) => decodeURIComponent(p));
  try {
    if (path.startsWith(`${EPHEMERAL_ATTACHMENTS_PATH}/`) && parts.length === 6)
      return await readImageUpload(ctx, parts[3], parts[4], parts[5]);
    if (path.startsWith(`${ATTACHMENTS_PATH}/`) && parts.length === 5)
      return await readAttachmentFile(ctx, parts[2], parts[3], parts[4]);
  } catch {
    // A path of the CDN that names no file: no media.
  }
  return null;
}

/** True when `mediaUrl` names a file of the platform's CDN on `origin` (OPEN_SHARE_MOMENT_DIALOG takes only those). */
export async function isPlatformMedia(ctx: PlatformContext, mediaUrl: string, origin: string): Promise<boolean> {
  return (await mediaFile(ctx, mediaUrl, origin)) !== null;
}

/** `POST /rpc/shared-moments`: the media and where it goes (a channel or a friend). */
export const SharedMomentSchema = v.pipe(
  jsonObject({
    media_url: v.pipe(v.string('Must be a URL.'), v.maxLength(2048)),
    channel_id: v.optional(snowflakeSchema),
    user_id: v.optional(snowflakeSchema),
  }),
  v.check((b) => (b.channel_id === undefined) !== (b.user_id === undefined), 'Name either channel_id or user_id.'),
);

/**
 * Shares a moment: the media posted in the channel as the user with the file attached, or sent
 * to the friend as a direct message with its link. Media that is not the platform's is 400 /
 * 50035 naming `media_url`.
 */
export async function shareMoment(
  ctx: PlatformContext,
  principal: BearerPrincipal,
  input: v.InferOutput<typeof SharedMomentSchema>,
  origin: string,
) {
  const file = await mediaFile(ctx, input.media_url, origin);
  if (!file) throw ApiError.invalidForm({ media_url: "Must be a URL of the platform's CDN." });
  if (input.user_id !== undefined)
    return { message: await sendUserMessage(ctx, principal, input.user_id, { content: input.media_url }) };
  return {
    message: await createMessage(ctx, {
      channelId: input.channel_id!,
      author: { user: principal.user, application: principal.application },
      input: v.parse(MessageCreateSchema, { attachments: [{ id: 0, filename: file.filename }] }),
      files: [{ index: '0', filename: file.filename, contentType: file.content_type, data: file.data }],
      applicationId: principal.application.id,
      origin,
    }),
  };
}

/** `POST /rpc/shared-interactions`: the command, its options as the SDK gives them, and the channel. */
export const SharedInteractionSchema = jsonObject({
  channel_id: snowflakeSchema,
  command: v.pipe(v.string('Must be a command name.'), v.minLength(1, 'Required.'), v.maxLength(32)),
  options: v.optional(v.array(jsonObject({ name: v.string(), value: v.string() }))),
});

/** The application's chat command `name` available in `guildId` (its own, else a global one), or 400 / 50035. */
export async function shareableCommand(ctx: PlatformContext, applicationId: string, guildId: string, name: string) {
  const type = COMMAND_TYPES.CHAT_INPUT;
  const command =
    (await ctx.db.getFromIndex('application_commands', 'by_name', [applicationId, guildId, type, name])) ??
    (await ctx.db.getFromIndex('application_commands', 'by_name', [applicationId, '', type, name]));
  if (!command) throw ApiError.invalidForm({ command: 'Must name a chat command of this application.' });
  return command;
}

/** An option's value as its type takes it: the SDK gives every value as a string. */
function optionValue(type: number | undefined, value: string): unknown {
  if (type === OPTION_TYPES.INTEGER || type === OPTION_TYPES.NUMBER) return Number(value);
  if (type === OPTION_TYPES.BOOLEAN) return value === 'true';
  return value;
}

/**
 * Shares an interaction: the user runs the application's command in the channel, as if typed
 * there; the application answers it as any interaction (its interactions endpoint or its bot's
 * gateway sessions), and that answer is the message shared.
 */
export async function shareInteraction(
  ctx: PlatformContext,
  principal: BearerPrincipal,
  input: v.InferOutput<typeof SharedInteractionSchema>,
  send: FetchLike,
  origin: string,
) {
  const channel = await ctx.db.get('channels', input.channel_id);
  if (!channel?.guild_id) throw ApiError.of('UNKNOWN_CHANNEL');
  const command = await shareableCommand(ctx, principal.application.id, channel.guild_id, input.command);
  const types = new Map((command.options ?? []).map((o) => [o.name, o.type]));
  const options = (input.options ?? []).map((o) => ({ name: o.name, value: optionValue(types.get(o.name), o.value) }));
  const created = await createInteraction(
    ctx,
    {
      application_id: principal.application.id,
      user_id: principal.user.id,
      type: 2,
      guild_id: channel.guild_id,
      channel_id: channel.id,
      locale: 'en-US',
      data: { name: command.name, ...(options.length > 0 ? { options } : {}) },
    },
    send,
    origin,
  );
  return { interaction_id: String(created.interaction.id), delivery: created.delivery };
}
