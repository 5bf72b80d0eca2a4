/** What the server's Worker and its Durable Objects are given by the runtime. */

/** The Worker's bindings (`wrangler.jsonc`, or Miniflare's options). */
export interface ServerEnv {
  /** The sandboxes' Durable Object class. */
  SANDBOXES: DurableObjectNamespace;
  /**
   * When set (a deployment), every control route (the access table's `sandbox` routes:
   * `/sandbox/...` and the consent decision) needs this secret in `X-Sandbox-Secret`: they reset
   * data and mint tokens. Unset (local), they are open, as in the browser.
   */
  SANDBOX_CONTROL_SECRET?: string;
  /**
   * `"true"` in a deployment (`wrangler.jsonc`): the control API is refused unless the secret is
   * set and given, so a deployment whose secret was forgotten is closed, not open.
   */
  SANDBOX_CONTROL_REQUIRES_SECRET?: string;
  /**
   * `"true"` (`platformpp-web serve --rate-limits`): every sandbox starts with the platform's HTTP
   * rate limits on; `PUT /sandbox/rate-limits` still changes one sandbox. Unset: off, as in the browser.
   */
  PLATFORMPP_RATE_LIMITS?: string;
  /**
   * Hello's `heartbeat_interval` in milliseconds (`platformpp-web serve --heartbeat-interval`):
   * a shorter one makes a client notice a zombie connection sooner. Unset: the platform's 41250.
   */
  PLATFORMPP_HEARTBEAT_INTERVAL_MS?: string;
  /**
   * `"true"` only for the repository's tests (`startServer({ testHooks: true })`): serves the
   * hooks of `test-hooks.ts`, through which a test reads a sandbox's store. Never set by
   * `platformpp-web serve` nor in a deployment.
   */
  PLATFORMPP_TEST_HOOKS?: string;
}
