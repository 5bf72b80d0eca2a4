/**
 * Guild emoji: `POST` and `GET /guilds/{guild.id}/emojis`, and `GET` / `PATCH` / `DELETE
 * /guilds/{guild.id}/emojis/{emoji.id}`. Creating needs CREATE_GUILD_EXPRESSIONS from 2026-02-23 (platform
 * clock) and MANAGE_GUILD_EXPRESSIONS (or CREATE_GUILD_EXPRESSIONS) before; it emits
 * GUILD_EMOJIS_UPDATE with the guild's emoji (GUILD_EXPRESSIONS intent) and an EMOJI_CREATE
 * audit entry. A guild without boosts holds 50 static and 50 animated emoji (public docs).
 * Changing or deleting an emoji needs MANAGE_GUILD_EXPRESSIONS, or CREATE_GUILD_EXPRESSIONS for
 * the emoji the caller uploaded (EMOJI_UPDATE / EMOJI_DELETE audit entries).
 */
import { write, type Emit, type WriteTx } from '../../store/write';
import type { BotPrincipal, Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { serializeEmoji } from '../accounts/application-emoji';
import { ApiError } from '../core/errors';
import { dbReader, guildPermissions, loadGuildView, requireMember, txReader } from './access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from './audit-log';
import { requireCreatePermission } from './permission-split';
import type { EmojiRecord } from '../../store/records/guilds';
import { parseImageData } from '../core/image-data';
import { INTENTS } from '../core/intents';
import { EMOJI_IMAGE_MAX_BYTES, GUILD_EMOJI_MAX } from '../core/limits';
import { PERMISSIONS, hasPermission } from '../core/permissions';

const byCreation = (a: EmojiRecord, b: EmojiRecord) =>
  a.created_at - b.created_at || (BigInt(a.id) < BigInt(b.id) ? -1 : 1);

/**
 * Creates a guild emoji `{name, image, roles?}`; `roles` must be roles of the guild.
 * @example await createGuildEmoji(ctx, bot, guildId, { name: 'gg', image: 'data:image/png;base64,...' });
 */
export async function createGuildEmoji(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  input: { name: string; image: string; roles?: string[] },
) {
  const image = await parseImageData(input.image, 'image', EMOJI_IMAGE_MAX_BYTES);
  return write(
    ctx,
    ['guilds', 'roles', 'members', 'users', 'emojis', 'emoji_images', 'audit_log_entries'],
    async (tx, emit) => {
      const now = ctx.clock.now();
      const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
      requireMember(view);
      requireCreatePermission(guildPermissions(view), 'expressions', now);
      const roles = [...new Set(input.roles ?? [])];
      const bad: Record<string, string> = {};
      roles.forEach((id, i) => {
        if (!view.roles.some((r) => r.id === id) || id === guildId) bad[`roles.${i}`] = 'Unknown role.';
      });
      if (Object.keys(bad).length > 0) throw ApiError.invalidForm(bad);
      const existing = await tx.store('emojis').index('by_guild').getAll(guildId);
      if (existing.filter((e) => e.animated === image.animated).length >= GUILD_EMOJI_MAX) {
        throw ApiError.of(image.animated ? 'ANIMATED_EMOJIS_MAX' : 'EMOJIS_MAX');
      }
      const emoji: EmojiRecord = {
        id: ctx.ids.next(),
        guild_id: guildId,
        name: input.name,
        roles,
        user_id: principal.user.id,
        animated: image.animated,
        created_at: now,
      };
      await tx.store('emojis').add(emoji);
      await tx.store('emoji_images').add({ emoji_id: emoji.id, data_uri: image.dataUri });
      const all = [...existing, emoji].sort(byCreation).map((e) => serializeEmoji(e));
      emit({
        type: 'GUILD_EMOJIS_UPDATE',
        data: { guild_id: guildId, emojis: all },
        audience: { guild_id: guildId, intent: INTENTS.GUILD_EXPRESSIONS },
      });
      await appendAuditLogEntry(ctx, tx, {
        guild_id: guildId,
        action_type: AUDIT_LOG_EVENTS.EMOJI_CREATE,
        user_id: principal.user.id,
        target_id: emoji.id,
        changes: [{ key: 'name', new_value: emoji.name }],
      });
      return serializeEmoji(emoji, principal.user);
    },
  );
}

/**
 * `GET /guilds/{guild.id}/emojis` for a member; each emoji carries `user` when the caller has
 * CREATE_GUILD_EXPRESSIONS or MANAGE_GUILD_EXPRESSIONS (public docs).
 */
export async function listGuildEmojis(ctx: PlatformContext, principal: Principal, guildId: string) {
  const view = await loadGuildView(dbReader(ctx.db), guildId, principal.user.id);
  requireMember(view);
  const bits = guildPermissions(view);
  const withUser =
    hasPermission(bits, PERMISSIONS.CREATE_GUILD_EXPRESSIONS) ||
    hasPermission(bits, PERMISSIONS.MANAGE_GUILD_EXPRESSIONS);
  const tx = ctx.db.read(['emojis', 'users']);
  const emojis = (await tx.store('emojis').index('by_guild').getAll(guildId)).sort(byCreation);
  const users = withUser ? await Promise.all(emojis.map((e) => tx.store('users').get(e.user_id))) : [];
  return emojis.map((e, i) => serializeEmoji(e, users[i]));
}

/** A guild emoji by id inside a read or write, or 404 (10014). */
async function findGuildEmoji(
  store: { get(id: string): Promise<EmojiRecord | undefined> },
  guildId: string,
  emojiId: string,
): Promise<EmojiRecord> {
  const emoji = await store.get(emojiId);
  if (!emoji || emoji.guild_id !== guildId) throw ApiError.of('UNKNOWN_EMOJI');
  return emoji;
}

/**
 * The public docs' rule for changing or deleting an emoji: its uploader needs
 * CREATE_GUILD_EXPRESSIONS or MANAGE_GUILD_EXPRESSIONS, anyone else MANAGE_GUILD_EXPRESSIONS.
 */
function requireEmojiManager(bits: bigint, emoji: EmojiRecord, userId: string): void {
  const allowed =
    hasPermission(bits, PERMISSIONS.MANAGE_GUILD_EXPRESSIONS) ||
    (emoji.user_id === userId && hasPermission(bits, PERMISSIONS.CREATE_GUILD_EXPRESSIONS));
  if (!allowed) throw ApiError.of('MISSING_PERMISSIONS');
}

/**
 * `GET /guilds/{guild.id}/emojis/{emoji.id}`: with `user` when the caller has
 * CREATE_GUILD_EXPRESSIONS or MANAGE_GUILD_EXPRESSIONS.
 */
export async function getGuildEmoji(ctx: PlatformContext, principal: Principal, guildId: string, emojiId: string) {
  const view = await loadGuildView(dbReader(ctx.db), guildId, principal.user.id);
  requireMember(view);
  const bits = guildPermissions(view);
  const tx = ctx.db.read(['emojis', 'users']);
  const emoji = await findGuildEmoji(tx.store('emojis'), guildId, emojiId);
  const withUser =
    hasPermission(bits, PERMISSIONS.CREATE_GUILD_EXPRESSIONS) ||
    hasPermission(bits, PERMISSIONS.MANAGE_GUILD_EXPRESSIONS);
  return serializeEmoji(emoji, withUser ? await tx.store('users').get(emoji.user_id) : undefined);
}

const EMOJI_STORES = ['guilds', 'roles', 'members', 'users', 'emojis', 'emoji_images', 'audit_log_entries'] as const;

/** Emits GUILD_EMOJIS_UPDATE with every emoji of the guild as the write leaves them. */
async function emitEmojisUpdate(tx: WriteTx, emit: Emit, guildId: string) {
  const all = (await tx.store('emojis').index('by_guild').getAll(guildId))
    .sort(byCreation)
    .map((e) => serializeEmoji(e));
  emit({
    type: 'GUILD_EMOJIS_UPDATE',
    data: { guild_id: guildId, emojis: all },
    audience: { guild_id: guildId, intent: INTENTS.GUILD_EXPRESSIONS },
  });
}

/**
 * `PATCH /guilds/{guild.id}/emojis/{emoji.id}`: a new `name` and/or `roles` (null: everyone).
 * GUILD_EMOJIS_UPDATE and an EMOJI_UPDATE audit entry.
 * @example await modifyGuildEmoji(ctx, bot, guildId, emojiId, { name: 'gg_wp' });
 */
export async function modifyGuildEmoji(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  emojiId: string,
  input: { name?: string; roles?: string[] | null },
) {
  return write(ctx, [...EMOJI_STORES], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    const emoji = await findGuildEmoji(tx.store('emojis'), guildId, emojiId);
    requireEmojiManager(guildPermissions(view), emoji, principal.user.id);
    const roles = input.roles === undefined ? emoji.roles : [...new Set(input.roles ?? [])];
    const bad: Record<string, string> = {};
    if (input.roles)
      roles.forEach((id, i) => {
        if (!view.roles.some((r) => r.id === id) || id === guildId) bad[`roles.${i}`] = 'Unknown role.';
      });
    if (Object.keys(bad).length > 0) throw ApiError.invalidForm(bad);
    const updated: EmojiRecord = { ...emoji, name: input.name ?? emoji.name, roles };
    const changes = [
      ...(updated.name !== emoji.name ? [{ key: 'name', old_value: emoji.name, new_value: updated.name }] : []),
      ...(JSON.stringify(updated.roles) !== JSON.stringify(emoji.roles)
        ? [{ key: 'roles', old_value: emoji.roles, new_value: updated.roles }]
        : []),
    ];
    const uploader = await tx.store('users').get(emoji.user_id);
    if (changes.length === 0) return serializeEmoji(emoji, uploader);
    await tx.store('emojis').put(updated);
    await emitEmojisUpdate(tx, emit, guildId);
    await appendAuditLogEntry(ctx, tx, {
      guild_id: guildId,
      action_type: AUDIT_LOG_EVENTS.EMOJI_UPDATE,
      user_id: principal.user.id,
      target_id: emojiId,
      changes,
    });
    return serializeEmoji(updated, uploader);
  });
}

/**
 * `DELETE /guilds/{guild.id}/emojis/{emoji.id}`: the emoji and its image go;
 * GUILD_EMOJIS_UPDATE and an EMOJI_DELETE audit entry.
 */
export async function deleteGuildEmoji(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  emojiId: string,
): Promise<void> {
  await write(ctx, [...EMOJI_STORES], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    const emoji = await findGuildEmoji(tx.store('emojis'), guildId, emojiId);
    requireEmojiManager(guildPermissions(view), emoji, principal.user.id);
    await tx.store('emojis').delete(emojiId);
    await tx.store('emoji_images').delete(emojiId);
    await emitEmojisUpdate(tx, emit, guildId);
    await appendAuditLogEntry(ctx, tx, {
      guild_id: guildId,
      action_type: AUDIT_LOG_EVENTS.EMOJI_DELETE,
      user_id: principal.user.id,
      target_id: emojiId,
      changes: [{ key: 'name', old_value: emoji.name }],
    });
  });
}
