/** Types of `start.js` (plain JavaScript, so that `platformpp-web serve` runs on Node without a build step). */

/** The Miniflare version this package runs on. */
export declare const MINIFLARE_RANGE: string;
/** The workerd compatibility date the Worker is written against. */
export declare const COMPATIBILITY_DATE: string;
/** workerd's compatibility flags the Worker needs (`nodejs_compat`: `node:zlib`). */
export declare const COMPATIBILITY_FLAGS: string[];
/** The built Worker. */
export declare const WORKER_PATH: string;
/** The default directory of `--persist`. */
export declare const DEFAULT_PERSIST_DIR: string;

/** The engine is not installed; the message is the command that installs it. */
export declare class MissingEngineError extends Error {}

/** How to start the server. */
export interface ServerOptions {
  /** TCP port (default 8787; 0 picks a free one). */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** Directory that keeps the data across restarts; without it, data lives in memory. */
  persist?: string;
  /** When set, every control route (`/sandbox/...`, the consent decision) needs it in `X-Sandbox-Secret`. */
  controlSecret?: string;
  /** The built Worker (default: the package's). */
  workerPath?: string;
  /** The directory the Worker's modules are found under (default: the Worker's own). */
  modulesRoot?: string;
  /** Serve workerd's V8 inspector (the Chrome DevTools protocol) on this port, for profiling. */
  inspectorPort?: number;
  /** Behave as a deployment: the control API needs a secret even when none is set. */
  deployed?: boolean;
  /** Every sandbox starts with the platform's HTTP rate limits on (`serve --rate-limits`). */
  rateLimits?: boolean;
  /**
   * Hello's `heartbeat_interval` in milliseconds (`serve --heartbeat-interval`): an integer from
   * 1000 to 600000; default the platform's 41250.
   */
  heartbeatIntervalMs?: number;
  /** For the repository's tests only: serve the hooks through which a test reads a sandbox's store. */
  testHooks?: boolean;
}

/** A running server. */
export interface RunningServer {
  /** `http://<host>:<port>`. */
  url: string;
  /** Stops the server. */
  stop(): Promise<void>;
}

/** Starts the server. */
export declare function startServer(options?: ServerOptions): Promise<RunningServer>;
