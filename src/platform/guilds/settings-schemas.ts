/**
 * Request schemas of a guild's settings routes: welcome screen, widget, onboarding, incident
 * actions and the widget image's query, with the limits of the platform's public docs and its
 * official API description. Routes validate with them before any rule runs.
 */
import * as v from 'valibot';
import {
  INVITE_TARGET_USERS_BULK_MAX,
  ONBOARDING_DEFAULT_CHANNELS_MAX,
  ONBOARDING_OPTION_DESCRIPTION_MAX,
  ONBOARDING_OPTION_IDS_MAX,
  ONBOARDING_OPTION_TITLE_MAX,
  ONBOARDING_OPTIONS_MAX,
  ONBOARDING_PROMPT_TITLE_MAX,
  ONBOARDING_PROMPTS_MAX,
  WELCOME_CHANNEL_DESCRIPTION_MAX,
  WELCOME_SCREEN_CHANNELS_MAX,
  WELCOME_SCREEN_DESCRIPTION_MAX,
} from '../core/limits';
import { jsonObject } from '../core/json-object';
import { isoInstant, snowflakeSchema } from '../core/schema-parts';

const text = (max: number) => v.pipe(v.string(), v.maxLength(max, `Must be ${max} or fewer in length.`));
const requiredText = (max: number) =>
  v.pipe(
    v.string('This field is required'),
    v.minLength(1, 'Must be 1 or more in length.'),
    v.maxLength(max, `Must be ${max} or fewer in length.`),
  );
const ids = (max: number) => v.pipe(v.array(snowflakeSchema), v.maxLength(max, `Must be ${max} or fewer in length.`));

/** A guild settings route's path. */
export const GuildSettingsPathSchema = v.object({
  guild_id: snowflakeSchema,
  integration_id: v.optional(snowflakeSchema),
});

/** `PATCH /guilds/{guild.id}/welcome-screen`. */
export const ModifyWelcomeScreenSchema = jsonObject({
  enabled: v.optional(v.nullable(v.boolean())),
  description: v.optional(v.nullable(text(WELCOME_SCREEN_DESCRIPTION_MAX))),
  welcome_channels: v.optional(
    v.nullable(
      v.pipe(
        v.array(
          jsonObject({
            channel_id: snowflakeSchema,
            description: requiredText(WELCOME_CHANNEL_DESCRIPTION_MAX),
            emoji_id: v.optional(v.nullable(snowflakeSchema)),
            emoji_name: v.optional(v.nullable(text(100))),
          }),
        ),
        v.maxLength(WELCOME_SCREEN_CHANNELS_MAX, `Must be ${WELCOME_SCREEN_CHANNELS_MAX} or fewer in length.`),
      ),
    ),
  ),
  reason: v.optional(v.string()),
});

/** `PATCH /guilds/{guild.id}/widget`. */
export const ModifyWidgetSchema = jsonObject({
  enabled: v.optional(v.nullable(v.boolean())),
  channel_id: v.optional(v.nullable(snowflakeSchema)),
});

/** `GET /guilds/{guild.id}/widget.png?style=`: shield (the default) or banner1-4. */
export const WidgetImageQuerySchema = v.object({
  style: v.optional(
    v.picklist(['shield', 'banner1', 'banner2', 'banner3', 'banner4'], 'Must be shield or banner1 to banner4.'),
    'shield',
  ),
});

const OnboardingOptionSchema = jsonObject({
  id: v.optional(v.nullable(snowflakeSchema)),
  title: requiredText(ONBOARDING_OPTION_TITLE_MAX),
  description: v.optional(v.nullable(text(ONBOARDING_OPTION_DESCRIPTION_MAX))),
  emoji_id: v.optional(v.nullable(snowflakeSchema)),
  emoji_name: v.optional(v.nullable(text(100))),
  emoji_animated: v.optional(v.nullable(v.boolean())),
  role_ids: v.optional(v.nullable(ids(ONBOARDING_OPTION_IDS_MAX))),
  channel_ids: v.optional(v.nullable(ids(ONBOARDING_OPTION_IDS_MAX))),
});

/** `PUT /guilds/{guild.id}/onboarding`. */
export const ModifyOnboardingSchema = jsonObject({
  prompts: v.optional(
    v.nullable(
      v.pipe(
        v.array(
          jsonObject({
            id: snowflakeSchema,
            title: requiredText(ONBOARDING_PROMPT_TITLE_MAX),
            options: v.pipe(
              v.array(OnboardingOptionSchema),
              v.minLength(1, 'Must be 1 or more in length.'),
              v.maxLength(ONBOARDING_OPTIONS_MAX, `Must be ${ONBOARDING_OPTIONS_MAX} or fewer in length.`),
            ),
            single_select: v.optional(v.nullable(v.boolean())),
            required: v.optional(v.nullable(v.boolean())),
            in_onboarding: v.optional(v.nullable(v.boolean())),
            type: v.optional(v.nullable(v.picklist([0, 1], 'Must be 0 (multiple choice) or 1 (dropdown).'))),
          }),
        ),
        v.maxLength(ONBOARDING_PROMPTS_MAX, `Must be ${ONBOARDING_PROMPTS_MAX} or fewer in length.`),
      ),
    ),
  ),
  default_channel_ids: v.optional(v.nullable(ids(ONBOARDING_DEFAULT_CHANNELS_MAX))),
  enabled: v.optional(v.nullable(v.boolean())),
  mode: v.optional(v.nullable(v.picklist([0, 1], 'Must be 0 (default) or 1 (advanced).'))),
});

/** `PUT /guilds/{guild.id}/incident-actions`: ISO-8601 instants, or null to lift a pause. */
export const IncidentActionsSchema = jsonObject({
  invites_disabled_until: v.optional(v.nullable(isoInstant)),
  dms_disabled_until: v.optional(v.nullable(isoInstant)),
});

/** `POST /invites/{code}/target-users/bulk-add` and `bulk-delete`: 1 to 1000 user ids. */
export const TargetUsersBulkSchema = jsonObject({
  user_ids: v.pipe(
    v.array(snowflakeSchema, 'This field is required'),
    v.minLength(1, 'Must be 1 or more in length.'),
    v.maxLength(INVITE_TARGET_USERS_BULK_MAX, `Must be ${INVITE_TARGET_USERS_BULK_MAX} or fewer in length.`),
  ),
});
