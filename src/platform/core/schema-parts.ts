/**
 * Valibot pieces every schema of the platform shares, so that a snowflake or a bounded integer
 * is checked, and its error worded, the same way on every route.
 */
import * as v from 'valibot';
import { APPLICATION_FLAGS_NUMBER_MAX } from './limits';
import { parsePermissions } from './permissions';
import { isSnowflake } from './snowflake';

/** A snowflake as a decimal string below 2^64. */
export const snowflakeSchema = v.pipe(
  v.string('Value must be a snowflake string.'),
  v.check((s: string) => isSnowflake(s), 'Value is not snowflake.'),
);

/**
 * An integer query parameter within bounds (query values arrive as strings).
 * @example v.object({ limit: v.optional(queryInt(1, LOBBY_MESSAGES_MAX)) })
 */
export function queryInt(min: number, max: number) {
  return v.pipe(
    v.string(),
    v.regex(/^-?\d+$/, 'Value is not int.'),
    v.transform(Number),
    v.minValue(min, `int value should be greater than or equal to ${min}.`),
    v.maxValue(max, `int value should be less than or equal to ${max}.`),
  );
}

/**
 * An integer JSON field within bounds.
 * @example v.object({ max_age: v.optional(bodyInt(0, INVITE_MAX_AGE_MAX_S)) })
 */
export function bodyInt(min: number, max: number) {
  return v.pipe(
    v.number('Value is not int.'),
    v.integer('Value is not int.'),
    v.minValue(min, `int value should be greater than or equal to ${min}.`),
    v.maxValue(max, `int value should be less than or equal to ${max}.`),
  );
}

/**
 * A JSON object used as a dictionary: string keys to values of `value`. valibot's `record` alone
 * takes an array as the record of its indexes (`["x", "y"]` would be stored as
 * `{"0": "x", "1": "y"}`), so anything but a plain object is refused, naming the field.
 * @example v.object({ metadata: v.optional(dictionary(v.string('Metadata values must be strings.'))) })
 */
export function dictionary<const Value extends v.GenericSchema>(
  value: Value,
  message = 'Must be a dictionary (a JSON object).',
) {
  return v.pipe(
    v.custom<Record<string, unknown>>(
      (input) => typeof input === 'object' && input !== null && !Array.isArray(input),
      message,
    ),
    v.record(v.string(), value, message),
  );
}

/** A 64-bit bit set as a decimal string (permissions, overwrites' allow and deny). */
export const bitSetSchema = v.pipe(
  v.string('Must be a decimal string.'),
  v.check((s: string) => parsePermissions(s) !== null, 'Must be a decimal string of a 64-bit bit set.'),
);

/**
 * An application's `flags` in a sandbox body: a number is the spec's 32-bit integer, a decimal
 * string may carry the full 64-bit set, as `flags_new` does.
 */
export const applicationFlagsSchema = v.union(
  [bodyInt(0, APPLICATION_FLAGS_NUMBER_MAX), bitSetSchema],
  `Must be an integer from 0 to ${APPLICATION_FLAGS_NUMBER_MAX} or a decimal string of a 64-bit bit set.`,
);

/**
 * An application's client secret as a developer brings it from their own `.env`: 8 to 128
 * printable ASCII characters, no spaces (the platform's own are 32 URL-safe characters).
 */
export const clientSecretSchema = v.pipe(
  v.string('Must be a string.'),
  v.regex(/^[\x21-\x7e]{8,128}$/, 'Must be 8 to 128 printable characters without spaces.'),
);
