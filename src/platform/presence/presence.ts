/**
 * Presence: one record per user. Its status comes from the user's connected gateway sessions
 * (`sessions`, kept by the gateway: see `presence/shown.ts` for how they add up); its rich
 * presence is the activity each application shows (spec: Activity record; SET_ACTIVITY accepts
 * types Playing 0, Listening 2, Watching 3 and Competing 5), at most one per application. A
 * change of what others see emits PRESENCE_UPDATE (`presence/write.ts`).
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { RICH_PRESENCE_TEXT_MAX, RICH_PRESENCE_URL_MAX } from '../core/limits';
import { shownStatus } from './shown';
import { applyPresence, PRESENCE_STORES } from './write';
import type { PresenceRecord } from '../../store/records/presence';
import { keyRange } from '../../store/port';
import { SET_ACTIVITY_TYPES } from '../../wire/rich-presence';
import { type PresenceActivity } from '../../store/records/presence';

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

/** A party size: a positive integer JavaScript holds exactly. */
const partySize = v.pipe(v.number(), v.safeInteger(), v.minValue(1));

const timestamp = v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0)));

/**
 * What SET_ACTIVITY (and `PUT /users/@me/activities`) accepts. `type` is one of 0, 2, 3, 5;
 * the `*_url` fields are the links of the state text, details text, large and small image.
 * Keys the platform does not take (`name`, which comes from the application) are dropped.
 */
export const ActivityInputSchema = jsonObject({
  type: v.optional(
    v.picklist(SET_ACTIVITY_TYPES, 'Activity type must be Playing (0), Listening (2), Watching (3) or Competing (5).'),
    0,
  ),
  state: text,
  state_url: link,
  details: text,
  details_url: link,
  status_display_type: v.nullish(v.picklist([0, 1, 2], 'Must be 0 (name), 1 (state) or 2 (details).')),
  timestamps: v.nullish(jsonObject({ start: timestamp, end: timestamp })),
  assets: v.nullish(
    jsonObject({
      large_image: text,
      large_text: text,
      large_url: link,
      small_image: text,
      small_text: text,
      small_url: link,
    }),
  ),
  party: v.nullish(
    jsonObject({
      id: text,
      size: v.nullish(
        v.pipe(
          v.tuple([partySize, partySize]),
          v.check(([current, max]) => current <= max, 'The current size must not exceed the maximum.'),
        ),
      ),
    }),
  ),
  secrets: v.nullish(
    jsonObject({
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
    const application = await tx.store('applications').get(input.applicationId);
    if (!application) throw ApiError.of('UNKNOWN_APPLICATION');
    if (!(await tx.store('users').get(input.userId))) throw ApiError.of('UNKNOWN_USER');
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
  const tx = ctx.db.read(['members', 'presences']);
  const members = await tx.store('members').getAll(keyRange.bound([guildId, ''], [guildId, '\uffff']));
  const presences = await Promise.all(members.map((m) => tx.store('presences').get(m.user_id)));
  return presences.filter((p) => shownStatus(p?.sessions) !== 'offline').length;
}

/** The activity without the keys left unset, so stored and dispatched objects stay small. */
function compact(activity: ActivityInput): Omit<PresenceActivity, 'name' | 'application_id' | 'created_at'> {
  return Object.fromEntries(Object.entries(activity).filter(([, value]) => value !== undefined)) as Omit<
    PresenceActivity,
    'name' | 'application_id' | 'created_at'
  >;
}

/** `activity: null` clears the application's activity. */
export const PutActivitySchema = jsonObject({ activity: v.nullable(ActivityInputSchema) });
