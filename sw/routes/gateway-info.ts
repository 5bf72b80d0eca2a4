/**
 * `GET {base_url}/gateway` and `GET {base_url}/gateway/bot`: where a client connects to the
 * gateway, in the platform's public shapes. Mounted only where the gateway is a real WebSocket
 * (the server host); in the browser a page reaches it through `GatewaySocket` instead.
 */
import { Hono } from 'hono';
import { GATEWAY_SESSION_START_LIMIT } from '../../src/platform/core/limits';
import type { AppContext, AppEnv } from '../http';

/** The routes, answering with the gateway URL `gatewayUrl` gives for a request (`ws://host/gateway`). */
export function gatewayInfoRoutes(gatewayUrl: (c: AppContext) => string): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/gateway', (c) => c.json({ url: gatewayUrl(c) }));
  r.get('/gateway/bot', async (c) => {
    return c.json({
      url: gatewayUrl(c),
      // One shard holds every guild of a sandbox; Identify counts are not limited here.
      shards: 1,
      session_start_limit: {
        total: GATEWAY_SESSION_START_LIMIT,
        remaining: GATEWAY_SESSION_START_LIMIT,
        reset_after: 0,
        max_concurrency: 1,
      },
    });
  });
  return r;
}
