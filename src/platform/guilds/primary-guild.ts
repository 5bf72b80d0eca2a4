/**
 * A user's primary guild: the guild whose tag (a badge of 1 to 4 characters) the user wears,
 * serialized as `primary_guild` on the user object. Users choose it in the platform's client;
 * the sandbox sets it for them. A change emits USER_UPDATE to the user's own sessions.
 */
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { GUILD_TAG_MAX, GUILD_TAG_MIN } from '../core/limits';
import type { UserRecord } from '../../store/records/core';
import { serializeUser } from '../accounts/users';

/** A primary guild to set: the guild, its tag, and optionally the badge (an image hash). */
export interface PrimaryGuildInput {
  guild_id: string;
  tag: string;
  badge?: string | null;
}

/** Characters of a tag, counted as code points (an emoji is one). */
const tagLength = (tag: string) => [...tag].length;

/**
 * Sets (or with null clears) a user's primary guild. The tag must be 1 to 4 characters with no
 * spaces, and the user must be a member of the guild (400 naming the field otherwise).
 * @example await setPrimaryGuild(ctx, userId, { guild_id, tag: 'PP' });
 */
export async function setPrimaryGuild(
  ctx: PlatformContext,
  userId: string,
  input: PrimaryGuildInput | null,
): Promise<UserRecord> {
  if (input) {
    const length = tagLength(input.tag);
    if (length < GUILD_TAG_MIN || length > GUILD_TAG_MAX || /\s/.test(input.tag)) {
      throw ApiError.invalidForm({
        tag: `Must be between ${GUILD_TAG_MIN} and ${GUILD_TAG_MAX} characters, without spaces.`,
      });
    }
  }
  return write(ctx, ['users', 'guilds', 'members'], async (tx, emit) => {
    const user = await tx.store('users').get(userId);
    if (!user) throw ApiError.of('UNKNOWN_USER');
    if (input) {
      if (!(await tx.store('guilds').get(input.guild_id))) throw ApiError.invalidForm({ guild_id: 'Unknown guild.' });
      if (!(await tx.store('members').get([input.guild_id, userId])))
        throw ApiError.invalidForm({ guild_id: 'The user is not a member of this guild.' });
    }
    const updated: UserRecord = {
      ...user,
      primary_guild: input
        ? { identity_guild_id: input.guild_id, identity_enabled: true, tag: input.tag, badge: input.badge ?? null }
        : null,
    };
    await tx.store('users').put(updated);
    emit({ type: 'USER_UPDATE', data: serializeUser(updated), audience: { user_ids: [userId] } });
    return updated;
  });
}
