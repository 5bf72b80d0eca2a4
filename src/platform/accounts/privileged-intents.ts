/**
 * Privileged intents (GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT) are granted per
 * application. Spec, Limits: below 10,000 accessible users the developer's toggle is enough
 * (the `GATEWAY_*_LIMITED` flags); from 10,000 a toggle counts only once the application was
 * approved (the sandbox's `approvals.privileged_intents_approved`). The approval does not turn
 * on an intent whose toggle is off: as on the platform, it lets the app keep using what it
 * toggled. The `GATEWAY_*` flags are the platform's own grant of one intent and count alone.
 */
import { INTENTS } from '../core/intents';
import { PRIVILEGED_INTENTS_APPROVAL_THRESHOLD } from '../core/limits';
import { APPLICATION_FLAGS, type ApplicationRecord } from '../../store/records/core';
import type { PlatformStorage } from '../../store/schema';
import { keyRange } from '../../store/port';

/** Each privileged intent with its approval flag and its toggle flag. */
const PRIVILEGED: readonly { intent: number; approved: number; toggle: number }[] = [
  {
    intent: INTENTS.GUILD_MEMBERS,
    approved: APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS,
    toggle: APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED,
  },
  {
    intent: INTENTS.GUILD_PRESENCES,
    approved: APPLICATION_FLAGS.GATEWAY_PRESENCE,
    toggle: APPLICATION_FLAGS.GATEWAY_PRESENCE_LIMITED,
  },
  {
    intent: INTENTS.MESSAGE_CONTENT,
    approved: APPLICATION_FLAGS.GATEWAY_MESSAGE_CONTENT,
    toggle: APPLICATION_FLAGS.GATEWAY_MESSAGE_CONTENT_LIMITED,
  },
];

/**
 * How many users the application can reach: the distinct members of every guild its bot is in
 * (the bot itself excluded) plus its user installs. Counting stops at `stopAt`, since only
 * "below the threshold or not" matters.
 */
export async function accessibleUserCount(
  db: PlatformStorage,
  application: ApplicationRecord,
  stopAt = PRIVILEGED_INTENTS_APPROVAL_THRESHOLD,
): Promise<number> {
  const installs = application.approximate_user_install_count;
  if (installs >= stopAt) return installs;
  const users = new Set<string>();
  const guildKeys = await db.getAllKeysFromIndex('members', 'by_user', application.bot_user_id);
  for (const [guildId] of guildKeys) {
    const keys = await db.getAllKeys('members', keyRange.bound([guildId], [guildId, []]));
    for (const [, userId] of keys) if (userId !== application.bot_user_id) users.add(userId);
    if (users.size + installs >= stopAt) break;
  }
  return users.size + installs;
}

/**
 * The privileged intents the application may use, as an intent bit set.
 * @example const granted = await grantedPrivilegedIntents(db, app); (intents & ~granted & PRIVILEGED_INTENTS) === 0
 */
export async function grantedPrivilegedIntents(db: PlatformStorage, application: ApplicationRecord): Promise<number> {
  const flags = BigInt(application.flags);
  const has = (bit: number) => (flags & BigInt(bit)) !== 0n;
  let granted = 0;
  let toggled = 0;
  for (const p of PRIVILEGED) {
    if (has(p.approved)) granted |= p.intent;
    else if (has(p.toggle)) toggled |= p.intent;
  }
  if (toggled === 0) return granted;
  // With the approval the count no longer matters: skip counting every guild's members.
  const toggleCounts =
    application.approvals.privileged_intents_approved ||
    (await accessibleUserCount(db, application)) < PRIVILEGED_INTENTS_APPROVAL_THRESHOLD;
  return toggleCounts ? granted | toggled : granted;
}
