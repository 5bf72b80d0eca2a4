/**
 * The schema of what a page sends on its instance socket (`src/wire/instance-socket.ts`),
 * checked before anything acts on it (ARCHITECTURE rule 4): a message that does not fit closes
 * the socket with 4000, naming the field.
 */
import * as v from 'valibot';

const snowflake = v.pipe(v.string(), v.regex(/^\d{1,20}$/, 'Value is not snowflake.'));
const id = v.pipe(v.string(), v.minLength(1), v.maxLength(200));
const counter = v.pipe(v.number(), v.integer(), v.minValue(0));
const text = (max: number) => v.pipe(v.string(), v.maxLength(max));

const ParticipantSchema = v.object({
  id: snowflake,
  username: text(64),
  global_name: v.nullable(text(64)),
  discriminator: text(8),
  avatar: v.nullable(text(200)),
  bot: v.boolean(),
  flags: v.pipe(v.number(), v.integer()),
  premium_type: v.nullable(v.pipe(v.number(), v.integer())),
  nickname: v.optional(text(64)),
});

/** One request of a page on its instance socket. */
export const InstanceSocketRequestSchema = v.variant('op', [
  v.object({
    op: v.literal('join'),
    nonce: counter,
    join: v.object({
      application_id: snowflake,
      channel_id: snowflake,
      guild_id: v.nullable(snowflake),
      frame_id: id,
      user: ParticipantSchema,
      instance_id: v.optional(id),
    }),
  }),
  v.object({ op: v.literal('leave'), frame_id: id }),
  v.object({ op: v.literal('watch_speaking'), watch_id: counter, call_id: snowflake }),
  v.object({ op: v.literal('unwatch_speaking'), watch_id: counter }),
]);
