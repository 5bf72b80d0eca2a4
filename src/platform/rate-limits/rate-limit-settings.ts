/**
 * Whether a sandbox's HTTP API is rate limited, and how (`PUT /sandbox/rate-limits`). A new
 * sandbox follows its host: off in the browser and on `platformpp-web serve`, on with
 * `serve --rate-limits`. The setting is kept in the `meta` store (a restarted worker keeps it)
 * with a copy in memory for the app, its only writer; a reset forgets it.
 */
import type { PlatformContext } from '../core/context';
import {
  INVALID_REQUEST_LIMIT_DEFAULT,
  INVALID_REQUEST_WINDOW_MS_DEFAULT,
  RATE_LIMIT_GLOBAL_PER_SECOND,
  RATE_LIMIT_ROUTE_DEFAULT,
  RATE_LIMIT_ROUTE_WINDOW_MS_DEFAULT,
} from '../core/limits';
import type { RateLimitSettings } from '../../store/records/faults';
import { write } from '../../store/write';

export type { RateLimitSettings };

/** The numbers a sandbox uses until it is told others; `enabled` is the host's. */
export function defaultRateLimits(enabled: boolean): Required<RateLimitSettings> {
  return {
    enabled,
    route_limit: RATE_LIMIT_ROUTE_DEFAULT,
    route_window_ms: RATE_LIMIT_ROUTE_WINDOW_MS_DEFAULT,
    global_per_second: RATE_LIMIT_GLOBAL_PER_SECOND,
    invalid_request_limit: INVALID_REQUEST_LIMIT_DEFAULT,
    invalid_request_window_ms: INVALID_REQUEST_WINDOW_MS_DEFAULT,
  };
}

/** What `PUT /sandbox/rate-limits` takes (validated by `RateLimitSettingsSchema`). */
export interface RateLimitChange {
  enabled: boolean;
  route_limit?: number;
  route_window_seconds?: number;
  global_per_second?: number;
  invalid_request_limit?: number;
  invalid_request_window_seconds?: number;
}

/** One context's copy of its sandbox's setting. */
export class RateLimitSetting {
  #current: Promise<Required<RateLimitSettings>> | null = null;

  constructor(
    private readonly ctx: PlatformContext,
    private readonly hostDefault: boolean,
  ) {}

  /** The setting in force (read from the store once per start of the context). */
  current(): Promise<Required<RateLimitSettings>> {
    // A record stored before the invalid-request limit existed takes its defaults.
    this.#current ??= this.ctx.db
      .get('meta', 'rate_limits')
      .then((s) => ({ ...defaultRateLimits(this.hostDefault), ...(s as RateLimitSettings | undefined) }));
    return this.#current;
  }

  /** Forgets the copy in memory (after a reset emptied the store). */
  forget(): void {
    this.#current = null;
  }

  /**
   * Stores a change (fields left out keep their value) and resolves with the new setting once
   * committed; `via` is the request's context, whose write guard applies it once.
   * @example await setting.change({ enabled: true, route_limit: 2 });
   */
  async change(change: RateLimitChange, via: PlatformContext = this.ctx): Promise<Required<RateLimitSettings>> {
    const before = await this.current();
    const next: Required<RateLimitSettings> = {
      enabled: change.enabled,
      route_limit: change.route_limit ?? before.route_limit,
      route_window_ms:
        change.route_window_seconds === undefined
          ? before.route_window_ms
          : Math.round(change.route_window_seconds * 1000),
      global_per_second: change.global_per_second ?? before.global_per_second,
      invalid_request_limit: change.invalid_request_limit ?? before.invalid_request_limit,
      invalid_request_window_ms:
        change.invalid_request_window_seconds === undefined
          ? before.invalid_request_window_ms
          : Math.round(change.invalid_request_window_seconds * 1000),
    };
    await write(via, ['meta'], async (tx) => void (await tx.store('meta').put(next, 'rate_limits')));
    this.#current = Promise.resolve(next);
    return next;
  }
}

const settings = new WeakMap<object, RateLimitSetting>();

/**
 * The rate-limit setting of a context's sandbox; `hostDefault` is whether a new sandbox of this
 * host has limits on (the first caller's word is kept).
 * @example if ((await rateLimitSettingOf(ctx, false).current()).enabled) ...
 */
export function rateLimitSettingOf(ctx: PlatformContext, hostDefault: boolean): RateLimitSetting {
  // One per database: a request's copy of the context (its write guard) shares it.
  let setting = settings.get(ctx.db);
  if (!setting) settings.set(ctx.db, (setting = new RateLimitSetting(ctx, hostDefault)));
  return setting;
}
