/**
 * `/rpc/...`: what the embedded-app RPC host (the platform's own client, CONTRACT §5) reads with
 * an activity's access token to answer AUTHENTICATE, GET_CHANNEL, GET_CHANNEL_PERMISSIONS and
 * GUILD_STATUS, and to check the lobby a SPEAKING_* subscription names. The client knows more than an application's public API shows (whose token it
 * is, whatever its scopes); these routes are its view, not part of the platform's public API.
 */
import { Hono } from 'hono';
import {
  rpcChannel,
  rpcChannelPermissions,
  rpcGuildStatus,
  rpcLobby,
  rpcSession,
} from '../../src/platform/activities/rpc-views';
import { bearerOf, type AppEnv, snowflakeParam } from '../http';

/** The RPC host's routes, mounted at `/rpc`; every one needs a user's Bearer token. */
export function rpcRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/session', (c) => {
    const principal = bearerOf(c);
    return c.json(rpcSession(principal));
  });

  r.get('/channels/:channel_id', async (c) => {
    const channel_id = snowflakeParam(c, 'channel_id');
    return c.json(await rpcChannel(c.get('ctx'), bearerOf(c).user.id, channel_id));
  });

  r.get('/channels/:channel_id/permissions', async (c) => {
    const channel_id = snowflakeParam(c, 'channel_id');
    return c.json(await rpcChannelPermissions(c.get('ctx'), bearerOf(c).user.id, channel_id));
  });

  r.get('/guilds/:guild_id/status', async (c) => {
    const guild_id = snowflakeParam(c, 'guild_id');
    return c.json(await rpcGuildStatus(c.get('ctx'), bearerOf(c).user.id, guild_id));
  });

  r.get('/lobbies/:lobby_id', async (c) => {
    const lobby_id = snowflakeParam(c, 'lobby_id');
    return c.json(await rpcLobby(c.get('ctx'), bearerOf(c), lobby_id));
  });

  return r;
}
