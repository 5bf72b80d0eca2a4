/**
 * One sandbox of the server: the platform context, the HTTP app and the gateway over one SQLite
 * database, in one isolate. The app's commits are announced to the gateway directly (there is
 * no other context to tell), so it dispatches from the durable log as the shared worker does in
 * the browser; the clock, the ids and the read cache are the same objects for both. Runs in a
 * Durable Object, and in Node over better-sqlite3 for tests.
 */
import { Gateway, type GatewayTimers } from '../src/gateway/gateway';
import type { PlatformContext } from '../src/platform/core/context';
import { createPlatformContext } from '../src/platform/core/context';
import { redactSecrets } from '../src/platform/core/secrets';
import { SNOWFLAKE_WORKERS } from '../src/platform/core/snowflake';
import type { FetchLike } from '../src/platform/oauth2/oidc';
import type { SqlConnection } from '../src/store/sqlite/sql';
import { openSqlitePlatformStorage } from '../src/store/sqlite/open';
import { type PlatformApp, platformAppOver } from '../sw/app';
import { basePathOf } from './sandbox-routing';

/** What answers `X-Served-By` on the server. */
export const SERVER_SERVED_BY = 'platformpp-server';

/** A sandbox's platform. */
export interface SandboxPlatform {
  name: string;
  ctx: PlatformContext;
  app: PlatformApp;
  gateway: Gateway;
}

/**
 * The gateway URL of a sandbox reached at `publicOrigin` (`http://host/s/a` → `ws://host/s/a/gateway`).
 * @example gatewayUrlOf('https://sandbox.example.com') // 'wss://sandbox.example.com/gateway'
 */
export function gatewayUrlOf(publicOrigin: string): string {
  return `${publicOrigin.replace(/^http/, 'ws')}/gateway`;
}

/**
 * Opens the sandbox `name` over `sql`, creating its tables on first use.
 * @example const sandbox = await openSandboxPlatform('default', durableObjectSqlConnection(ctx.storage));
 */
export async function openSandboxPlatform(
  name: string,
  sql: SqlConnection,
  options: { timers?: GatewayTimers; webhookFetch?: FetchLike; log?: (line: string) => void } = {},
): Promise<SandboxPlatform> {
  const log = options.log ?? console.error;
  const report = (error: unknown) =>
    log(redactSecrets(`platformpp server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
  const db = await openSqlitePlatformStorage(sql);
  let gateway: Gateway | undefined;
  const ctx = await createPlatformContext({
    db,
    workerId: SNOWFLAKE_WORKERS.server,
    announce: (message) => void gateway?.announce(message).catch(report),
    // Every writer of this sandbox writes through this context: its cache sees every commit.
    readCache: true,
  });
  gateway = new Gateway(ctx, options.timers, log);
  const app = platformAppOver(ctx, {
    basePath: basePathOf(name),
    servedBy: SERVER_SERVED_BY,
    gatewayUrl: gatewayUrlOf,
    webhookFetch: options.webhookFetch,
  });
  return { name, ctx, app, gateway };
}
