/**
 * `PATCH /users/@me` for a bot: its username, avatar and banner (images as data URIs, null
 * clears). Usernames follow the platform's public rules: 2 to 32 characters once trimmed, none
 * of `@`, `#`, `:` or three backticks, not containing "discord", not "everyone" or "here". A
 * change emits USER_UPDATE to the bot's own sessions; the images are kept so the CDN serves them.
 */
import { write } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { parseImageData, type ImageData } from '../core/image-data';
import type { UserRecord } from '../../store/records/core';
import { serializeCurrentUser, serializeUser } from './users';

/** The fields of a modify current user request. */
export interface ModifyCurrentUserInput {
  username?: string;
  avatar?: string | null;
  banner?: string | null;
}

/** Why a username is refused, or null when it is one the platform takes. */
export function usernameProblem(name: string): string | null {
  const lower = name.toLowerCase();
  if (/[@#:]|```/.test(name)) return 'Username cannot contain "@", "#", ":" or "```".';
  if (lower.includes('discord')) return 'Username cannot contain "discord".';
  if (lower === 'everyone' || lower === 'here') return 'Username cannot be "everyone" or "here".';
  return null;
}

/**
 * Changes the bot's own user. Nothing is emitted when nothing changed.
 * @example await modifyCurrentUser(ctx, bot, { username: 'Helper' });
 */
export async function modifyCurrentUser(ctx: PlatformContext, principal: BotPrincipal, input: ModifyCurrentUserInput) {
  if (input.username !== undefined) {
    const problem = usernameProblem(input.username);
    if (problem) throw ApiError.invalidForm({ username: problem });
  }
  const image = async (value: string | null | undefined, field: string): Promise<ImageData | null | undefined> =>
    value === undefined || value === null ? value : parseImageData(value, field);
  const [avatar, banner] = await Promise.all([image(input.avatar, 'avatar'), image(input.banner, 'banner')]);
  const updated = await write(ctx, ['users'], async (tx, emit) => {
    const user = await tx.store('users').get(principal.user.id);
    if (!user) throw ApiError.of('UNKNOWN_USER');
    const next: UserRecord = { ...user };
    if (input.username !== undefined) next.username = input.username;
    if (avatar !== undefined)
      Object.assign(next, { avatar: avatar?.hash ?? null, avatar_data: avatar?.dataUri ?? null });
    if (banner !== undefined)
      Object.assign(next, { banner: banner?.hash ?? null, banner_data: banner?.dataUri ?? null });
    const unchanged = (['username', 'avatar', 'banner'] as const).every((k) => (user[k] ?? null) === (next[k] ?? null));
    if (unchanged) return user;
    await tx.store('users').put(next);
    emit({ type: 'USER_UPDATE', data: serializeUser(next), audience: { user_ids: [next.id] } });
    return next;
  });
  return serializeCurrentUser({ ...principal, user: updated });
}
