/**
 * Linked channels of lobbies: `PATCH /lobbies/{lobby.id}/channel-linking` (a user, Bearer), and
 * Create Lobby Channel Invite for Self (`POST .../members/@me/invites`, Bearer) and for User
 * (`POST .../members/{user.id}/invites`, the bot). Mounted beside the lobby routes; a user's
 * token needs `lobbies.write` here too (the access table's).
 */
import { Hono } from 'hono';
import { linkLobbyChannel } from '../../src/platform/lobbies/linking';
import { createLobbyChannelInvite } from '../../src/platform/lobbies/linking-invites';
import { LobbyPathSchema } from '../../src/platform/lobbies/schemas';
import { bearerOf, botOf, readJson, validate, type AppContext, type AppEnv } from '../http';
import { LinkChannelSchema } from '../../src/platform/lobbies/schemas';

const pathIds = (c: AppContext) => validate(LobbyPathSchema, c.req.param());

/** The linking routes, mounted at `/lobbies`. */
export function lobbyLinkingRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.patch('/:lobby_id/channel-linking', async (c) => {
    const principal = bearerOf(c);
    const { lobby_id } = pathIds(c);
    const { channel_id } = await readJson(c, LinkChannelSchema);
    return c.json(await linkLobbyChannel(c.get('ctx'), principal, lobby_id, channel_id ?? null));
  });

  // Registered before `/:user_id` so that `@me` is the caller, not an id.
  r.post('/:lobby_id/members/@me/invites', async (c) => {
    const principal = bearerOf(c);
    return c.json(await createLobbyChannelInvite(c.get('ctx'), principal, pathIds(c).lobby_id, principal.user.id));
  });

  r.post('/:lobby_id/members/:user_id/invites', async (c) => {
    const principal = botOf(c);
    const { lobby_id, user_id } = pathIds(c);
    return c.json(await createLobbyChannelInvite(c.get('ctx'), principal, lobby_id, user_id!));
  });

  return r;
}
