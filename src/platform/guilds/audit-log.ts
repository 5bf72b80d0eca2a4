/**
 * A guild's audit log: administrative actions appended inside the write that performs them
 * (so an action and its entry commit together), and `GET /guilds/{guild.id}/audit-logs` for
 * members with VIEW_AUDIT_LOG. Entries are keyed newest first per guild, so a page is one
 * bounded read (by action type through its own index).
 */
import type { WriteTx } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { dbReader, guildPermissions, loadGuildView, requireMember, requirePermissions } from './access';
import type { AuditLogEntryRecord } from '../../store/records/guilds';
import { PERMISSIONS } from '../core/permissions';
import { AUDIT_LOG_EVENT, CHANNEL_AUDIT_LOG_EVENT } from '../../store/records/core';
import { serializeUser } from '../accounts/users';
import { keyRange } from '../../store/port';
import { serializeWebhook } from '../channel-webhooks/wire';

/** The audit log events the sandbox records (the platform's public values). */
export const AUDIT_LOG_EVENTS = {
  GUILD_UPDATE: 1,
  MEMBER_KICK: 20,
  MEMBER_PRUNE: 21,
  MEMBER_BAN_ADD: 22,
  MEMBER_BAN_REMOVE: 23,
  MEMBER_UPDATE: 24,
  MEMBER_ROLE_UPDATE: 25,
  MEMBER_MOVE: 26,
  MEMBER_DISCONNECT: 27,
  INVITE_CREATE: 40,
  INVITE_DELETE: 42,
  ROLE_CREATE: 30,
  ROLE_UPDATE: 31,
  ROLE_DELETE: 32,
  EMOJI_CREATE: 60,
  EMOJI_UPDATE: 61,
  EMOJI_DELETE: 62,
  INTEGRATION_DELETE: 82,
  ONBOARDING_PROMPT_CREATE: 163,
  ONBOARDING_PROMPT_UPDATE: 164,
  ONBOARDING_PROMPT_DELETE: 165,
  ONBOARDING_CREATE: 166,
  ONBOARDING_UPDATE: 167,
  GUILD_SCHEDULED_EVENT_CREATE: 100,
  GUILD_SCHEDULED_EVENT_UPDATE: 101,
  GUILD_SCHEDULED_EVENT_DELETE: 102,
  THREAD_CREATE: 110,
  THREAD_UPDATE: 111,
  THREAD_DELETE: 112,
  MESSAGE_BULK_DELETE: 73,
  ...AUDIT_LOG_EVENT,
  ...CHANNEL_AUDIT_LOG_EVENT,
} as const;

const MAX_U64 = (1n << 64n) - 1n;

/** The entries whose target is a webhook. */
const WEBHOOK_ACTIONS: ReadonlySet<number> = new Set([
  AUDIT_LOG_EVENTS.WEBHOOK_CREATE,
  AUDIT_LOG_EVENTS.WEBHOOK_UPDATE,
  AUDIT_LOG_EVENTS.WEBHOOK_DELETE,
]);

/** The key that sorts entries newest first: 2^64-1 minus the id, padded to 20 digits. */
function newestFirstKey(id: string): string {
  return (MAX_U64 - BigInt(id)).toString().padStart(20, '0');
}

/** What an action records; the id, key and time are added here. */
export type AuditLogInput = Omit<AuditLogEntryRecord, 'id' | 'order_key' | 'created_at'>;

/**
 * Appends an entry inside the caller's write (its stores must include `audit_log_entries`).
 * @example await appendAuditLogEntry(ctx, tx, { guild_id, action_type: AUDIT_LOG_EVENTS.MEMBER_PRUNE, user_id, target_id: null, options: { delete_member_days: '7', members_removed: '2' } });
 */
export async function appendAuditLogEntry(
  ctx: PlatformContext,
  tx: WriteTx,
  input: AuditLogInput,
): Promise<AuditLogEntryRecord> {
  const id = ctx.ids.next();
  const entry: AuditLogEntryRecord = { ...input, id, order_key: newestFirstKey(id), created_at: ctx.clock.now() };
  await tx.store('audit_log_entries').add(entry);
  return entry;
}

/** The query of an audit log read. */
export interface AuditLogQuery {
  user_id?: string;
  action_type?: number;
  before?: string;
  after?: string;
  limit: number;
}

/** An entry on the wire. */
function serializeEntry(entry: AuditLogEntryRecord) {
  return {
    id: entry.id,
    action_type: entry.action_type,
    user_id: entry.user_id,
    target_id: entry.target_id,
    ...(entry.changes ? { changes: entry.changes } : {}),
    ...(entry.options ? { options: entry.options } : {}),
    ...(entry.reason ? { reason: entry.reason } : {}),
  };
}

/**
 * `GET /guilds/{guild.id}/audit-logs`: needs VIEW_AUDIT_LOG. Entries newest first, optionally
 * of one action type, by one user, before / after an entry id, at most `limit`; with the users
 * they reference, and the webhooks still there that its WEBHOOK_* entries name (without their
 * token). The lists of other referenced objects are empty: the sandbox records no entries that
 * name commands, rules, integrations or threads.
 */
export async function listAuditLog(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  query: AuditLogQuery,
) {
  const view = await loadGuildView(dbReader(ctx.db), guildId, principal.user.id);
  requireMember(view);
  requirePermissions(guildPermissions(view), PERMISSIONS.VIEW_AUDIT_LOG);
  // `before` keeps older entries (larger keys), `after` newer ones (smaller keys).
  const low = query.before ? newestFirstKey(query.before) : '';
  const high = query.after ? newestFirstKey(query.after) : '\uffff';
  const lowOpen = query.before !== undefined;
  const highOpen = query.after !== undefined;
  const tx = ctx.db.read(['audit_log_entries', 'users', 'channel_webhooks']);
  // Filtering by user reads the whole range: the count only applies once the filter has run.
  const count = query.user_id ? undefined : query.limit;
  // `before` at or below `after` leaves no entry between them: an empty page, not a key range
  // the store refuses.
  const empty = low > high || (low === high && (lowOpen || highOpen));
  const entries = empty
    ? []
    : query.action_type === undefined
      ? await tx
          .store('audit_log_entries')
          .getAll(keyRange.bound([guildId, low], [guildId, high], lowOpen, highOpen), count)
      : await tx
          .store('audit_log_entries')
          .index('by_guild_action')
          .getAll(
            keyRange.bound([guildId, query.action_type, low], [guildId, query.action_type, high], lowOpen, highOpen),
            count,
          );
  const page = entries.filter((e) => query.user_id === undefined || e.user_id === query.user_id).slice(0, query.limit);
  const userIds = [...new Set(page.flatMap((e) => (e.user_id ? [e.user_id] : [])))];
  const users = await Promise.all(userIds.map((id) => tx.store('users').get(id)));
  const webhookIds = [
    ...new Set(page.flatMap((e) => (WEBHOOK_ACTIONS.has(e.action_type) && e.target_id ? [e.target_id] : []))),
  ];
  const webhooks = await Promise.all(webhookIds.map((id) => tx.store('channel_webhooks').get(id)));
  return {
    audit_log_entries: page.map(serializeEntry),
    users: users.flatMap((u) => (u ? [serializeUser(u)] : [])),
    application_commands: [],
    auto_moderation_rules: [],
    guild_scheduled_events: [],
    integrations: [],
    threads: [],
    webhooks: webhooks.flatMap((w) => (w ? [serializeWebhook(w, { withToken: false })] : [])),
  };
}
