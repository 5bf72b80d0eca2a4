/**
 * Group DMs (channel type 3) as the platform's public API has them for an application's bot:
 * Create Group DM (`POST /users/@me/channels` with `access_tokens`, the users' OAuth2 tokens for
 * the bot's application granted `gdm.join`, and `nicks`), Group DM Add Recipient and Remove
 * Recipient (`PUT` / `DELETE /channels/{channel.id}/recipients/{user.id}`), and the channel's
 * `GET`, `PATCH` (name, icon) and `DELETE`. The creating bot owns the group DM
 * (`owner_id`, `application_id`) and is one of its members; a group DM holds at most 10 members
 * (30004), and an application has at most 10 active group DMs (30011). Only the owner adds,
 * removes, renames or deletes; another member's bot sees the channel as unknown (10003).
 *
 * Events reach the members' sessions (a bot's whatever its intents: channel events of private
 * channels belong to no intent): CHANNEL_CREATE to each member as it sees the channel,
 * CHANNEL_RECIPIENT_ADD / CHANNEL_RECIPIENT_REMOVE to the others, CHANNEL_DELETE to a removed
 * member, CHANNEL_UPDATE and CHANNEL_DELETE to all.
 */
import { write, type Emit, type WriteTx } from '../../store/write';
import type { GroupDmChannelRecord } from '../../store/records/group-dms';
import type { UserRecord } from '../../store/records/core';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { GROUP_DM_RECIPIENTS_MAX, GROUP_DMS_ACTIVE_MAX } from '../core/limits';
import { parseImageData, type ImageData } from '../core/image-data';
import { keyRange } from '../../store/port';
import { authenticate, type BotPrincipal, type Principal } from '../oauth2/auth';
import { serializeUser } from '../accounts/users';
import { loadMembers, memberChannel, serializeGroupDm } from './wire';
import type { ModifyGroupDmInput } from './schemas';

const STORES = ['users', 'group_dm_channels'] as const;
const DELETE_STORES = [...STORES, 'group_dm_messages'] as const;

/**
 * The user of `accessToken` when it is a token of `applicationId`'s users granted `gdm.join`
 * (and of `userId` when named); 403 50025 otherwise, naming nothing of the token.
 */
async function joiningUser(
  ctx: PlatformContext,
  applicationId: string,
  accessToken: string,
  userId?: string,
): Promise<UserRecord> {
  const holder = await authenticate(ctx, `Bearer ${accessToken}`).catch(() => null);
  if (
    !holder ||
    holder.kind !== 'bearer' ||
    holder.application.id !== applicationId ||
    (userId !== undefined && holder.user.id !== userId) ||
    !holder.scopes.has('gdm.join')
  )
    throw ApiError.of('MISSING_SCOPE');
  return holder.user;
}

/** CHANNEL_CREATE to each of `memberIds`, with the channel as that member sees it. */
function emitCreateTo(emit: Emit, channel: GroupDmChannelRecord, users: Map<string, UserRecord>, memberIds: string[]) {
  for (const id of memberIds)
    emit({ type: 'CHANNEL_CREATE', data: serializeGroupDm(channel, users, id), audience: { user_ids: [id] } });
}

/** The owner's group DM `channelId`: 10003 for a non-member, 50013 for a member who is not the owner. */
async function ownedChannel(tx: WriteTx, channelId: string, principal: Principal): Promise<GroupDmChannelRecord> {
  const channel = await memberChannel(tx, channelId, principal.user.id);
  if (channel.owner_id !== principal.user.id) throw ApiError.of('MISSING_PERMISSIONS');
  return channel;
}

/**
 * Stores a new group DM of `owner` (the application's bot) with `users`; resolves to it as the
 * owner sees it. 30011 when the application has its 10 active group DMs already.
 */
async function openGroupDm(
  ctx: PlatformContext,
  applicationId: string,
  owner: UserRecord,
  users: UserRecord[],
  nicks: Record<string, string>,
  name: string | null,
) {
  const members = [owner, ...users.filter((u, i) => u.id !== owner.id && users.findIndex((x) => x.id === u.id) === i)];
  if (members.length > GROUP_DM_RECIPIENTS_MAX) throw ApiError.of('RECIPIENTS_MAX');
  return write(ctx, [...STORES], async (tx, emit) => {
    const active = await tx.store('group_dm_channels').index('by_application').count(applicationId);
    if (active >= GROUP_DMS_ACTIVE_MAX) throw ApiError.of('GROUP_DMS_MAX');
    const memberIds = members.map((u) => u.id);
    const channel: GroupDmChannelRecord = {
      id: ctx.ids.next(),
      application_id: applicationId,
      owner_id: owner.id,
      name,
      icon: null,
      icon_data: null,
      member_ids: memberIds,
      nicks: Object.fromEntries(Object.entries(nicks).filter(([id]) => memberIds.includes(id))),
      last_message_id: null,
      created_at: ctx.clock.now(),
    };
    await tx.store('group_dm_channels').add(channel);
    const byId = new Map(members.map((u) => [u.id, u] as const));
    emitCreateTo(emit, channel, byId, memberIds);
    return serializeGroupDm(channel, byId, owner.id);
  });
}

/**
 * Create Group DM: the bot's group DM with the users of `accessTokens` (each a token of the bot's
 * application granted `gdm.join`, 403 50025 otherwise), nicknamed by `nicks`.
 * @example const channel = await createGroupDm(ctx, bot, { access_tokens: [aliceToken, bobToken] });
 */
export async function createGroupDm(
  ctx: PlatformContext,
  principal: BotPrincipal,
  input: { access_tokens: string[]; nicks?: Record<string, string | null> | null },
) {
  // Counted before any token is read: the bot makes one member more.
  if (input.access_tokens.length + 1 > GROUP_DM_RECIPIENTS_MAX) throw ApiError.of('RECIPIENTS_MAX');
  // Tokens are hashed before the write opens: awaiting anything but its requests would end it.
  const users = await Promise.all(input.access_tokens.map((t) => joiningUser(ctx, principal.application.id, t)));
  const nicks = Object.fromEntries(
    Object.entries(input.nicks ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  return openGroupDm(ctx, principal.application.id, principal.user, users, nicks, null);
}

/**
 * The sandbox's group DM: made by `applicationId`'s bot with `userIds`, their consent taken as
 * given (`POST /sandbox/group-dms`). Unknown users and applications are 404.
 */
export async function createSandboxGroupDm(
  ctx: PlatformContext,
  input: { application_id: string; user_ids: string[]; name?: string | null },
) {
  const application = await ctx.db.get('applications', input.application_id);
  if (!application) throw ApiError.of('UNKNOWN_APPLICATION');
  const [bot, ...users] = await Promise.all(
    [application.bot_user_id, ...input.user_ids].map((id) => ctx.db.get('users', id)),
  );
  if (!bot || users.some((u) => !u)) throw ApiError.of('UNKNOWN_USER');
  return openGroupDm(ctx, application.id, bot, users as UserRecord[], {}, input.name ?? null);
}

/**
 * Group DM Add Recipient: the owner adds the user of `accessToken` (granted `gdm.join` to the
 * owner's application). Resolves to true when added, false when the user was a member already
 * (nothing changes). A full group DM is 30004.
 */
export async function addRecipient(
  ctx: PlatformContext,
  principal: BotPrincipal,
  channelId: string,
  userId: string,
  input: { access_token: string; nick?: string | null },
): Promise<boolean> {
  const user = await joiningUser(ctx, principal.application.id, input.access_token, userId);
  return write(ctx, [...STORES], async (tx, emit) => {
    const channel = await ownedChannel(tx, channelId, principal);
    if (channel.member_ids.includes(user.id)) return false;
    if (channel.member_ids.length >= GROUP_DM_RECIPIENTS_MAX) throw ApiError.of('RECIPIENTS_MAX');
    const next: GroupDmChannelRecord = {
      ...channel,
      member_ids: [...channel.member_ids, user.id],
      nicks: input.nick ? { ...channel.nicks, [user.id]: input.nick } : channel.nicks,
    };
    await tx.store('group_dm_channels').put(next);
    const users = await loadMembers(tx, next);
    emit({
      type: 'CHANNEL_RECIPIENT_ADD',
      data: { channel_id: channel.id, user: serializeUser(user), ...(input.nick ? { nick: input.nick } : {}) },
      audience: { user_ids: channel.member_ids },
    });
    emitCreateTo(emit, next, users, [user.id]);
    return true;
  });
}

/**
 * Group DM Remove Recipient: the owner removes `userId` (the owner itself leaves by deleting the
 * channel: 50033 here). Removing a user who is not a member changes nothing.
 */
export async function removeRecipient(
  ctx: PlatformContext,
  principal: BotPrincipal,
  channelId: string,
  userId: string,
): Promise<void> {
  await write(ctx, [...STORES], async (tx, emit) => {
    const channel = await ownedChannel(tx, channelId, principal);
    if (userId === channel.owner_id) throw ApiError.of('INVALID_RECIPIENT');
    if (!channel.member_ids.includes(userId)) return;
    const { [userId]: _dropped, ...nicks } = channel.nicks;
    const next: GroupDmChannelRecord = {
      ...channel,
      member_ids: channel.member_ids.filter((id) => id !== userId),
      nicks,
    };
    await tx.store('group_dm_channels').put(next);
    const users = await loadMembers(tx, channel);
    const removed = users.get(userId);
    if (removed)
      emit({
        type: 'CHANNEL_RECIPIENT_REMOVE',
        data: { channel_id: channel.id, user: serializeUser(removed) },
        audience: { user_ids: next.member_ids },
      });
    emit({ type: 'CHANNEL_DELETE', data: serializeGroupDm(channel, users, userId), audience: { user_ids: [userId] } });
  });
}

/** `GET /channels/{channel.id}` of a group DM: members only (10003 for anyone else). */
export async function getGroupDm(ctx: PlatformContext, principal: Principal, channelId: string) {
  const tx = ctx.db.read([...STORES]);
  const channel = await memberChannel(tx, channelId, principal.user.id);
  return serializeGroupDm(channel, await loadMembers(tx, channel), principal.user.id);
}

/**
 * `PATCH /channels/{channel.id}` of a group DM by its owner: `name` (null clears it) and `icon`
 * (a data URI; null clears it). CHANNEL_UPDATE reaches every member.
 */
export async function modifyGroupDm(
  ctx: PlatformContext,
  principal: BotPrincipal,
  channelId: string,
  input: ModifyGroupDmInput,
) {
  // Decoding and hashing are async: done before the write opens its transaction.
  const icon: ImageData | null | undefined =
    input.icon === undefined || input.icon === null ? input.icon : await parseImageData(input.icon, 'icon');
  return write(ctx, [...STORES], async (tx, emit) => {
    const channel = await ownedChannel(tx, channelId, principal);
    const next: GroupDmChannelRecord = { ...channel };
    if (input.name !== undefined) next.name = input.name;
    if (icon !== undefined) Object.assign(next, { icon: icon?.hash ?? null, icon_data: icon?.dataUri ?? null });
    await tx.store('group_dm_channels').put(next);
    const users = await loadMembers(tx, next);
    for (const id of next.member_ids)
      emit({ type: 'CHANNEL_UPDATE', data: serializeGroupDm(next, users, id), audience: { user_ids: [id] } });
    return serializeGroupDm(next, users, principal.user.id);
  });
}

/**
 * `DELETE /channels/{channel.id}` of a group DM by its owner: the group DM ends for everyone
 * (CHANNEL_DELETE to each member), its messages with it, and no longer counts among the
 * application's active group DMs. Resolves to the channel as it was.
 */
export async function deleteGroupDm(ctx: PlatformContext, principal: BotPrincipal, channelId: string) {
  return write(ctx, [...DELETE_STORES], async (tx, emit) => {
    const channel = await ownedChannel(tx, channelId, principal);
    await tx.store('group_dm_messages').delete(keyRange.bound([channel.id, ''], [channel.id, '\uffff']));
    await tx.store('group_dm_channels').delete(channel.id);
    const users = await loadMembers(tx, channel);
    for (const id of channel.member_ids)
      emit({ type: 'CHANNEL_DELETE', data: serializeGroupDm(channel, users, id), audience: { user_ids: [id] } });
    return serializeGroupDm(channel, users, principal.user.id);
  });
}

/**
 * Whether `channelId` is a group DM.
 * @example if (await isGroupDm(ctx, channelId)) ...
 */
export async function isGroupDm(ctx: PlatformContext, channelId: string): Promise<boolean> {
  return (await ctx.db.getKey('group_dm_channels', channelId)) !== undefined;
}

/** The group DMs `userId` is a member of, as that user sees them. */
export async function listGroupDms(ctx: PlatformContext, userId: string) {
  const tx = ctx.db.read([...STORES]);
  const channels = await tx.store('group_dm_channels').index('by_member').getAll(userId);
  return Promise.all(channels.map(async (c) => serializeGroupDm(c, await loadMembers(tx, c), userId)));
}
