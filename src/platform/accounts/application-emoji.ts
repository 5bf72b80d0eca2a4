/**
 * Application emoji (spec: application emoji management, bot token): an application owns up
 * to 2000 emoji that only it can use. `GET` / `POST /applications/{application.id}/emojis`,
 * `GET` / `PATCH` / `DELETE .../emojis/{emoji.id}`, for the application's own bot only. Images
 * are data URIs of at most 256 KiB; names are unique per application.
 */
import { write } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { EmojiRecord } from '../../store/records/guilds';
import { parseImageData } from '../core/image-data';
import { APPLICATION_EMOJI_MAX, EMOJI_IMAGE_MAX_BYTES } from '../core/limits';
import type { UserRecord } from '../../store/records/core';
import type { Emoji } from '../../store/records/dispatches';
import { serializeUser } from './users';

/** The emoji object (with `user`, who uploaded it, when known). */
export function serializeEmoji(emoji: EmojiRecord, user?: UserRecord): Emoji {
  return {
    id: emoji.id,
    name: emoji.name,
    roles: emoji.roles,
    ...(user ? { user: serializeUser(user) } : {}),
    require_colons: true,
    managed: false,
    animated: emoji.animated,
    available: true,
  };
}

/** Another application's emoji are not this bot's to manage (403 20012). */
function requireOwnApplication(principal: BotPrincipal, applicationId: string): void {
  if (principal.application.id !== applicationId) throw ApiError.of('ENDPOINT_UNAVAILABLE');
}

const nameTaken = () =>
  ApiError.invalidForm({
    name: { code: 'APPLICATION_EMOJI_NAME_ALREADY_TAKEN', message: 'An emoji with this name already exists.' },
  });

/** `GET /applications/{id}/emojis`: `{items}`, each with the bot user who uploaded it. */
export async function listApplicationEmojis(ctx: PlatformContext, principal: BotPrincipal, applicationId: string) {
  requireOwnApplication(principal, applicationId);
  const emojis = await ctx.db.getAllFromIndex('emojis', 'by_application', applicationId);
  return { items: emojis.sort((a, b) => a.created_at - b.created_at).map((e) => serializeEmoji(e, principal.user)) };
}

/** The application's emoji `emojiId` inside a read, or 404 (10014). */
async function findEmoji(ctx: PlatformContext, applicationId: string, emojiId: string): Promise<EmojiRecord> {
  const emoji = await ctx.db.get('emojis', emojiId);
  if (!emoji || emoji.application_id !== applicationId) throw ApiError.of('UNKNOWN_EMOJI');
  return emoji;
}

/** `GET /applications/{id}/emojis/{emoji.id}`. */
export async function getApplicationEmoji(
  ctx: PlatformContext,
  principal: BotPrincipal,
  applicationId: string,
  emojiId: string,
) {
  requireOwnApplication(principal, applicationId);
  return serializeEmoji(await findEmoji(ctx, applicationId, emojiId), principal.user);
}

/**
 * `POST /applications/{id}/emojis {name, image}`: the 2001st emoji of an application is
 * refused (400 30008); a name already used by the application is 400 (50035).
 * @example await createApplicationEmoji(ctx, bot, appId, { name: 'gg', image: 'data:image/png;base64,...' });
 */
export async function createApplicationEmoji(
  ctx: PlatformContext,
  principal: BotPrincipal,
  applicationId: string,
  input: { name: string; image: string },
) {
  requireOwnApplication(principal, applicationId);
  const image = await parseImageData(input.image, 'image', EMOJI_IMAGE_MAX_BYTES);
  return write(ctx, ['emojis', 'emoji_images'], async (tx) => {
    const emojis = tx.store('emojis');
    if ((await emojis.index('by_application').count(applicationId)) >= APPLICATION_EMOJI_MAX)
      throw ApiError.of('EMOJIS_MAX');
    if (await emojis.index('by_application_name').getKey([applicationId, input.name])) throw nameTaken();
    const emoji: EmojiRecord = {
      id: ctx.ids.next(),
      application_id: applicationId,
      name: input.name,
      roles: [],
      user_id: principal.user.id,
      animated: image.animated,
      created_at: ctx.clock.now(),
    };
    await emojis.add(emoji);
    await tx.store('emoji_images').add({ emoji_id: emoji.id, data_uri: image.dataUri });
    return serializeEmoji(emoji, principal.user);
  });
}

/** `PATCH /applications/{id}/emojis/{emoji.id} {name}`: renames it (names stay unique). */
export async function renameApplicationEmoji(
  ctx: PlatformContext,
  principal: BotPrincipal,
  applicationId: string,
  emojiId: string,
  name: string,
) {
  requireOwnApplication(principal, applicationId);
  return write(ctx, ['emojis'], async (tx) => {
    const emoji = await tx.store('emojis').get(emojiId);
    if (!emoji || emoji.application_id !== applicationId) throw ApiError.of('UNKNOWN_EMOJI');
    const holder = await tx.store('emojis').index('by_application_name').getKey([applicationId, name]);
    if (holder !== undefined && holder !== emojiId) throw nameTaken();
    const updated = { ...emoji, name };
    await tx.store('emojis').put(updated);
    return serializeEmoji(updated, principal.user);
  });
}

/** `DELETE /applications/{id}/emojis/{emoji.id}`: removes it and its image. */
export async function deleteApplicationEmoji(
  ctx: PlatformContext,
  principal: BotPrincipal,
  applicationId: string,
  emojiId: string,
): Promise<void> {
  requireOwnApplication(principal, applicationId);
  await write(ctx, ['emojis', 'emoji_images'], async (tx) => {
    const emoji = await tx.store('emojis').get(emojiId);
    if (!emoji || emoji.application_id !== applicationId) throw ApiError.of('UNKNOWN_EMOJI');
    await tx.store('emojis').delete(emojiId);
    await tx.store('emoji_images').delete(emojiId);
  });
}
