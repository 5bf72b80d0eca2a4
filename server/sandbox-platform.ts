/**
 * One sandbox of the server: the platform context, the HTTP app, the gateway, the voice
 * gateway and the pages' instance sockets over one SQLite database, in one isolate. Every commit (the app's, the gateway's
 * Voice State Updates and session ends) is announced to both gateways directly (there is no
 * other context to tell), so they read the durable log as the shared worker's do in the
 * browser: the gateway dispatches, the voice gateway ends the voice sessions whose voice state
 * ended. The clock, the ids and the read cache are the same objects for all. Runs in a Durable
 * Object, and in Node over better-sqlite3 for tests.
 */
import { Gateway, type GatewayTimers } from '../src/gateway/gateway';
import { VoiceGateway } from '../src/gateway/voice-gateway';
import type { PlatformContext } from '../src/platform/core/context';
import { createPlatformContext } from '../src/platform/core/context';
import { redactSecrets } from '../src/platform/core/secrets';
import { SNOWFLAKE_WORKERS } from '../src/platform/core/snowflake';
import type { FetchLike } from '../src/platform/oauth2/oidc';
import { VOICE_SERVER_ENDPOINT } from '../src/platform/voice/join';
import type { SqlConnection } from '../src/store/sqlite/sql';
import { openSqlitePlatformStorage } from '../src/store/sqlite/open';
import { type PlatformApp, platformAppOver } from '../sw/app';
import type { ControlGuard } from '../sw/control-door';
import { clearStoredInstances } from '../src/platform/activities/activity-instances';
import { InstanceSockets } from './instance-sockets';
import { basePathOf } from './sandbox-routing';

/** What answers `X-Served-By` on the server. */
export const SERVER_SERVED_BY = 'platformpp-server';

/** A sandbox's platform. */
export interface SandboxPlatform {
  name: string;
  /** This start of the sandbox (a random id): a Durable Object evicted and started again has a new one. */
  incarnation: string;
  ctx: PlatformContext;
  app: PlatformApp;
  gateway: Gateway;
  voiceGateway: VoiceGateway;
  /** The pages' instance sockets: activity instances shared by every device. */
  instances: InstanceSockets;
}

/**
 * The gateway URL of a sandbox reached at `publicOrigin` (`http://host/s/a` → `ws://host/s/a/gateway`).
 * @example gatewayUrlOf('https://sandbox.example.com') // 'wss://sandbox.example.com/gateway'
 */
export function gatewayUrlOf(publicOrigin: string): string {
  return `${publicOrigin.replace(/^http/, 'ws')}/gateway`;
}

/**
 * The voice gateway URL of a sandbox reached at `publicOrigin`: VOICE_SERVER_UPDATE's `endpoint`
 * for the joins made on its gateway, which a client opens with the version (`?v=8`).
 * @example voiceGatewayUrlOf('http://127.0.0.1:8787/s/a') // 'ws://127.0.0.1:8787/s/a/voice'
 */
export function voiceGatewayUrlOf(publicOrigin: string): string {
  return `${publicOrigin.replace(/^http/, 'ws')}${VOICE_SERVER_ENDPOINT}`;
}

/**
 * Opens the sandbox `name` over `sql`, creating its tables on first use.
 * @example const sandbox = await openSandboxPlatform('default', durableObjectSqlConnection(ctx.storage));
 */
export async function openSandboxPlatform(
  name: string,
  sql: SqlConnection,
  options: {
    timers?: GatewayTimers;
    webhookFetch?: FetchLike;
    log?: (line: string) => void;
    /** The deployment's guard of the control routes (`sw/control-door.ts`). */
    control?: ControlGuard;
    /** Whether the sandbox starts with HTTP rate limits on (`serve --rate-limits`). */
    rateLimits?: boolean;
    /** Hello's `heartbeat_interval` in milliseconds (`serve --heartbeat-interval`; default the platform's). */
    heartbeatIntervalMs?: number;
  } = {},
): Promise<SandboxPlatform> {
  const log = options.log ?? console.error;
  const report = (error: unknown) =>
    log(redactSecrets(`platformpp server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
  const db = await openSqlitePlatformStorage(sql);
  let gateway: Gateway | undefined;
  let voiceGateway: VoiceGateway | undefined;
  let instances: InstanceSockets | undefined;
  const ctx = await createPlatformContext({
    db,
    workerId: SNOWFLAKE_WORKERS.server,
    announce: (message) => {
      gateway?.announce(message).catch(report);
      voiceGateway?.announce(message).catch(report);
      instances?.announce(message).catch(report);
    },
    // Every writer of this sandbox writes through this context: its cache sees every commit.
    readCache: true,
  });
  const incarnation = crypto.randomUUID();
  gateway = new Gateway(ctx, options.timers, log, { incarnation });
  if (options.heartbeatIntervalMs) gateway.heartbeatIntervalMs = options.heartbeatIntervalMs;
  voiceGateway = new VoiceGateway(ctx, options.timers, log);
  // The frames of an earlier start of this sandbox were held by sockets that ended with it: their
  // pages join again, naming their instances, which are kept.
  await clearStoredInstances(ctx);
  instances = new InstanceSockets(ctx, voiceGateway.speakers, log);
  const app = platformAppOver(ctx, {
    basePath: basePathOf(name),
    servedBy: SERVER_SERVED_BY,
    gatewayUrl: gatewayUrlOf,
    webhookFetch: options.webhookFetch,
    control: options.control,
    rateLimits: options.rateLimits,
  });
  return { name, incarnation, ctx, app, gateway, voiceGateway, instances };
}
