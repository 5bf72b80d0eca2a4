/**
 * Quests: the platform's staff make them, so here they are sandbox records
 * (`POST /sandbox/quests`). A user enrolls (`POST /sandbox/quests/{id}/enrollments`, the
 * platform's quest page), which records QUEST_USER_ENROLLMENT for the application's webhooks
 * and tells the user's client, so that a running activity hears QUEST_ENROLLMENT_STATUS_UPDATE.
 * Enrolling in a quest nobody created makes it, with the application and name given: an
 * enrollment is all an application's webhooks ever show of a quest.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import { isoInstant, snowflakeSchema } from '../core/schema-parts';
import { write } from '../../store/write';
import type { QuestEnrollmentRecord } from '../../store/schema';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { QUEST_NAME_MAX, QUEST_PLAY_SECONDS_DEFAULT, QUEST_PLAY_SECONDS_MAX, WEBHOOK_URL_MAX } from '../core/limits';
import { serializeUser } from '../accounts/users';
import { clientAudience } from './client-events';
import type { QuestRecord } from '../../store/records/activities';

const snowflake = snowflakeSchema;

/** `POST /sandbox/quests`. */
export const QuestCreateSchema = jsonObject({
  application_id: snowflake,
  name: v.pipe(v.string('Must be a string.'), v.trim(), v.minLength(1, 'Required.'), v.maxLength(QUEST_NAME_MAX)),
  external_cta_url: v.optional(
    v.pipe(
      v.string('Must be a URL.'),
      v.maxLength(WEBHOOK_URL_MAX),
      v.check((s) => /^https?:\/\//i.test(s) && URL.canParse(s), 'Must be an http or https URL.'),
    ),
  ),
  play_seconds: v.optional(
    v.pipe(
      v.number('Must be a number of seconds.'),
      v.integer('Must be a whole number of seconds.'),
      v.minValue(1, 'Must be at least 1.'),
      v.maxValue(QUEST_PLAY_SECONDS_MAX, `Must be at most ${QUEST_PLAY_SECONDS_MAX}.`),
    ),
    QUEST_PLAY_SECONDS_DEFAULT,
  ),
  expires_at: v.optional(v.nullable(isoInstant), null),
});
/** A validated quest creation. */
export type QuestCreateInput = v.InferOutput<typeof QuestCreateSchema>;

/** Where a quest's call to action leads unless the sandbox says otherwise: its page on the platform. */
export function defaultQuestCtaUrl(questId: string): string {
  return `https://discord.com/quests/${questId}`;
}

/** The quest as the sandbox control API answers it. */
export function serializeQuest(record: QuestRecord) {
  return {
    id: record.id,
    application_id: record.application_id,
    name: record.name,
    external_cta_url: record.external_cta_url,
    play_seconds: record.play_seconds,
    expires_at: record.expires_at === null ? null : new Date(record.expires_at).toISOString(),
    created_at: new Date(record.created_at).toISOString(),
  };
}

/** The QUEST_USER_ENROLLMENT payload (its shape is not shown by the spec: ours). */
export function serializeQuestEnrollment(record: QuestEnrollmentRecord) {
  return {
    quest_id: record.quest_id,
    quest_name: record.quest_name,
    application_id: record.application_id,
    user_id: record.user_id,
    enrolled_at: new Date(record.enrolled_at).toISOString(),
  };
}

/**
 * Creates a quest of an application (an unknown application is 404 / 10002).
 * @example const quest = await createQuest(ctx, { application_id, name: 'Win 3 matches', play_seconds: 900, expires_at: null });
 */
export async function createQuest(ctx: PlatformContext, input: QuestCreateInput): Promise<QuestRecord> {
  return write(ctx, ['applications', 'quests'], async (tx) => {
    if (!(await tx.store('applications').get(input.application_id))) throw ApiError.of('UNKNOWN_APPLICATION');
    const id = ctx.ids.next();
    const quest: QuestRecord = {
      id,
      application_id: input.application_id,
      name: input.name,
      external_cta_url: input.external_cta_url ?? defaultQuestCtaUrl(id),
      play_seconds: input.play_seconds,
      expires_at: input.expires_at,
      created_at: ctx.clock.now(),
    };
    await tx.store('quests').add(quest);
    return quest;
  });
}

/**
 * Enrolls a user in a quest of an application: records QUEST_USER_ENROLLMENT for the
 * application's webhooks and QUEST_ENROLLMENT_STATUS_UPDATE for the user's client. A quest of
 * another application is 400 / 50035 naming `quest_id`; an unknown quest is made with
 * `quest_name`. Enrolling again in the same quest changes nothing and records no event.
 * Resolves to the enrollment and whether it is new.
 * @example await enrollInQuest(ctx, { application_id, user_id, quest_id: '1', quest_name: 'Win a match' });
 */
export async function enrollInQuest(
  ctx: PlatformContext,
  input: { application_id: string; user_id: string; quest_id: string; quest_name: string },
): Promise<{ enrollment: QuestEnrollmentRecord; created: boolean }> {
  return write(ctx, ['users', 'applications', 'quests', 'quest_enrollments'], async (tx, emit) => {
    const user = await tx.store('users').get(input.user_id);
    if (!user) throw ApiError.of('UNKNOWN_USER');
    if (!(await tx.store('applications').get(input.application_id))) throw ApiError.of('UNKNOWN_APPLICATION');
    const now = ctx.clock.now();
    let quest = await tx.store('quests').get(input.quest_id);
    if (quest && quest.application_id !== input.application_id)
      throw ApiError.invalidForm({ quest_id: 'This quest belongs to another application.' });
    if (!quest) {
      quest = {
        id: input.quest_id,
        application_id: input.application_id,
        name: input.quest_name,
        external_cta_url: defaultQuestCtaUrl(input.quest_id),
        play_seconds: QUEST_PLAY_SECONDS_DEFAULT,
        expires_at: null,
        created_at: now,
      };
      await tx.store('quests').add(quest);
    }
    const existing = await tx.store('quest_enrollments').get([input.quest_id, input.user_id]);
    if (existing) return { enrollment: existing, created: false };
    const enrollment: QuestEnrollmentRecord = {
      quest_id: quest.id,
      user_id: user.id,
      application_id: quest.application_id,
      quest_name: quest.name,
      enrolled_at: now,
    };
    await tx.store('quest_enrollments').add(enrollment);
    emit({
      type: 'QUEST_USER_ENROLLMENT',
      data: { ...serializeQuestEnrollment(enrollment), user: serializeUser(user) },
      audience: { application_id: input.application_id },
      channels: ['webhook'],
    });
    emit({
      type: 'QUEST_ENROLLMENT_STATUS_UPDATE',
      data: {
        user_id: user.id,
        application_id: quest.application_id,
        quest_id: quest.id,
        is_enrolled: true,
        enrolled_at: new Date(now).toISOString(),
      },
      audience: clientAudience(user.id, quest.application_id),
    });
    return { enrollment, created: true };
  });
}
