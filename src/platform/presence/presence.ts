/**
 * Presence: one record per user. Its status comes from the user's connected gateway sessions
 * (`sessions`, kept by the gateway: see `presence/shown.ts` for how they add up); its rich
 * presence is the activity each application shows (spec: Activity record; SET_ACTIVITY accepts
 * types Playing 0, Listening 2, Watching 3 and Competing 5), at most one per application. A
 * change of what others see emits PRESENCE_UPDATE (`presence/write.ts`).
 */
import * as v from 'valibot';
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { RICH_PRESENCE_TEXT_MAX, RICH_PRESENCE_URL_MAX } from '../core/limits';
import { shownStatus } from './shown';
import { applyPresence, PRESENCE_STORES } from './write';
import { SET_ACTIVITY_TYPES } from '../core/records';

/** A stored activity, as SET_ACTIVITY and the presence route answer it. */
export interface PresenceActivity {
  name: string;
  type: (typeof SET_ACTIVITY_TYPES)[number];
  application_id: string;
  created_at: number;
  state?: string | null;
  state_url?: string | null;
  details?: string | null;
  details_url?: string | null;
  status_display_type?: 0 | 1 | 2 | null;
  timestamps?: { start?: number; end?: number } | null;
  assets?: Record<string, string | null> | null;
  party?: { id?: string | null; size?: number[] | null } | null;
  secrets?: { join?: string; match?: string } | null;
  instance?: boolean | null;
}

/** An activity a bot set with Presence Update (op 3): bots may set only these fields. */
export interface GatewayActivity {
  name: string;
  type: 0 | 1 | 2 | 3 | 4 | 5;
  url?: string | null;
  state?: string | null;
  created_at: number;
}

/** What a session may set with op 3: `invisible` shows as offline to others. */
export type SessionStatus = 'online' | 'idle' | 'dnd' | 'invisible';

/** The status others see. */
export type ShownStatus = 'online' | 'idle' | 'dnd' | 'offline';

/** A session's own presence (Identify's `presence`, then each Presence Update). */
export interface SessionPresence {
  status: SessionStatus;
  since: number | null;
  afk: boolean;
  /** Only a bot session's: absent until it set any. */
  activities?: GatewayActivity[];
}

/** A connected gateway session of the user, as the presence counts it. */
export interface PresenceSession extends SessionPresence {
  session_id: string;
  application_id: string;
  /** The start of the gateway (shared worker) it is connected to: when that is gone, so is it. */
  gateway: string;
  /**
   * The page whose socket it came over (its `platformpp-owner:<id>` Web Lock), when the page
   * said: once that start of the gateway is gone, a session whose page is gone too is over.
   */
  owner?: string;
  updated_at: number;
}

/**
 * A user's presence as stored: `activities` has at most one entry per application; `status` is
 * what others see, recomputed from `sessions` on every write (records written before sessions
 * were kept have none, and count as offline).
 */
export interface PresenceRecord {
  user_id: string;
  status: ShownStatus;
  activities: PresenceActivity[];
  updated_at: number;
  sessions?: PresenceSession[];
}

const text = v.nullish(
  v.pipe(v.string(), v.maxLength(RICH_PRESENCE_TEXT_MAX, `Must be ${RICH_PRESENCE_TEXT_MAX} or fewer in length.`)),
);
const link = v.nullish(
  v.pipe(
    v.string(),
    v.maxLength(RICH_PRESENCE_URL_MAX, `Must be ${RICH_PRESENCE_URL_MAX} or fewer in length.`),
    v.check((s) => /^https?:$/.test(safeProtocol(s)), 'Must be an http or https URL.'),
  ),
);
const timestamp = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)));

/**
 * What SET_ACTIVITY (and `PUT /users/@me/activities`) accepts. `type` is one of 0, 2, 3, 5;
 * the `*_url` fields are the links of the state text, details text, large and small image.
 * Keys the platform does not take (`name`, which comes from the application) are dropped.
 */
export const ActivityInputSchema = v.object({
  type: v.optional(
    v.picklist(SET_ACTIVITY_TYPES, 'Activity type must be Playing (0), Listening (2), Watching (3) or Competing (5).'),
    0,
  ),
  state: text,
  state_url: link,
  details: text,
  details_url: link,
  status_display_type: v.nullish(v.picklist([0, 1, 2], 'Must be 0 (name), 1 (state) or 2 (details).')),
  timestamps: v.nullish(v.object({ start: timestamp, end: timestamp })),
  assets: v.nullish(
    v.object({
      large_image: text,
      large_text: text,
      large_url: link,
      small_image: text,
      small_text: text,
      small_url: link,
    }),
  ),
  party: v.nullish(
    v.object({
      id: text,
      size: v.nullish(
        v.pipe(
          v.tuple([v.pipe(v.number(), v.integer(), v.minValue(1)), v.pipe(v.number(), v.integer(), v.minValue(1))]),
          v.check(([current, max]) => current <= max, 'The current size must not exceed the maximum.'),
        ),
      ),
    }),
  ),
  secrets: v.nullish(
    v.object({
      join: v.optional(v.pipe(v.string(), v.maxLength(RICH_PRESENCE_TEXT_MAX))),
      match: v.optional(v.pipe(v.string(), v.maxLength(RICH_PRESENCE_TEXT_MAX))),
    }),
  ),
  instance: v.nullish(v.boolean()),
});

/** A validated activity. */
export type ActivityInput = v.InferOutput<typeof ActivityInputSchema>;

function safeProtocol(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}

/** The user's presence, or null when they never set one. */
export async function getPresence(ctx: PlatformContext, userId: string): Promise<PresenceRecord | null> {
  return (await ctx.db.get('presences', userId)) ?? null;
}

/**
 * Sets (or with `null` clears) the activity `applicationId` shows for `userId`; PRESENCE_UPDATE
 * follows when what others see changed (an offline user's activity shows once they connect).
 * Answers the stored activity, or null when cleared.
 * @example await setActivity(ctx, { userId, applicationId, activity: { type: 0, state: 'In a match' } })
 */
export async function setActivity(
  ctx: PlatformContext,
  input: { userId: string; applicationId: string; activity: ActivityInput | null },
): Promise<PresenceActivity | null> {
  const now = ctx.clock.now();
  return write(ctx, ['applications', ...PRESENCE_STORES], async (tx, emit) => {
    const application = await tx.objectStore('applications').get(input.applicationId);
    if (!application) throw ApiError.of('UNKNOWN_APPLICATION');
    if (!(await tx.objectStore('users').get(input.userId))) throw ApiError.of('UNKNOWN_USER');
    const activity: PresenceActivity | null = input.activity
      ? { ...compact(input.activity), name: application.name, application_id: application.id, created_at: now }
      : null;
    await applyPresence(tx, emit, input.userId, now, (current) => {
      const others = current.activities.filter((a) => a.application_id !== input.applicationId);
      return { ...current, activities: activity ? [...others, activity] : others };
    });
    return activity;
  });
}

/**
 * Clears the activity `applicationId` shows for `userId` through {@link setActivity}, when it
 * shows one; resolves true when it did. What a stopped activity frame leaves behind.
 */
export async function clearActivity(ctx: PlatformContext, userId: string, applicationId: string): Promise<boolean> {
  const presence = await ctx.db.get('presences', userId);
  if (!presence?.activities.some((a) => a.application_id === applicationId)) return false;
  await setActivity(ctx, { userId, applicationId, activity: null });
  return true;
}

/** How many members of a guild are online (a connected session others can see). */
export async function countOnlineMembers(ctx: PlatformContext, guildId: string): Promise<number> {
  const tx = ctx.db.transaction(['members', 'presences']);
  const members = await tx.objectStore('members').getAll(IDBKeyRange.bound([guildId, ''], [guildId, '\uffff']));
  const presences = await Promise.all(members.map((m) => tx.objectStore('presences').get(m.user_id)));
  return presences.filter((p) => shownStatus(p?.sessions) !== 'offline').length;
}

/** The activity without the keys left unset, so stored and dispatched objects stay small. */
function compact(activity: ActivityInput): Omit<PresenceActivity, 'name' | 'application_id' | 'created_at'> {
  return Object.fromEntries(Object.entries(activity).filter(([, value]) => value !== undefined)) as Omit<
    PresenceActivity,
    'name' | 'application_id' | 'created_at'
  >;
}
