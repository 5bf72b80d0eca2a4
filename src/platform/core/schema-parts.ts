/**
 * Valibot pieces every schema of the platform shares, so that a snowflake or a bounded integer
 * is checked, and its error worded, the same way on every route.
 */
import * as v from 'valibot';
import { parseIsoInstant } from './clock';
import { APPLICATION_FLAGS_NUMBER_MAX, FLAGS_32_MAX } from './limits';
import { parsePermissions } from './permissions';
import { isSnowflake } from './snowflake';

/** Why a number is not taken as a snowflake when JavaScript could not hold its digits. */
const ROUNDED_SNOWFLAKE = 'Value is not snowflake: a number beyond 2^53 lost its digits, send it as a string.';

/**
 * A snowflake as a decimal string below 2^64, given as a string or, as the platform takes it, a
 * JSON number: an integer JavaScript holds exactly, or a `bigint` that `parseExactJson` read
 * from the request's text. The output is always the decimal string.
 * @example v.object({ message_id: snowflakeSchema }) // takes "1311830588542947409" and 1311830588542947409
 */
export const snowflakeSchema = v.pipe(
  // Typed by its usual form, a string, so that it also fits pipes of strings (a query's
  // comma-separated ids); a number or bigint is taken all the same.
  v.custom<string>(
    (input) => typeof input === 'string' || typeof input === 'number' || typeof input === 'bigint',
    'Value must be a snowflake string.',
  ),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const value: string | number | bigint = dataset.value;
    if (typeof value !== 'number') {
      const text = String(value);
      if (isSnowflake(text)) return text;
      addIssue({ message: 'Value is not snowflake.', expected: 'snowflake' });
      return NEVER;
    }
    if (Number.isSafeInteger(value) && value >= 0) return String(value);
    const rounded = Number.isInteger(value) && value > Number.MAX_SAFE_INTEGER;
    addIssue({ message: rounded ? ROUNDED_SNOWFLAKE : 'Value is not snowflake.', expected: 'snowflake' });
    return NEVER;
  }),
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
 * An integer JSON field from 0 to {@link FLAGS_32_MAX} whose set bits are all in `accepted`
 * (default: any of bits 0 to 30). The range is checked before the bits: a 32-bit mask alone
 * would read 2^32 as 0 and take it.
 * @example v.object({ flags: v.optional(flagsInt(LOBBY_FLAGS_ACCEPTED, 'Unknown lobby flag.')) })
 */
export function flagsInt(accepted: number = FLAGS_32_MAX, unknownBits = 'Unknown flag.') {
  return v.pipe(
    bodyInt(0, FLAGS_32_MAX),
    v.check((flags: number) => (flags & ~accepted) === 0, unknownBits),
  );
}

/** An integer JSON field that JavaScript holds exactly (from -(2^53 - 1) to 2^53 - 1). */
export const safeIntSchema = bodyInt(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);

const INSTANT_MESSAGE = 'Must be a real ISO-8601 date and time with its offset, e.g. 2026-02-23T12:00:00Z.';

/**
 * An ISO-8601 date and time that exists, as its instant in epoch ms: `2026-02-30T00:00:00Z` is
 * refused (`Date.parse` would roll it over to March 2nd), as is a time without its offset.
 * @example v.object({ communication_disabled_until: v.optional(v.nullable(isoInstant)) })
 */
export const isoInstant = v.pipe(
  v.string(INSTANT_MESSAGE),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const ms = parseIsoInstant(dataset.value);
    if (ms !== null) return ms;
    addIssue({ message: INSTANT_MESSAGE });
    return NEVER;
  }),
);

/**
 * The same check as {@link isoInstant}, keeping the text as it was sent (an embed's `timestamp`
 * is answered as given).
 */
export const isoInstantText = v.pipe(
  v.string(INSTANT_MESSAGE),
  v.check((text: string) => parseIsoInstant(text) !== null, INSTANT_MESSAGE),
);

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
