/**
 * Request schemas of the guilds area: guild, role and member routes, pruning, scheduled events,
 * the audit log, guild emoji, and the sandbox's guild fixtures (guilds, members, roles, channels)
 * and guild controls. The routes validate with them before any rule runs (ARCHITECTURE rule 4).
 */
import * as v from 'valibot';
import {
  AUDIT_LOG_LIMIT_DEFAULT,
  GUILD_MEMBERS_SEARCH_MAX,
  GUILD_MEMBERS_SEARCH_QUERY_MAX,
  GUILD_NAME_MAX,
  GUILD_NAME_MIN,
  BAN_DELETE_MESSAGE_SECONDS_MAX,
  BULK_BAN_USERS_MAX,
  GUILD_BANS_LIST_MAX,
  GUILD_ROLES_MAX,
  AUDIT_LOG_LIMIT_MAX,
  GUILD_MEMBERS_LIST_MAX,
  MEMBER_BIO_MAX,
  MEMBER_NICK_MAX,
  PRUNE_DAYS_DEFAULT,
  PRUNE_DAYS_MAX,
  PRUNE_DAYS_MIN,
  SCHEDULED_EVENT_DESCRIPTION_MAX,
  SCHEDULED_EVENT_LOCATION_MAX,
  SCHEDULED_EVENT_NAME_MAX,
  SLOWMODE_MAX_S,
} from '../core/limits';
import { parsePermissions } from '../core/permissions';
import { jsonObject } from '../core/json-object';
import { bitSetSchema, bodyInt, flagsInt, isoInstant, queryInt, snowflakeSchema } from '../core/schema-parts';
import { EmojiImageSchema, EmojiNameSchema } from '../accounts/schemas';
import { STAGE_USER_LIMIT_MAX, VOICE_BITRATE_MAX, VOICE_BITRATE_MIN } from './voice-channel-settings';

/** A guild route's path: the guild, and the member or role it names. */
export const GuildPathSchema = v.object({
  guild_id: snowflakeSchema,
  user_id: v.optional(snowflakeSchema),
  role_id: v.optional(snowflakeSchema),
});

/** `GET /guilds/{guild.id}/members`: a page of members after a user id. */
export const GuildMembersQuerySchema = v.object({
  limit: v.optional(queryInt(1, GUILD_MEMBERS_LIST_MAX), '1'),
  after: v.optional(snowflakeSchema, '0'),
});

/** `GET /users/@me/guilds`: a page of the user's guilds, with counts when asked. */
export const CurrentUserGuildsQuerySchema = v.object({
  before: v.optional(snowflakeSchema),
  after: v.optional(snowflakeSchema),
  limit: v.optional(queryInt(1, 200), '200'),
  with_counts: v.optional(
    v.pipe(
      v.picklist(['true', 'false']),
      v.transform((s) => s === 'true'),
    ),
    'false',
  ),
});

/** `GET /guilds/{guild.id}`: `with_counts` as the platform reads a boolean query string (`true`/`True`/`1`, `false`/`False`/`0`). */
export const GetGuildQuerySchema = v.object({
  with_counts: v.optional(
    v.pipe(
      v.picklist(['true', 'True', '1', 'false', 'False', '0'], 'Must be true or false.'),
      v.transform((s) => s === 'true' || s === 'True' || s === '1'),
    ),
    'false',
  ),
});

const color = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffff));

/** `PATCH /guilds/{guild.id}/roles/{role.id}`: what changes (permissions as a decimal string, gradient colors). */
export const ModifyRoleSchema = jsonObject({
  name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
  permissions: v.optional(
    v.pipe(
      v.string('Must be a decimal string.'),
      v.check((s) => parsePermissions(s) !== null, 'Must be a decimal string of a 64-bit bit set.'),
      v.transform((s) => parsePermissions(s)!),
    ),
  ),
  // Deprecated but honored: the role's primary colour.
  color: v.optional(v.nullable(color)),
  colors: v.optional(
    jsonObject({
      primary_color: v.optional(color),
      secondary_color: v.optional(v.nullable(color)),
      tertiary_color: v.optional(v.nullable(color)),
    }),
  ),
  hoist: v.optional(v.boolean()),
  mentionable: v.optional(v.boolean()),
});

/** `POST /guilds/{guild.id}/roles`: the fields of a new role, each optional (defaults as on the platform). */
export const CreateRoleSchema = ModifyRoleSchema;

/** `PATCH /guilds/{guild.id}/roles`: roles and the positions they move to. */
export const RolePositionsSchema = v.array(
  jsonObject({
    id: snowflakeSchema,
    position: v.optional(v.nullable(bodyInt(0, GUILD_ROLES_MAX))),
  }),
  'Must be an array of {id, position}.',
);

const deleteMessageSeconds = v.optional(bodyInt(0, BAN_DELETE_MESSAGE_SECONDS_MAX), 0);

/** `PUT /guilds/{guild.id}/bans/{user.id}`: how many seconds of the user's messages to delete. */
export const BanMemberSchema = jsonObject({ delete_message_seconds: deleteMessageSeconds });

/** `POST /guilds/{guild.id}/bulk-ban`: 1 to 200 users, and the seconds of messages to delete. */
export const BulkBanSchema = jsonObject({
  user_ids: v.pipe(
    v.array(snowflakeSchema, 'This field is required'),
    v.minLength(1, `Must be between 1 and ${BULK_BAN_USERS_MAX} in length.`),
    v.maxLength(BULK_BAN_USERS_MAX, `Must be between 1 and ${BULK_BAN_USERS_MAX} in length.`),
  ),
  delete_message_seconds: deleteMessageSeconds,
});

/** `GET /guilds/{guild.id}/bans`: a page of bans by user id. */
export const GuildBansQuerySchema = v.object({
  before: v.optional(snowflakeSchema),
  after: v.optional(snowflakeSchema),
  limit: v.optional(queryInt(1, GUILD_BANS_LIST_MAX), String(GUILD_BANS_LIST_MAX)),
});

/** Modify Guild settings of the public docs that the sandbox's guild object does not keep (yet). */
export const GUILD_SETTINGS_NOT_KEPT = [
  'region',
  'verification_level',
  'default_message_notifications',
  'explicit_content_filter',
  'afk_channel_id',
  'afk_timeout',
  'splash',
  'discovery_splash',
  'system_channel_id',
  'system_channel_flags',
  'rules_channel_id',
  'public_updates_channel_id',
  'preferred_locale',
  'features',
  'description',
  'premium_progress_bar_enabled',
  'safety_alerts_channel_id',
] as const;

const notKept = v.optional(v.never('The sandbox does not keep this guild setting: see docs/http-api.md.'));

/** `PATCH /guilds/{guild.id}`: name, icon, banner, owner; the other documented settings are refused. */
export const ModifyGuildSchema = jsonObject({
  name: v.optional(
    v.pipe(
      v.string('Must be a string.'),
      v.trim(),
      v.minLength(GUILD_NAME_MIN, `Must be between ${GUILD_NAME_MIN} and ${GUILD_NAME_MAX} in length.`),
      v.maxLength(GUILD_NAME_MAX, `Must be between ${GUILD_NAME_MIN} and ${GUILD_NAME_MAX} in length.`),
    ),
  ),
  icon: v.optional(v.nullable(v.string('Must be a data URI or null.'))),
  banner: v.optional(v.nullable(v.string('Must be a data URI or null.'))),
  owner_id: v.optional(snowflakeSchema),
  ...(Object.fromEntries(GUILD_SETTINGS_NOT_KEPT.map((key) => [key, notKept])) as Record<
    (typeof GUILD_SETTINGS_NOT_KEPT)[number],
    typeof notKept
  >),
});

/** A guild administration route's path: the guild, and the member it names. */
export const GuildMemberPathSchema = v.object({ guild_id: snowflakeSchema, user_id: v.optional(snowflakeSchema) });

/** An instant that exists (no February 30th), as epoch ms. */
const timestamp = isoInstant;

const text = (max: number) => v.pipe(v.string(), v.maxLength(max, `Must be ${max} or fewer in length.`));

/** `POST /guilds` (removed for apps from 2025-07-15): the guild's name. */
export const CreateGuildSchema = jsonObject({
  name: v.pipe(
    v.string('This field is required'),
    v.trim(),
    v.minLength(2, 'Must be between 2 and 100 in length.'),
    v.maxLength(100, 'Must be between 2 and 100 in length.'),
  ),
});

/** `GET /guilds/{guild.id}/prune`: inactive days, and the roles whose members may be pruned too. */
export const PruneQuerySchema = v.object({
  days: v.optional(queryInt(PRUNE_DAYS_MIN, PRUNE_DAYS_MAX), String(PRUNE_DAYS_DEFAULT)),
  include_roles: v.optional(
    v.pipe(
      v.string(),
      v.transform((s) =>
        s
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      ),
      v.array(snowflakeSchema),
    ),
    '',
  ),
});

/** `POST /guilds/{guild.id}/prune`. */
export const PruneSchema = jsonObject({
  days: v.optional(v.nullable(bodyInt(PRUNE_DAYS_MIN, PRUNE_DAYS_MAX)), PRUNE_DAYS_DEFAULT),
  compute_prune_count: v.optional(v.nullable(v.boolean()), true),
  // The platform's form is an array; a comma-separated string (the query's form) is taken too.
  include_roles: v.optional(
    v.nullable(
      v.union([
        v.array(snowflakeSchema),
        v.pipe(
          v.string(),
          v.transform((s) =>
            s
              .split(',')
              .map((id) => id.trim())
              .filter(Boolean),
          ),
          v.array(snowflakeSchema),
        ),
      ]),
    ),
    [],
  ),
  reason: v.optional(v.string()),
});

/** `PATCH /guilds/{guild.id}/members/{user.id}`. */
export const ModifyMemberSchema = jsonObject({
  nick: v.optional(v.nullable(text(MEMBER_NICK_MAX))),
  roles: v.optional(v.nullable(v.array(snowflakeSchema))),
  mute: v.optional(v.nullable(v.boolean())),
  deaf: v.optional(v.nullable(v.boolean())),
  channel_id: v.optional(v.nullable(snowflakeSchema)),
  communication_disabled_until: v.optional(v.nullable(timestamp)),
  flags: v.optional(v.nullable(flagsInt())),
});

/** `GET /guilds/{guild.id}/members/search`: the name prefix, and 1 to 1000 members (1 unless given). */
export const GuildMembersSearchQuerySchema = v.object({
  query: v.pipe(
    v.string('This field is required'),
    v.maxLength(GUILD_MEMBERS_SEARCH_QUERY_MAX, `Must be ${GUILD_MEMBERS_SEARCH_QUERY_MAX} or fewer in length.`),
  ),
  limit: v.optional(queryInt(1, GUILD_MEMBERS_SEARCH_MAX), '1'),
});

/** `PUT /guilds/{guild.id}/members/{user.id}`: the user's access token (`guilds.join`) and what they join with. */
export const AddGuildMemberSchema = jsonObject({
  access_token: v.pipe(v.string('This field is required'), v.minLength(1, 'This field is required')),
  nick: v.optional(v.nullable(text(MEMBER_NICK_MAX))),
  roles: v.optional(v.nullable(v.array(snowflakeSchema))),
  mute: v.optional(v.nullable(v.boolean())),
  deaf: v.optional(v.nullable(v.boolean())),
});

/** `PATCH /guilds/{guild.id}/members/@me`: bots may set their nick, avatar, banner and bio. */
export const ModifyCurrentMemberSchema = jsonObject({
  nick: v.optional(v.nullable(text(MEMBER_NICK_MAX))),
  avatar: v.optional(v.nullable(v.string())),
  banner: v.optional(v.nullable(v.string())),
  bio: v.optional(v.nullable(text(MEMBER_BIO_MAX))),
});

/** `POST /guilds/{guild.id}/scheduled-events`. */
export const CreateScheduledEventSchema = jsonObject({
  name: v.pipe(v.string('This field is required'), v.minLength(1), v.maxLength(SCHEDULED_EVENT_NAME_MAX)),
  description: v.optional(v.nullable(text(SCHEDULED_EVENT_DESCRIPTION_MAX))),
  privacy_level: v.optional(v.literal(2, 'Must be 2 (GUILD_ONLY).'), 2),
  entity_type: v.picklist([1, 2, 3], 'Must be 1 (stage), 2 (voice) or 3 (external).'),
  channel_id: v.optional(v.nullable(snowflakeSchema)),
  entity_metadata: v.optional(
    v.nullable(
      jsonObject({
        location: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(SCHEDULED_EVENT_LOCATION_MAX))),
      }),
    ),
  ),
  scheduled_start_time: timestamp,
  scheduled_end_time: v.optional(v.nullable(timestamp)),
});

/** `GET /guilds/{guild.id}/audit-logs`: filter by user and action, page by entry id. */
export const AuditLogQuerySchema = v.object({
  user_id: v.optional(snowflakeSchema),
  action_type: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'Value is not int.'), v.transform(Number))),
  before: v.optional(snowflakeSchema),
  after: v.optional(snowflakeSchema),
  limit: v.optional(queryInt(1, AUDIT_LOG_LIMIT_MAX), String(AUDIT_LOG_LIMIT_DEFAULT)),
});

/** `POST /guilds/{guild.id}/emojis`: the name, the image and the roles allowed to use it. */
export const CreateGuildEmojiSchema = jsonObject({
  name: EmojiNameSchema,
  image: EmojiImageSchema,
  roles: v.optional(v.nullable(v.array(snowflakeSchema)), []),
});

/** `PATCH /guilds/{guild.id}/emojis/{emoji.id}`: a new name and/or the roles allowed (null: everyone). */
export const ModifyGuildEmojiSchema = jsonObject({
  name: v.optional(EmojiNameSchema),
  roles: v.optional(v.nullable(v.array(snowflakeSchema))),
});

/** `POST /sandbox/invites/{code}/accept`: the user who accepts it. */
export const SandboxAcceptInviteSchema = jsonObject({ user_id: snowflakeSchema });

/** `PUT /sandbox/users/{user.id}/primary-guild`: the guild tag the user shows. */
export const SandboxPrimaryGuildSchema = jsonObject({
  guild_id: snowflakeSchema,
  tag: v.string('Must be a string.'),
  badge: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(64)))),
});

/** `PUT /sandbox/guilds/{guild.id}/premium-tier`: the guild's boost level, 0 to 3. */
export const PremiumTierSchema = jsonObject({ premium_tier: v.picklist([0, 1, 2, 3], 'Must be 0, 1, 2 or 3.') });

/** `POST /sandbox/guilds` (CONTRACT §3): a guild, its owner and its features. */
export const SandboxGuildSchema = jsonObject({
  name: v.pipe(
    v.string(),
    v.minLength(2, 'Must be between 2 and 100 in length.'),
    v.maxLength(100, 'Must be between 2 and 100 in length.'),
  ),
  owner_id: snowflakeSchema,
  features: v.optional(v.array(v.string())),
});

/** `PUT /sandbox/guilds/{guild.id}/members/{user.id}` (CONTRACT §3): roles and nick of a member (bots too). */
export const SandboxMemberSchema = jsonObject({
  roles: v.optional(v.array(snowflakeSchema)),
  nick: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(32)))),
});

/** `POST /sandbox/guilds/{guild.id}/roles` (CONTRACT §3). */
export const SandboxRoleSchema = jsonObject({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  permissions: bitSetSchema,
  // Deprecated but honored, as on the role routes.
  color: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffff)))),
  colors: v.optional(
    jsonObject({
      primary_color: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffff)),
      secondary_color: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffff)))),
      tertiary_color: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffff)))),
    }),
  ),
});

/** `POST /sandbox/guilds/{guild.id}/channels` (CONTRACT §3): a guild channel with its overwrites. */
export const SandboxChannelSchema = jsonObject({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  type: v.picklist([0, 2, 4, 5, 13, 15], 'Value is not a guild channel type.'),
  parent_id: v.optional(v.nullable(snowflakeSchema)),
  permission_overwrites: v.optional(
    v.array(jsonObject({ id: snowflakeSchema, type: v.picklist([0, 1]), allow: bitSetSchema, deny: bitSetSchema })),
  ),
  rate_limit_per_user: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(SLOWMODE_MAX_S))),
  // The type and the guild's boost level narrow these further (voice-channel-settings.ts).
  bitrate: v.optional(v.pipe(v.number(), v.integer(), v.minValue(VOICE_BITRATE_MIN), v.maxValue(VOICE_BITRATE_MAX))),
  user_limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(STAGE_USER_LIMIT_MAX))),
});
