/**
 * Faults on demand and the sandbox's rate-limit setting, as persisted in the `meta` store
 * (`platform/faults` decides what they mean). Both are small: a handful of faults at a time.
 */

/** Where a gateway fault lands: one session, one user's (or bot's) sessions, one application's, or all. */
export interface FaultTarget {
  session_id?: string;
  user_id?: string;
  application_id?: string;
}

/** An injected fault, as the sandbox control API took it. */
export type FaultSpec =
  | {
      type: 'http_error';
      method: string;
      path: string;
      count: number;
      status: 429 | 500 | 502 | 503;
      retry_after: number;
    }
  | { type: 'http_delay'; method: string; path: string; count: number; delay_ms: number }
  | ({ type: 'reconnect' } & FaultTarget)
  | ({ type: 'invalid_session'; resumable: boolean } & FaultTarget)
  | ({ type: 'zombie' } & FaultTarget)
  | ({ type: 'close'; code: number } & FaultTarget)
  | ({ type: 'hold_dispatches'; duration_ms: number } & FaultTarget)
  | { type: 'webhook_failure'; application_id: string; count: number; status: 500 | 502 | 503 }
  | { type: 'stop_shared_worker' }
  | { type: 'stop_service_worker' };

/** A fault with its id, when it was injected (platform clock), and what is left of its count. */
export type FaultRecord = FaultSpec & { id: string; created_at: number; remaining: number | null };

/** The faults still pending (HTTP and webhook counts not used up) and the latest injected. */
export interface FaultsState {
  pending: FaultRecord[];
  history: FaultRecord[];
}

/** The sandbox's HTTP rate limits: on or off, a route bucket's size and window, the global limit per second, the invalid-request limit. */
export interface RateLimitSettings {
  enabled: boolean;
  route_limit: number;
  route_window_ms: number;
  global_per_second: number;
  /** Answers of 401, 403 or 429 that restrict the sandbox's API within one window (absent in older records: the default). */
  invalid_request_limit?: number;
  /** That window, ms. */
  invalid_request_window_ms?: number;
}
