/**
 * The access table: every route of the app, with the tokens and scopes it takes (see
 * `route-access.ts`). Keys are the routes' own paths below `{base_url}`, so a test can hold the
 * table to the app's routes one for one. Where the public docs name what a route takes, the
 * entry follows them: the OAuth2 scope `guilds` lets a user's token list the user's guilds
 * (`GET /users/@me/guilds`), not read a guild's emoji or scheduled events, which are bot routes.
 * The `/rpc/...` routes are the platform client's own view for an activity's token; each asks
 * for the scope of the RPC command it answers.
 */
import { BOT, botOrUser, open, type RouteAccess, type RouteKey, user } from './route-access';

/** Routes of the sandbox control API (CONTRACT §3): every one is open, whatever its path. */
export const SANDBOX_ACCESS: RouteAccess = open('sandbox');

/** Every route outside `/sandbox/...`, by method and path. */
export const ROUTE_ACCESS: Readonly<Record<RouteKey, RouteAccess>> = {
  // OAuth2 and OpenID Connect (also under `{base_url}/oauth2` and `/api/oauth2`).
  'GET /oauth2/authorize': open('public'),
  // The consent decision is the simulated client's (a sandbox step, like POST /sandbox/tokens).
  'POST /oauth2/authorize': open('sandbox'),
  'POST /oauth2/token': open('client'),
  'POST /oauth2/token/revoke': open('client'),
  'GET /oauth2/keys': open('public'),
  'GET /oauth2/@me': user(),
  // OpenID Connect UserInfo: any user's token at the door; the route itself asks for `openid`.
  'GET /oauth2/userinfo': user(),
  // Get Current Bot Application Information: a bot library's first call at login.
  'GET /oauth2/applications/@me': BOT,
  'GET /.well-known/openid-configuration': open('public'),

  // Gateway discovery (the server host only).
  'GET /gateway': open('public'),
  'GET /gateway/bot': BOT,

  // The partner SDK's account endpoints.
  'POST /partner-sdk/token': open('client'),
  'POST /partner-sdk/token/bot': BOT,
  'POST /partner-sdk/provisional-accounts/unmerge': open('client'),
  'POST /partner-sdk/provisional-accounts/unmerge/bot': BOT,
  'POST /partner-sdk/child-token': open('parent token'),
  'PUT /partner-sdk/dms/:user_id_1/:user_id_2/messages/:message_id/moderation-metadata': BOT,

  // Interactions: the interaction token is the credential.
  'POST /interactions/:interaction_id/:token/callback': open('interaction token'),
  // Incoming webhooks and interaction follow-ups share these paths: the token in the path is the
  // credential (an incoming webhook's, or an interaction's when the id is an application's).
  'POST /webhooks/:webhook_id/:token': open('webhook token'),
  'POST /webhooks/:webhook_id/:token/slack': open('webhook token'),
  'GET /webhooks/:webhook_id/:token/messages/@original': open('webhook token'),
  'PATCH /webhooks/:webhook_id/:token/messages/@original': open('webhook token'),
  'DELETE /webhooks/:webhook_id/:token/messages/@original': open('webhook token'),
  'GET /webhooks/:webhook_id/:token/messages/:message_id': open('webhook token'),
  'PATCH /webhooks/:webhook_id/:token/messages/:message_id': open('webhook token'),
  'DELETE /webhooks/:webhook_id/:token/messages/:message_id': open('webhook token'),
  'GET /webhooks/:webhook_id/:token': open('webhook token'),
  'PATCH /webhooks/:webhook_id/:token': open('webhook token'),
  'DELETE /webhooks/:webhook_id/:token': open('webhook token'),
  // Incoming webhooks managed by a bot (MANAGE_WEBHOOKS).
  'GET /webhooks/:webhook_id': BOT,
  'PATCH /webhooks/:webhook_id': BOT,
  'DELETE /webhooks/:webhook_id': BOT,
  'GET /channels/:channel_id/webhooks': BOT,
  'POST /channels/:channel_id/webhooks': BOT,
  'GET /guilds/:guild_id/webhooks': BOT,
  // Guild channels changed by a bot (MANAGE_CHANNELS).
  'POST /guilds/:guild_id/channels': BOT,
  'PATCH /guilds/:guild_id/channels': BOT,

  // Attachments are public URLs, as the platform's CDN serves them.
  'GET /attachments/ephemeral/:application_id/:attachment_id/:filename': open('public'),
  'GET /attachments/:channel_id/:attachment_id/:filename': open('public'),

  // The current user, rich presence, connections.
  'GET /users/@me': botOrUser('identify'),
  'GET /users/@me/activities': user('activities.write', 'rpc.activities.write'),
  'PUT /users/@me/activities': user('activities.write', 'rpc.activities.write'),
  'GET /users/@me/connections': user('connections'),
  'GET /users/@me/guilds': botOrUser('guilds'),
  // A bot changes its own user and leaves guilds; the docs give a user's token no scope for either.
  'PATCH /users/@me': BOT,
  'DELETE /users/@me/guilds/:guild_id': BOT,
  'GET /users/@me/guilds/:guild_id/member': user('guilds.members.read'),
  // Get User: any user by id; the docs name no scope for a user's token.
  'GET /users/:user_id': botOrUser(),
  // Create DM: a bot opens its DM channel with a user.
  'POST /users/@me/channels': BOT,

  // Relationships and direct messages: users only (bots have no friends).
  'GET /users/@me/relationships': user('relationships.read'),
  'POST /users/@me/relationships': user('relationships.write'),
  'PUT /users/@me/relationships/:user_id': user('relationships.write'),
  'DELETE /users/@me/relationships/:user_id': user('relationships.write'),
  'GET /users/@me/game-relationships': user('relationships.read'),
  'POST /users/@me/game-relationships': user('relationships.write'),
  'PUT /users/@me/game-relationships/:user_id': user('relationships.write'),
  'DELETE /users/@me/game-relationships/:user_id': user('relationships.write'),
  'GET /users/@me/channels': user('dm_channels.read'),
  'POST /users/@me/dms/:recipient_id/messages': user('dm_channels.messages.write'),
  'GET /users/@me/dms/:recipient_id/messages': user('dm_channels.messages.read'),

  // Lobbies: bots manage them; users create, join, leave and chat with `lobbies.write`.
  'PUT /lobbies': user('lobbies.write'),
  'POST /lobbies': BOT,
  'GET /lobbies/:lobby_id': botOrUser('lobbies.write'),
  'PATCH /lobbies/:lobby_id': BOT,
  'DELETE /lobbies/:lobby_id': BOT,
  'DELETE /lobbies/:lobby_id/members/@me': user('lobbies.write'),
  'POST /lobbies/:lobby_id/members/bulk': BOT,
  'PUT /lobbies/:lobby_id/members/:user_id': BOT,
  'DELETE /lobbies/:lobby_id/members/:user_id': BOT,
  'POST /lobbies/:lobby_id/messages': botOrUser('lobbies.write'),
  'GET /lobbies/:lobby_id/messages': botOrUser('lobbies.write'),
  'PUT /lobbies/:lobby_id/messages/:message_id/moderation-metadata': BOT,
  'PATCH /lobbies/:lobby_id/channel-linking': user('lobbies.write'),
  'POST /lobbies/:lobby_id/members/@me/invites': user('lobbies.write'),
  'POST /lobbies/:lobby_id/members/:user_id/invites': BOT,

  // Guilds. Reads of channels, roles and voice states are open to a member's `guilds` token
  // (the game SDK's Client::GetGuildChannels reads them so); everything else is for bots.
  'GET /guilds/:guild_id': BOT,
  'PATCH /guilds/:guild_id': BOT,
  'GET /guilds/:guild_id/roles': BOT,
  'POST /guilds': { ...BOT, removed: { from: 'CREATE_GUILD_REMOVED', error: 'GUILD_CREATION_REMOVED' } },
  'GET /guilds/:guild_id/channels': botOrUser('guilds'),
  'GET /guilds/:guild_id/roles/member-counts': botOrUser('guilds'),
  'GET /guilds/:guild_id/roles/:role_id': botOrUser('guilds'),
  'PATCH /guilds/:guild_id/roles/:role_id': BOT,
  'POST /guilds/:guild_id/roles': BOT,
  'PATCH /guilds/:guild_id/roles': BOT,
  'DELETE /guilds/:guild_id/roles/:role_id': BOT,
  'GET /guilds/:guild_id/bans': BOT,
  'GET /guilds/:guild_id/bans/:user_id': BOT,
  'PUT /guilds/:guild_id/bans/:user_id': BOT,
  'DELETE /guilds/:guild_id/bans/:user_id': BOT,
  'POST /guilds/:guild_id/bulk-ban': BOT,
  'GET /guilds/:guild_id/members': BOT,
  'GET /guilds/:guild_id/members/search': BOT,
  'GET /guilds/:guild_id/members/:user_id': BOT,
  'PUT /guilds/:guild_id/members/:user_id': BOT,
  'DELETE /guilds/:guild_id/members/:user_id': BOT,
  'PATCH /guilds/:guild_id/members/@me': BOT,
  'PATCH /guilds/:guild_id/members/:user_id': BOT,
  'PUT /guilds/:guild_id/members/:user_id/roles/:role_id': BOT,
  'DELETE /guilds/:guild_id/members/:user_id/roles/:role_id': BOT,
  'GET /guilds/:guild_id/voice-states/@me': botOrUser('guilds'),
  'GET /guilds/:guild_id/voice-states/:user_id': botOrUser('guilds'),
  'PATCH /guilds/:guild_id/voice-states/@me': BOT,
  'PATCH /guilds/:guild_id/voice-states/:user_id': BOT,
  'GET /guilds/:guild_id/invites': BOT,
  'GET /guilds/:guild_id/prune': BOT,
  'POST /guilds/:guild_id/prune': BOT,
  'POST /guilds/:guild_id/scheduled-events': BOT,
  'GET /guilds/:guild_id/scheduled-events': BOT,
  'GET /guilds/:guild_id/regions': BOT,
  'GET /voice/regions': BOT,
  'GET /guilds/:guild_id/scheduled-events/:event_id': BOT,
  'PATCH /guilds/:guild_id/scheduled-events/:event_id': BOT,
  'DELETE /guilds/:guild_id/scheduled-events/:event_id': BOT,
  'GET /guilds/:guild_id/scheduled-events/:event_id/users': BOT,
  'GET /guilds/:guild_id/scheduled-events/:event_id/users/counts': BOT,
  'GET /guilds/:guild_id/audit-logs': BOT,
  'POST /guilds/:guild_id/emojis': BOT,
  'GET /guilds/:guild_id/emojis': BOT,
  'GET /guilds/:guild_id/emojis/:emoji_id': BOT,
  'PATCH /guilds/:guild_id/emojis/:emoji_id': BOT,
  'DELETE /guilds/:guild_id/emojis/:emoji_id': BOT,
  // Guild settings; the widget itself is public, as on the platform.
  'GET /guilds/:guild_id/welcome-screen': BOT,
  'PATCH /guilds/:guild_id/welcome-screen': BOT,
  'GET /guilds/:guild_id/widget': BOT,
  'PATCH /guilds/:guild_id/widget': BOT,
  'GET /guilds/:guild_id/widget.json': open('public'),
  'GET /guilds/:guild_id/widget.png': open('public'),
  'GET /guilds/:guild_id/onboarding': BOT,
  'PUT /guilds/:guild_id/onboarding': BOT,
  'PUT /guilds/:guild_id/incident-actions': BOT,
  'GET /guilds/:guild_id/integrations': BOT,
  'DELETE /guilds/:guild_id/integrations/:integration_id': BOT,
  'GET /guilds/:guild_id/preview': BOT,
  'GET /guilds/:guild_id/vanity-url': BOT,
  'GET /guilds/:guild_id/messages/search': botOrUser('messages.read'),

  // Channels, their messages and pins. Users read with `messages.read` and change with
  // `messages.write` (the sandbox's scopes for its simulated client).
  'GET /channels/:channel_id': botOrUser('guilds'),
  'PATCH /channels/:channel_id': BOT,
  'DELETE /channels/:channel_id': BOT,
  'PUT /channels/:channel_id/permissions/:overwrite_id': BOT,
  'DELETE /channels/:channel_id/permissions/:overwrite_id': BOT,
  'PUT /channels/:channel_id/voice-status': BOT,
  // Group DM recipients: the group DM's owner, a bot.
  'PUT /channels/:channel_id/recipients/:user_id': BOT,
  'DELETE /channels/:channel_id/recipients/:user_id': BOT,
  'POST /channels/:channel_id/messages': botOrUser('messages.write'),
  'GET /channels/:channel_id/messages': botOrUser('messages.read'),
  'GET /channels/:channel_id/messages/pins': botOrUser('messages.read'),
  'PUT /channels/:channel_id/messages/pins/:message_id': botOrUser('messages.write'),
  'DELETE /channels/:channel_id/messages/pins/:message_id': botOrUser('messages.write'),
  'GET /channels/:channel_id/pins': botOrUser('messages.read'),
  'PUT /channels/:channel_id/pins/:message_id': botOrUser('messages.write'),
  'DELETE /channels/:channel_id/pins/:message_id': botOrUser('messages.write'),
  'GET /channels/:channel_id/messages/:message_id': botOrUser('messages.read'),
  'PATCH /channels/:channel_id/messages/:message_id': botOrUser('messages.write'),
  'DELETE /channels/:channel_id/messages/:message_id': botOrUser('messages.write'),
  // Threads: users as for messages (reads `messages.read`, changes `messages.write`).
  'POST /channels/:channel_id/messages/:message_id/threads': botOrUser('messages.write'),
  'POST /channels/:channel_id/threads': botOrUser('messages.write'),
  'GET /channels/:channel_id/threads/archived/public': botOrUser('messages.read'),
  'GET /channels/:channel_id/threads/archived/private': botOrUser('messages.read'),
  'GET /channels/:channel_id/users/@me/threads/archived/private': botOrUser('messages.read'),
  'GET /channels/:channel_id/threads/search': botOrUser('messages.read'),
  'GET /channels/:channel_id/thread-members': botOrUser('messages.read'),
  'PUT /channels/:channel_id/thread-members/@me': botOrUser('messages.write'),
  'DELETE /channels/:channel_id/thread-members/@me': botOrUser('messages.write'),
  'GET /channels/:channel_id/thread-members/:user_id': botOrUser('messages.read'),
  'PUT /channels/:channel_id/thread-members/:user_id': botOrUser('messages.write'),
  'DELETE /channels/:channel_id/thread-members/:user_id': botOrUser('messages.write'),
  'GET /guilds/:guild_id/threads/active': botOrUser('messages.read'),
  // Reactions: in a guild channel with `messages.*`, in a DM channel with `dm_channels.messages.*`.
  'PUT /channels/:channel_id/messages/:message_id/reactions/:emoji/@me': {
    ...botOrUser('messages.write', 'dm_channels.messages.write'),
    scopeByResource: '`messages.write` in a guild channel, `dm_channels.messages.write` in a DM channel',
  },
  'DELETE /channels/:channel_id/messages/:message_id/reactions/:emoji/@me': {
    ...botOrUser('messages.write', 'dm_channels.messages.write'),
    scopeByResource: '`messages.write` in a guild channel, `dm_channels.messages.write` in a DM channel',
  },
  'DELETE /channels/:channel_id/messages/:message_id/reactions/:emoji/:user_id': {
    ...botOrUser('messages.write', 'dm_channels.messages.write'),
    scopeByResource: '`messages.write` in a guild channel, `dm_channels.messages.write` in a DM channel',
  },
  'GET /channels/:channel_id/messages/:message_id/reactions/:emoji': {
    ...botOrUser('messages.read', 'dm_channels.messages.read'),
    scopeByResource: '`messages.read` in a guild channel, `dm_channels.messages.read` in a DM channel',
  },
  'DELETE /channels/:channel_id/messages/:message_id/reactions/:emoji': {
    ...botOrUser('messages.write', 'dm_channels.messages.write'),
    scopeByResource: '`messages.write` in a guild channel, `dm_channels.messages.write` in a DM channel',
  },
  'DELETE /channels/:channel_id/messages/:message_id/reactions': {
    ...botOrUser('messages.write', 'dm_channels.messages.write'),
    scopeByResource: '`messages.write` in a guild channel, `dm_channels.messages.write` in a DM channel',
  },
  // Bulk Delete Messages: the public docs give it to bots (MANAGE_MESSAGES).
  'POST /channels/:channel_id/messages/bulk-delete': BOT,
  'POST /channels/:channel_id/messages/:message_id/crosspost': botOrUser('messages.write'),
  // Polls: an answer's voters (read), and the author ending its poll.
  'GET /channels/:channel_id/polls/:message_id/answers/:answer_id': botOrUser('messages.read'),
  'POST /channels/:channel_id/polls/:message_id/expire': botOrUser('messages.write'),
  'POST /channels/:channel_id/typing': {
    ...botOrUser('messages.write', 'dm_channels.messages.write'),
    scopeByResource: '`messages.write` in a guild channel, `dm_channels.messages.write` in a DM channel',
  },

  // Invites. Reading one needs its code and any token; everything else is for bots.
  'POST /channels/:channel_id/invites': BOT,
  'GET /channels/:channel_id/invites': BOT,
  'GET /invites/:code': botOrUser(),
  'DELETE /invites/:code': BOT,
  'GET /invites/:code/target-users': BOT,
  'PUT /invites/:code/target-users': BOT,
  'GET /invites/:code/target-users/job-status': BOT,
  'PUT /invites/:code/target-users/:user_id': BOT,
  'DELETE /invites/:code/target-users/:user_id': BOT,
  'POST /invites/:code/target-users/bulk-add': BOT,
  'POST /invites/:code/target-users/bulk-delete': BOT,

  // Monetization: users see their own entitlements and subscriptions with `applications.entitlements`.
  'GET /applications/:application_id/skus': botOrUser(),
  'GET /applications/:application_id/entitlements': botOrUser('applications.entitlements'),
  'POST /applications/:application_id/entitlements': BOT,
  'GET /applications/:application_id/entitlements/:entitlement_id': botOrUser('applications.entitlements'),
  'DELETE /applications/:application_id/entitlements/:entitlement_id': BOT,
  'POST /applications/:application_id/entitlements/:entitlement_id/consume': botOrUser('applications.entitlements'),
  'GET /skus/:sku_id/subscriptions': botOrUser('applications.entitlements'),
  'GET /skus/:sku_id/subscriptions/:subscription_id': botOrUser('applications.entitlements'),

  // The application object, for its own bot.
  'GET /applications/@me': BOT,
  'GET /applications/:application_id': BOT,
  'PATCH /applications/@me': BOT,
  'GET /applications/:application_id/role-connections/metadata': BOT,
  'PUT /applications/:application_id/role-connections/metadata': BOT,
  'GET /users/@me/applications/:application_id/role-connection': user('role_connections.write'),
  'PUT /users/@me/applications/:application_id/role-connection': user('role_connections.write'),
  'DELETE /users/@me/applications/:application_id/role-connection': user('role_connections.write'),
  'PATCH /applications/:application_id': BOT,

  // Application commands and application emoji: the application's bot.
  'GET /applications/:application_id/commands': BOT,
  'POST /applications/:application_id/commands': BOT,
  'PUT /applications/:application_id/commands': BOT,
  'GET /applications/:application_id/commands/:command_id': BOT,
  'PATCH /applications/:application_id/commands/:command_id': BOT,
  'DELETE /applications/:application_id/commands/:command_id': BOT,
  'GET /applications/:application_id/guilds/:guild_id/commands': BOT,
  'POST /applications/:application_id/guilds/:guild_id/commands': BOT,
  'PUT /applications/:application_id/guilds/:guild_id/commands': BOT,
  'GET /applications/:application_id/guilds/:guild_id/commands/:command_id': BOT,
  'PATCH /applications/:application_id/guilds/:guild_id/commands/:command_id': BOT,
  'DELETE /applications/:application_id/guilds/:guild_id/commands/:command_id': BOT,
  'GET /applications/:application_id/guilds/:guild_id/commands/permissions': BOT,
  'GET /applications/:application_id/guilds/:guild_id/commands/:command_id/permissions': BOT,
  // The docs: a user's Bearer token with this scope, never a bot token.
  'PUT /applications/:application_id/guilds/:guild_id/commands/:command_id/permissions': user(
    'applications.commands.permissions.update',
  ),
  'GET /applications/:application_id/activity-instances/:instance_id': BOT,
  'GET /applications/:application_id/emojis': BOT,
  'POST /applications/:application_id/emojis': BOT,
  'GET /applications/:application_id/emojis/:emoji_id': BOT,
  'PATCH /applications/:application_id/emojis/:emoji_id': BOT,
  'DELETE /applications/:application_id/emojis/:emoji_id': BOT,

  // The platform client's view for an activity's token (not the public API).
  'GET /rpc/session': user(),
  'GET /rpc/channels/:channel_id': user('guilds'),
  'GET /rpc/channels/:channel_id/permissions': user('guilds.members.read'),
  'GET /rpc/guilds/:guild_id/status': user('guilds'),
  'GET /rpc/lobbies/:lobby_id': user(),
  'GET /rpc/skus': user(),
  'GET /rpc/entitlements': user(),
  'POST /rpc/purchases': user(),
  'GET /rpc/relationships': user('relationships.read'),
  'GET /rpc/users/:user_id': user(),
  'GET /rpc/quest': user('identify'),
  'GET /rpc/quests/:quest_id/enrollment': user('identify'),
  'POST /rpc/quests/:quest_id/timer': user('identify'),
  'POST /rpc/proxy-tickets': user(),
  'POST /rpc/image-uploads': user(),
  'GET /rpc/share-targets': user(),
  'POST /rpc/shared-moments': user(),
  'POST /rpc/shared-interactions': user(),
  'POST /rpc/activity-invites': user('activities.invites.write', 'dm_channels.messages.write'),
  'POST /rpc/activity-joins/claim': user(),
  'GET /rpc/device': user(),
};

/**
 * Who may call the route `key`; undefined for a route the table does not know (a test keeps
 * that from happening).
 * @example accessOf('GET /guilds/:guild_id/emojis') // BOT
 */
export function accessOf(key: RouteKey): RouteAccess | undefined {
  if (key.split(' ')[1].startsWith('/sandbox/')) return SANDBOX_ACCESS;
  return ROUTE_ACCESS[key];
}
