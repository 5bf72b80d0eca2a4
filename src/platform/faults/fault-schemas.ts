/**
 * What `POST /sandbox/faults` and `PUT /sandbox/rate-limits` take (docs/sandbox.md). A fault is
 * one of the named `type`s; anything else, a count or time out of range, or a path pattern that
 * matches no route is a 400 / 50035 naming the field, and nothing is injected.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import {
  FAULT_COUNT_MAX,
  FAULT_DELAY_MS_MAX,
  FAULT_HOLD_MS_MAX,
  FAULT_RETRY_AFTER_MAX,
  INVALID_REQUEST_LIMIT_MAX,
  RATE_LIMIT_BUCKET_MAX,
  RATE_LIMIT_WINDOW_MS_MAX,
  RATE_LIMIT_WINDOW_MS_MIN,
} from '../core/limits';
import { bodyInt, snowflakeSchema } from '../core/schema-parts';
import { FAULT_METHODS } from './route-patterns';

/** Every fault the sandbox can inject, by its `type`. */
export const FAULT_TYPES = [
  'http_error',
  'http_delay',
  'reconnect',
  'invalid_session',
  'zombie',
  'close',
  'hold_dispatches',
  'webhook_failure',
  'stop_shared_worker',
  'stop_service_worker',
] as const;

/** The faults that act on gateway sessions. */
export const GATEWAY_FAULT_TYPES = new Set<string>([
  'reconnect',
  'invalid_session',
  'zombie',
  'close',
  'hold_dispatches',
]);

/** A close code a gateway fault may send: the platform's range 4000-4999, or a WebSocket code a server sends. */
const closeCode = v.pipe(
  v.number('Value is not int.'),
  v.integer('Value is not int.'),
  v.check(
    (code: number) => (code >= 4000 && code <= 4999) || [1000, 1001, 1011, 1012, 1013].includes(code),
    'Must be from 4000 to 4999, or one of 1000, 1001, 1011, 1012, 1013.',
  ),
);

/** Which sessions a gateway fault reaches: at most one of these; none is every session. */
const target = {
  session_id: v.optional(v.pipe(v.string('Value must be a string.'), v.minLength(1), v.maxLength(64))),
  user_id: v.optional(snowflakeSchema),
  application_id: v.optional(snowflakeSchema),
};

/** An HTTP fault's method and path pattern (see `route-patterns.ts`) and how many requests it takes. */
const httpMatch = {
  method: v.optional(v.picklist(FAULT_METHODS, `Must be one of ${FAULT_METHODS.join(', ')}.`), '*'),
  path: v.pipe(
    v.string('Value must be a string.'),
    v.startsWith('/', 'Must be a path starting with /.'),
    v.maxLength(512),
  ),
  count: v.optional(bodyInt(1, FAULT_COUNT_MAX), 1),
};

/**
 * The target field named when more than one was given (a gateway fault reaches one session, one
 * user, one application, or every session), or null.
 */
export function extraTargetField(fault: Record<string, unknown>): string | null {
  const given = ['session_id', 'user_id', 'application_id'].filter((k) => fault[k] !== undefined);
  return GATEWAY_FAULT_TYPES.has(String(fault.type)) && given.length > 1 ? given[1] : null;
}

/** A fault to inject. */
export const FaultSchema = v.variant(
  'type',
  [
    jsonObject({
      type: v.literal('http_error'),
      ...httpMatch,
      status: v.picklist([429, 500, 502, 503] as const, 'Must be one of 429, 500, 502, 503.'),
      retry_after: v.optional(
        v.pipe(v.number('Value must be a number.'), v.minValue(0), v.maxValue(FAULT_RETRY_AFTER_MAX)),
        1,
      ),
    }),
    jsonObject({ type: v.literal('http_delay'), ...httpMatch, delay_ms: bodyInt(1, FAULT_DELAY_MS_MAX) }),
    jsonObject({ type: v.literal('reconnect'), ...target }),
    jsonObject({
      type: v.literal('invalid_session'),
      resumable: v.optional(v.boolean('Value must be a boolean.'), false),
      ...target,
    }),
    jsonObject({ type: v.literal('zombie'), ...target }),
    jsonObject({ type: v.literal('close'), code: closeCode, ...target }),
    jsonObject({ type: v.literal('hold_dispatches'), duration_ms: bodyInt(1, FAULT_HOLD_MS_MAX), ...target }),
    jsonObject({
      type: v.literal('webhook_failure'),
      application_id: snowflakeSchema,
      count: v.optional(bodyInt(1, FAULT_COUNT_MAX), 1),
      status: v.optional(v.picklist([500, 502, 503] as const, 'Must be one of 500, 502, 503.'), 500),
    }),
    jsonObject({ type: v.literal('stop_shared_worker') }),
    jsonObject({ type: v.literal('stop_service_worker') }),
  ],
  `Must be one of ${FAULT_TYPES.join(', ')}.`,
);

/** A rate-limit window in seconds: 0.1 s to an hour. */
const windowSeconds = v.pipe(
  v.number('Value must be a number.'),
  v.minValue(RATE_LIMIT_WINDOW_MS_MIN / 1000, `Must be at least ${RATE_LIMIT_WINDOW_MS_MIN / 1000}.`),
  v.maxValue(RATE_LIMIT_WINDOW_MS_MAX / 1000, `Must be at most ${RATE_LIMIT_WINDOW_MS_MAX / 1000}.`),
);

/** `PUT /sandbox/rate-limits`: on or off, and optionally the route bucket, the global limit and the invalid-request limit. */
export const RateLimitSettingsSchema = jsonObject({
  enabled: v.boolean('Value must be a boolean.'),
  route_limit: v.optional(bodyInt(1, RATE_LIMIT_BUCKET_MAX)),
  route_window_seconds: v.optional(windowSeconds),
  global_per_second: v.optional(bodyInt(1, RATE_LIMIT_BUCKET_MAX)),
  invalid_request_limit: v.optional(bodyInt(1, INVALID_REQUEST_LIMIT_MAX)),
  invalid_request_window_seconds: v.optional(windowSeconds),
});
