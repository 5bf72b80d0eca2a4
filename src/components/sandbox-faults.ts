/**
 * The types of the sandbox's faults on demand and rate-limit setting, as `SandboxClient`'s
 * `injectFault`, `listFaults` and `setRateLimits` take and answer them (docs/faults.md).
 */

/** Where a gateway fault lands: one session, one user's or bot's sessions, one application's; none is every session. */
export interface FaultTargetOptions {
  session_id?: string;
  user_id?: string;
  application_id?: string;
}

/** A method an HTTP fault matches (`*`: any). */
export type FaultMethod = '*' | 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A fault to inject. HTTP faults match `method` (default any) and `path`, a request path with
 * `*` for one segment (`/api/v10/channels/*\/messages`), and take the next `count` (1-100,
 * default 1) matching requests.
 */
export type FaultRequest =
  | {
      type: 'http_error';
      status: 429 | 500 | 502 | 503;
      path: string;
      method?: FaultMethod;
      count?: number;
      retry_after?: number;
    }
  | { type: 'http_delay'; delay_ms: number; path: string; method?: FaultMethod; count?: number }
  | ({ type: 'reconnect' } & FaultTargetOptions)
  | ({ type: 'invalid_session'; resumable?: boolean } & FaultTargetOptions)
  | ({ type: 'zombie' } & FaultTargetOptions)
  | ({ type: 'close'; code: number } & FaultTargetOptions)
  | ({ type: 'hold_dispatches'; duration_ms: number } & FaultTargetOptions)
  | { type: 'webhook_failure'; application_id: string; count?: number; status?: 500 | 502 | 503 }
  | { type: 'stop_shared_worker' }
  | { type: 'stop_service_worker' };

/** An injected fault: what was asked, its id, when (epoch ms, platform clock), and the uses left (null: applied once). */
export type InjectedFault = FaultRequest & { id: string; created_at: number; remaining: number | null };

/** The sandbox's HTTP rate-limit setting. */
export interface RateLimitSettingsView {
  enabled: boolean;
  route_limit: number;
  route_window_seconds: number;
  global_per_second: number;
  /** Answers of 401, 403 or 429 (not of scope `shared`) in one window that restrict the sandbox's API until it ends. */
  invalid_request_limit: number;
  invalid_request_window_seconds: number;
}
