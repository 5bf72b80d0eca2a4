/**
 * `/lobbies` routes: validate, call the lobby domain, answer. Who may call each (bots, or a
 * user's OAuth2 token with `lobbies.write`, which `sdk.social_layer` expands to) is the access
 * table's.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { createLobby, createOrJoinLobby, deleteLobby, getLobby, modifyLobby } from '../../src/platform/lobbies/lobbies';
import { bulkUpdateLobbyMembers, putLobbyMember, removeLobbyMember } from '../../src/platform/lobbies/members';
import { createLobbyMessage } from '../../src/platform/lobbies/messages';
import { lobbyMessagesJson } from '../../src/platform/lobbies/message-reads';
import {
  BulkLobbyMembersSchema,
  CreateOrJoinLobbySchema,
  LobbyMessageSchema,
  LobbyMessagesQuerySchema,
  LobbyPathSchema,
  LobbySettingsSchema,
  PutLobbyMemberSchema,
} from '../../src/platform/lobbies/schemas';
import { LOBBY_MESSAGES_DEFAULT } from '../../src/platform/core/limits';
import { bearerOf, botOf, noContent, readJson, readQuery, validate, type AppContext, type AppEnv } from '../http';

/** The validated `{lobby_id, user_id?}` of the request path (bad ids are 400 50035). */
const pathIds = (c: AppContext) => validate(LobbyPathSchema, c.req.param());

/** The `/lobbies` routes. */
export function lobbyRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.put('/', async (c) => {
    const principal = bearerOf(c);
    const body = await readJson(c, CreateOrJoinLobbySchema);
    return c.json(await createOrJoinLobby(c.get('ctx'), principal, body));
  });

  r.post('/', async (c) => {
    const principal = botOf(c);
    const body = await readJson(c, LobbySettingsSchema);
    return c.json(await createLobby(c.get('ctx'), principal, body), 201);
  });

  r.get('/:lobby_id', async (c) => {
    const { lobby_id } = pathIds(c);
    return c.json(await getLobby(c.get('ctx'), c.get('principal'), lobby_id));
  });

  r.patch('/:lobby_id', async (c) => {
    const principal = botOf(c);
    const { lobby_id } = pathIds(c);
    const body = await readJson(c, LobbySettingsSchema);
    return c.json(await modifyLobby(c.get('ctx'), principal, lobby_id, body));
  });

  r.delete('/:lobby_id', async (c) => {
    const principal = botOf(c);
    const { lobby_id } = pathIds(c);
    await deleteLobby(c.get('ctx'), principal, lobby_id);
    return noContent();
  });

  // Registered before `/:user_id` so that `@me` is the caller, not an id.
  r.delete('/:lobby_id/members/@me', async (c) => {
    const principal = bearerOf(c);
    const { lobby_id } = pathIds(c);
    await removeLobbyMember(c.get('ctx'), principal, lobby_id, principal.user.id);
    return noContent();
  });

  r.post('/:lobby_id/members/bulk', async (c) => {
    const principal = botOf(c);
    const { lobby_id } = pathIds(c);
    // The public shape is a top-level array; `{members: [...]}` is taken too, and errors name `members` either way.
    const raw = await readJson(c, v.unknown());
    const body = validate(BulkLobbyMembersSchema, Array.isArray(raw) ? { members: raw } : raw);
    return c.json(await bulkUpdateLobbyMembers(c.get('ctx'), principal, lobby_id, body.members));
  });

  r.put('/:lobby_id/members/:user_id', async (c) => {
    const principal = botOf(c);
    const { lobby_id, user_id } = pathIds(c);
    const body = await readJson(c, PutLobbyMemberSchema);
    return c.json(await putLobbyMember(c.get('ctx'), principal, lobby_id, { id: user_id!, ...body }));
  });

  r.delete('/:lobby_id/members/:user_id', async (c) => {
    const principal = botOf(c);
    const { lobby_id, user_id } = pathIds(c);
    await removeLobbyMember(c.get('ctx'), principal, lobby_id, user_id!);
    return noContent();
  });

  r.post('/:lobby_id/messages', async (c) => {
    const { lobby_id } = pathIds(c);
    const body = await readJson(c, LobbyMessageSchema);
    return c.json(await createLobbyMessage(c.get('ctx'), c.get('principal'), lobby_id, body), 201);
  });

  r.get('/:lobby_id/messages', async (c) => {
    const { lobby_id } = pathIds(c);
    const { limit } = readQuery(c, LobbyMessagesQuerySchema);
    // The read path answers JSON text: each message is serialized once, then kept while nothing changes.
    const json = await lobbyMessagesJson(c.get('ctx'), c.get('principal'), lobby_id, limit ?? LOBBY_MESSAGES_DEFAULT);
    return c.body(json, 200, { 'Content-Type': 'application/json' });
  });

  return r;
}
