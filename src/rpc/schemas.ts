/**
 * Validation at the RPC edge (ARCHITECTURE rule 4): the HANDSHAKE, the FRAME envelope and each
 * command's and subscription's arguments go through a valibot schema before any handler sees
 * them. A failure is ERROR 4000 naming each bad field.
 */
import * as v from 'valibot';
import { ApiError } from '../platform/core/errors';
import { snowflakeSchema } from '../platform/core/schema-parts';
import { ActivityInputSchema } from '../platform/presence/presence';
import {
  RPC_GET_USER_ID_MAX,
  RPC_INVITE_CONTENT_MAX,
  RPC_SHARE_BUTTON_CUSTOM_ID_MAX,
  RPC_SHARE_BUTTON_LABEL_MAX,
  RPC_SHARE_BUTTONS_PER_ROW_MAX,
  RPC_SHARE_INTERACTION_CONTENT_MAX,
  RPC_SHARE_MEDIA_URL_MAX,
} from '../platform/core/limits';
import type { Command, SubscribableEvent } from './protocol';

/**
 * An id: a string, or a number as the platform takes it. Frames arrive as structured values, not
 * JSON text: a number beyond 2^53 already lost its digits in the activity, and is refused saying so.
 */
const snowflake = snowflakeSchema;
/** Commands without arguments take nothing: the public SDK sends `args: undefined` or `{}`. */
const none = v.optional(v.looseObject({}), {});
const lockState = v.picklist([1, 2, 3], 'Must be 1 (unlocked), 2 (portrait) or 3 (landscape).');
const maxLength = (max: number) =>
  v.pipe(v.string('Must be a string.'), v.maxLength(max, `Must be ${max} or fewer in length.`));
/** A quest id: the public SDK takes any string; one that names no quest is "Quest not found". */
const questId = v.object({
  quest_id: v.pipe(v.string('Required: the quest id.'), v.minLength(1, 'Required.'), v.maxLength(RPC_GET_USER_ID_MAX)),
});
/** SHARE_INTERACTION's preview buttons: action rows of up to 5 buttons (styles 1 to 5). */
const shareButtonRows = v.array(
  v.object({
    type: v.literal(1, 'Must be 1 (an action row).'),
    components: v.optional(
      v.pipe(
        v.array(
          v.object({
            type: v.literal(2, 'Must be 2 (a button).'),
            style: v.pipe(v.number('Must be a number.'), v.integer(), v.minValue(1), v.maxValue(5, 'Must be 1 to 5.')),
            label: v.optional(maxLength(RPC_SHARE_BUTTON_LABEL_MAX)),
            custom_id: v.optional(maxLength(RPC_SHARE_BUTTON_CUSTOM_ID_MAX)),
          }),
        ),
        v.maxLength(RPC_SHARE_BUTTONS_PER_ROW_MAX, `Must be ${RPC_SHARE_BUTTONS_PER_ROW_MAX} or fewer in length.`),
      ),
    ),
  }),
);

/** The HANDSHAKE payload. */
export const HandshakeSchema = v.object({
  v: v.literal(1, 'Must be 1.'),
  encoding: v.optional(v.literal('json', 'Must be "json".')),
  client_id: v.pipe(v.string('Must be a string.'), v.minLength(1, 'Required.')),
  frame_id: v.pipe(v.string('Must be a string.'), v.minLength(1, 'Required.')),
  sdk_version: v.optional(v.string('Must be a string.')),
});

/** A command FRAME's envelope. */
export const CommandFrameSchema = v.object({
  cmd: v.string('Must be a command name.'),
  nonce: v.pipe(v.string('Must be a string.'), v.minLength(1, 'Required.')),
  args: v.optional(v.unknown()),
  evt: v.optional(v.nullable(v.string('Must be an event name.'))),
});

/** Each command's arguments. */
export const COMMAND_ARGS = {
  AUTHORIZE: v.object({
    client_id: snowflake,
    scope: v.union([v.array(v.string()), v.string()], 'Must be a list of scopes (or a space-separated string).'),
    response_type: v.optional(v.literal('code', 'Must be "code".')),
    state: v.optional(v.string()),
    prompt: v.optional(v.picklist(['none', 'consent'], 'Must be "none" or "consent".')),
    code_challenge: v.optional(v.string()),
    code_challenge_method: v.optional(v.picklist(['S256', 'plain'], 'Must be "S256" or "plain".')),
  }),
  AUTHENTICATE: v.object({
    access_token: v.pipe(v.string('Required: the access token to authenticate with.'), v.minLength(1, 'Required.')),
  }),
  SUBSCRIBE: none,
  UNSUBSCRIBE: none,
  // `activity: null` (or no activity) clears the application's activity.
  SET_ACTIVITY: v.object({ activity: v.nullish(ActivityInputSchema, null), pid: v.optional(v.number()) }),
  GET_CHANNEL: v.object({ channel_id: snowflake }),
  GET_CHANNEL_PERMISSIONS: none,
  GET_SKUS_EMBEDDED: none,
  GET_ENTITLEMENTS_EMBEDDED: none,
  GET_PLATFORM_BEHAVIORS: none,
  USER_SETTINGS_GET_LOCALE: none,
  GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS: none,
  OPEN_EXTERNAL_LINK: v.object({
    url: v.pipe(
      v.string('Must be a URL.'),
      v.check((s) => /^https?:\/\//i.test(s) && URL.canParse(s), 'Must be an http or https URL.'),
    ),
  }),
  OPEN_INVITE_DIALOG: none,
  // `referrer_id` was removed from SHARE_LINK: the spec says passing it silently fails, so it is
  // dropped with any other key the command does not take.
  SHARE_LINK: v.object({
    message: v.pipe(v.string('Required.'), v.maxLength(1000, 'Must be 1000 or fewer in length.')),
    custom_id: v.optional(v.pipe(v.string(), v.maxLength(64, 'Must be 64 or fewer in length.'))),
    link_id: v.optional(v.pipe(v.string(), v.maxLength(64, 'Must be 64 or fewer in length.'))),
  }),
  START_PURCHASE: v.object({ sku_id: snowflake, pid: v.optional(v.number()) }),
  CAPTURE_LOG: v.object({
    level: v.picklist(['log', 'warn', 'debug', 'info', 'error'], 'Must be log, warn, debug, info or error.'),
    message: v.string('Must be a string.'),
  }),
  SET_CONFIG: v.object({ use_interactive_pip: v.boolean('Must be a boolean.') }),
  SET_ORIENTATION_LOCK_STATE: v.object({
    lock_state: lockState,
    picture_in_picture_lock_state: v.nullish(lockState),
    grid_lock_state: v.nullish(lockState),
  }),
  ENCOURAGE_HW_ACCELERATION: none,
  GET_RELATIONSHIPS: none,
  GET_USER: v.object({ id: v.pipe(v.string('Required: the user id.'), v.maxLength(RPC_GET_USER_ID_MAX)) }),
  GET_QUEST: none,
  GET_QUEST_ENROLLMENT_STATUS: questId,
  QUEST_START_TIMER: questId,
  INITIATE_IMAGE_UPLOAD: none,
  OPEN_SHARE_MOMENT_DIALOG: v.object({
    mediaUrl: v.pipe(
      v.string('Required: the media URL.'),
      v.minLength(1, 'Required.'),
      v.maxLength(RPC_SHARE_MEDIA_URL_MAX),
    ),
  }),
  SHARE_INTERACTION: v.object({
    command: v.pipe(v.string('Required: the command to share.'), v.minLength(1, 'Required.')),
    options: v.optional(
      v.array(v.object({ name: v.string('Must be a string.'), value: v.string('Must be a string.') })),
    ),
    content: v.optional(maxLength(RPC_SHARE_INTERACTION_CONTENT_MAX)),
    require_launch_channel: v.optional(v.boolean('Must be a boolean.')),
    preview_image: v.optional(
      v.object({
        height: v.number('Must be a number.'),
        url: v.string('Must be a URL.'),
        width: v.number('Must be a number.'),
      }),
    ),
    components: v.optional(shareButtonRows),
    pid: v.optional(v.number()),
  }),
  INVITE_USER_EMBEDDED: v.object({ user_id: snowflake, content: v.optional(maxLength(RPC_INVITE_CONTENT_MAX)) }),
  REQUEST_PROXY_TICKET_REFRESH: none,
} satisfies Record<Command, v.GenericSchema>;

/** Each subscribable event's SUBSCRIBE / UNSUBSCRIBE arguments. */
export const SUBSCRIBE_ARGS = {
  GUILD_STATUS: v.object({ guild_id: snowflake }),
  VOICE_STATE_UPDATE: v.object({ channel_id: snowflake }),
  SPEAKING_START: v.object({ channel_id: v.nullish(snowflake), lobby_id: v.nullish(snowflake) }),
  SPEAKING_STOP: v.object({ channel_id: v.nullish(snowflake), lobby_id: v.nullish(snowflake) }),
  CURRENT_USER_UPDATE: none,
  CURRENT_GUILD_MEMBER_UPDATE: v.object({ guild_id: snowflake }),
  ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE: none,
  ENTITLEMENT_CREATE: none,
  ACTIVITY_LAYOUT_MODE_UPDATE: none,
  ORIENTATION_UPDATE: none,
  RELATIONSHIP_UPDATE: none,
  THERMAL_STATE_UPDATE: none,
  ACTIVITY_JOIN: none,
  // Without a quest, the subscription hears every quest of the application.
  QUEST_ENROLLMENT_STATUS_UPDATE: v.optional(
    v.looseObject({ quest_id: v.nullish(v.pipe(v.string('Must be a string.'), v.maxLength(RPC_GET_USER_ID_MAX))) }),
    {},
  ),
} satisfies Record<SubscribableEvent, v.GenericSchema>;

/**
 * Validates `input`; a failure is ERROR 4000 whose message names every bad field.
 * @example const args = validateRpc(COMMAND_ARGS.GET_CHANNEL, frame.args);
 */
export function validateRpc<S extends v.GenericSchema>(schema: S, input: unknown, what = 'args'): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const fields = new Map<string, string>();
  for (const issue of result.issues) {
    const path = v.getDotPath(issue);
    const name = path ? `${what}.${path}` : what;
    if (!fields.has(name)) fields.set(name, issue.message);
  }
  const detail = [...fields].map(([name, message]) => `${name}: ${message}`).join('; ');
  return invalidPayload(detail);
}

/** Throws ERROR 4000 with `detail` after the standard message. */
export function invalidPayload(detail: string): never {
  throw ApiError.of('RPC_INVALID_PAYLOAD', `${ApiError.of('RPC_INVALID_PAYLOAD').message}: ${detail}`);
}
