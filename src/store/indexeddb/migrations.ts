/**
 * Versioned schema migrations. Migration N upgrades a database at version N-1 to N; opening
 * runs every migration above the stored version, in order, inside the upgrade transaction.
 * A migration only adds: data written at version N stays readable at N+1.
 */
import type { IDBPDatabase, IDBPTransaction } from 'idb';
import type { GatewayResumeMark, GatewayResumePart, GatewaySessionRecord } from '../schema';

/** One migration step, in the upgrade transaction. */
export type Migration = (db: IDBPDatabase, tx: IDBPTransaction<unknown, string[], 'versionchange'>) => void;

/** The migrations by the version they produce; index 0 is unused. */
export const MIGRATIONS: readonly Migration[] = [
  () => undefined,
  // 1: the platform core, OAuth2 and lobbies.
  (db) => {
    db.createObjectStore('meta');
    db.createObjectStore('users', { keyPath: 'id' });
    const apps = db.createObjectStore('applications', { keyPath: 'id' });
    apps.createIndex('by_bot_token', 'bot_token_hash', { unique: true });
    apps.createIndex('by_bot_user', 'bot_user_id', { unique: true });
    const tokens = db.createObjectStore('tokens', { keyPath: 'hash' });
    tokens.createIndex('by_user', 'user_id');
    tokens.createIndex('by_application_user', ['application_id', 'user_id']);
    db.createObjectStore('auth_codes', { keyPath: 'hash' });
    db.createObjectStore('guilds', { keyPath: 'id' });
    db.createObjectStore('roles', { keyPath: 'id' }).createIndex('by_guild', 'guild_id');
    db.createObjectStore('channels', { keyPath: 'id' }).createIndex('by_guild', 'guild_id');
    db.createObjectStore('members', { keyPath: ['guild_id', 'user_id'] }).createIndex('by_user', 'user_id');
    const lobbies = db.createObjectStore('lobbies', { keyPath: 'id' });
    lobbies.createIndex('by_secret', ['application_id', 'secret'], { unique: true });
    lobbies.createIndex('by_idle_deadline', 'idle_deadline');
    db.createObjectStore('lobby_members', { keyPath: ['lobby_id', 'user_id'] }).createIndex('by_user_application', [
      'user_id',
      'application_id',
    ]);
    db.createObjectStore('lobby_messages', { keyPath: ['lobby_id', 'order_key'] });
    db.createObjectStore('events', { keyPath: 'seq', autoIncrement: true });
  },
  // 2: authorization codes by application and user, to tell a first authorization (which emits
  // APPLICATION_AUTHORIZED) from a repeated one, and to purge a user's expired codes.
  (_db, tx) => {
    tx.objectStore('auth_codes').createIndex('by_application_user', ['application_id', 'user_id']);
  },
  // 3: gateway sessions (Resume survives a restart of the shared worker) and the all-members
  // Request Guild Members rate limit per application and guild.
  (db) => {
    db.createObjectStore('gateway_sessions', { keyPath: 'session_id' });
    db.createObjectStore('gateway_rate_limits', { keyPath: ['application_id', 'guild_id'] });
  },
  // 4: rich presence, one record per user (SET_ACTIVITY, PUT /users/@me/activities).
  (db) => {
    db.createObjectStore('presences', { keyPath: 'user_id' });
  },
  // 5: accounts: external identities of provisional and linked accounts, applications' identity
  // providers, the sandbox's own test identity providers, bans, connections, and approved
  // publisher/child application pairs.
  (db) => {
    db.createObjectStore('external_identities', { keyPath: ['application_id', 'provider', 'subject'] }).createIndex(
      'by_user',
      'user_id',
    );
    db.createObjectStore('identity_provider_configs', { keyPath: ['application_id', 'auth_type'] });
    db.createObjectStore('sandbox_identity_providers', { keyPath: 'id' }).createIndex('by_issuer', 'issuer', {
      unique: true,
    });
    db.createObjectStore('bans', { keyPath: 'user_id' });
    db.createObjectStore('connections', { keyPath: ['user_id', 'id'] });
    db.createObjectStore('application_links', {
      keyPath: ['parent_application_id', 'child_application_id'],
    }).createIndex('by_child', 'child_application_id', { unique: true });
  },
  // 6: webhook events: each application's settings and key pair, the outbox's deliveries (one
  // per event and application; only pending ones carry a next attempt time, so the due index
  // holds just what is left to send), its position in the event log, and the sandbox sinks.
  (db) => {
    db.createObjectStore('event_webhooks', { keyPath: 'application_id' });
    const deliveries = db.createObjectStore('webhook_deliveries', { keyPath: 'id' });
    deliveries.createIndex('by_event', ['event_seq', 'application_id'], { unique: true });
    deliveries.createIndex('by_next_attempt', 'next_attempt_at');
    db.createObjectStore('webhook_outbox');
    db.createObjectStore('webhook_sinks', { keyPath: 'id' });
  },
  // 7: relationships (each user's side, platform-wide or per game; by pair to find every scope
  // of two users at once, by type to count friends), DM channels (one per pair) and their
  // messages keyed newest first like lobby messages, and users by username for friend requests.
  (db, tx) => {
    const relationships = db.createObjectStore('relationships', { keyPath: ['user_id', 'application_id', 'other_id'] });
    relationships.createIndex('by_pair', ['user_id', 'other_id']);
    relationships.createIndex('by_type', ['user_id', 'application_id', 'type']);
    const channels = db.createObjectStore('dm_channels', { keyPath: 'id' });
    channels.createIndex('by_pair', ['user_low', 'user_high'], { unique: true });
    channels.createIndex('by_recipient', 'recipient_ids', { multiEntry: true });
    db.createObjectStore('dm_messages', { keyPath: ['channel_id', 'order_key'] });
    tx.objectStore('users').createIndex('by_username', 'username');
  },
  // 8: guild features: invites (by channel and guild), emoji of applications and of guilds in one
  // store (each owner field is absent on the other kind, so each index holds only its own),
  // scheduled events, voice states (by channel, to tell who is connected), audit log entries
  // keyed newest first per guild (and by action type for the filtered read), and lobbies by
  // linked channel (a channel is linked to one lobby at most).
  (db, tx) => {
    const invites = db.createObjectStore('invites', { keyPath: 'code' });
    invites.createIndex('by_channel', 'channel_id');
    invites.createIndex('by_guild', 'guild_id');
    const emojis = db.createObjectStore('emojis', { keyPath: 'id' });
    emojis.createIndex('by_application', 'application_id');
    emojis.createIndex('by_guild', 'guild_id');
    db.createObjectStore('guild_scheduled_events', { keyPath: 'id' }).createIndex('by_guild', 'guild_id');
    db.createObjectStore('voice_states', { keyPath: ['guild_id', 'user_id'] }).createIndex('by_channel', 'channel_id');
    db.createObjectStore('audit_log_entries', { keyPath: ['guild_id', 'order_key'] }).createIndex('by_guild_action', [
      'guild_id',
      'action_type',
      'order_key',
    ]);
    tx.objectStore('lobbies').createIndex('by_linked_channel', 'linked_channel_id');
  },
  // 9: messages of guild channels keyed newest first per channel (by guild for search, by author
  // for slowmode, by nonce for enforce_nonce, pinned ones newest pin first), their attachment
  // files, guild search indexes, AutoMod keyword rules and per-user forward counters.
  (db) => {
    const messages = db.createObjectStore('channel_messages', { keyPath: ['channel_id', 'order_key'] });
    messages.createIndex('by_guild', ['guild_id', 'order_key']);
    messages.createIndex('by_author', ['channel_id', 'author_id', 'order_key']);
    messages.createIndex('by_nonce', ['channel_id', 'author_id', 'nonce_key']);
    messages.createIndex('by_pin', ['channel_id', 'pin_key']);
    db.createObjectStore('attachment_files', { keyPath: 'id' });
    db.createObjectStore('message_search_indexes', { keyPath: 'guild_id' });
    db.createObjectStore('automod_keywords', { keyPath: 'guild_id' });
    db.createObjectStore('forward_counters', { keyPath: 'user_id' });
  },
  // 10: monetization: SKUs by application; entitlements in creation order per application, per
  // user and per guild (List Entitlements filters read one index range); subscriptions in
  // creation order per user, and by when their period falls due (only ongoing ones carry a due
  // time, so the lazy renewal reads just what is due).
  (db) => {
    db.createObjectStore('skus', { keyPath: 'id' }).createIndex('by_application', 'application_id');
    const entitlements = db.createObjectStore('entitlements', { keyPath: 'id' });
    entitlements.createIndex('by_application', ['application_id', 'order_key']);
    entitlements.createIndex('by_user', ['application_id', 'user_id', 'order_key']);
    entitlements.createIndex('by_guild', ['application_id', 'guild_id', 'order_key']);
    const subscriptions = db.createObjectStore('subscriptions', { keyPath: 'id' });
    subscriptions.createIndex('by_user', ['user_id', 'order_key']);
    subscriptions.createIndex('by_due', 'due_at');
  },
  // 11: emoji images apart from their emoji (a list of up to 2000 application emoji reads no
  // image), and application emoji by name (names are unique per application).
  (db, tx) => {
    db.createObjectStore('emoji_images', { keyPath: 'emoji_id' });
    tx.objectStore('emojis').createIndex('by_application_name', ['application_id', 'name']);
  },
  // 12: quest enrollments (one per quest and user, so a repeated enrollment records no second
  // QUEST_USER_ENROLLMENT) and each application's latest privileged intents application (the
  // spec allows one reapplication a year).
  (db) => {
    db.createObjectStore('quest_enrollments', { keyPath: ['quest_id', 'user_id'] });
    db.createObjectStore('privileged_intent_applications', { keyPath: 'application_id' });
  },
  // 13: voice signaling: each user's voice server token per guild or lobby (only its hash, found
  // by that hash when a voice connection identifies) and lobby call voice states (one lobby call
  // per user and application; by lobby to tell who is in a call).
  (db) => {
    db.createObjectStore('voice_tokens', { keyPath: ['server_id', 'user_id'] }).createIndex('by_token', 'token_hash', {
      unique: true,
    });
    db.createObjectStore('lobby_voice_states', { keyPath: ['application_id', 'user_id'] }).createIndex(
      'by_lobby',
      'lobby_id',
    );
  },
  // 14: application commands (per application and scope, names unique per type and scope),
  // interactions (found by their token's hash; by user for the modals they were shown), the
  // messages interactions create in DM contexts, and each application's interactions endpoint.
  (db) => {
    const commands = db.createObjectStore('application_commands', { keyPath: 'id' });
    commands.createIndex('by_scope', ['application_id', 'scope_key']);
    commands.createIndex('by_name', ['application_id', 'scope_key', 'type', 'name'], { unique: true });
    const interactions = db.createObjectStore('interactions', { keyPath: 'id' });
    interactions.createIndex('by_token', 'token_hash', { unique: true });
    interactions.createIndex('by_user', ['application_id', 'user_id']);
    db.createObjectStore('interaction_messages', { keyPath: 'id' });
    db.createObjectStore('interaction_endpoints', { keyPath: 'application_id' });
  },
  // 15: gateway resume points in a store of their own, one record per dispatch (they were an
  // array in each session record, rewritten whole with every dispatch). Sessions stored by
  // version 14 keep their resume points: they move here.
  (db, tx) => {
    const marks = db.createObjectStore('gateway_resume_marks', { keyPath: ['session_id', 's'] });
    void (async () => {
      for (
        let cursor = await tx.objectStore('gateway_sessions').openCursor();
        cursor;
        cursor = await cursor.continue()
      ) {
        const { marks: legacy = [], ...record } = cursor.value as GatewaySessionRecord & {
          marks?: [number, number, number][];
        };
        for (const [s, after, skip] of legacy) void marks.put({ session_id: record.session_id, s, after, skip });
        void cursor.update(record);
      }
    })();
  },
  // 16: requests that committed a write (by fingerprint or Idempotency-Key), so that a request
  // dispatched again to a restarted service worker is answered without being applied twice;
  // by time, to forget them.
  (db) => {
    db.createObjectStore('request_records', { keyPath: 'key' }).createIndex('by_at', 'at');
  },
  // 17: what the platform's client keeps for activities: quests by application, the latest
  // activity join per user and application, each user's simulated device, proxy tickets (by
  // hash; by user and application to drop expired ones) and images uploaded for activities.
  (db) => {
    db.createObjectStore('quests', { keyPath: 'id' }).createIndex('by_application', 'application_id');
    db.createObjectStore('activity_joins', { keyPath: ['user_id', 'application_id'] });
    db.createObjectStore('client_devices', { keyPath: 'user_id' });
    db.createObjectStore('proxy_tickets', { keyPath: 'ticket_hash' }).createIndex('by_user_application', [
      'application_id',
      'user_id',
    ]);
    db.createObjectStore('ephemeral_attachments', { keyPath: 'id' });
  },
  // 18: voice states of DM calls (a call between the two users of a DM channel, in one game): one
  // per user and application, by channel to tell who is in a call.
  (db) => {
    db.createObjectStore('dm_voice_states', { keyPath: ['application_id', 'user_id'] }).createIndex(
      'by_channel',
      'channel_id',
    );
  },
  // 19: fixture sets, named records of what a tool seeded (`/sandbox/fixture-sets/{name}`).
  (db) => {
    db.createObjectStore('fixture_sets', { keyPath: 'name' });
  },
  // 20: gateway resume points, one record per write of the gateway holding every session's
  // points it numbered (one put per fan-out instead of one per session), found by
  // `[session_id, first s]`. Points stored by version 19 are copied, one batch per session.
  (db, tx) => {
    const batches = db.createObjectStore('gateway_resume_batches', { keyPath: 'id', autoIncrement: true });
    batches.createIndex('by_session_point', 'keys', { multiEntry: true });
    void (async () => {
      const bySession = new Map<string, GatewayResumePart>();
      for (
        let cursor = await tx.objectStore('gateway_resume_marks').openCursor();
        cursor;
        cursor = await cursor.continue()
      ) {
        const { session_id, ...point } = cursor.value as GatewayResumeMark;
        const part = bySession.get(session_id) ?? { session_id, from: 0, points: [] };
        part.points.push(point);
        bySession.set(session_id, part);
      }
      for (const part of bySession.values())
        void batches.put({ parts: [part], keys: [[part.session_id, part.points[0].s]] });
    })();
  },
  // 21: a session's resume points keyed in the index only every few batches (its anchors); the
  // batches in between are found by their start of the gateway and their place among its
  // batches. Batches stored by version 20 key every part, so they are read as they are.
  (_db, tx) => {
    tx.objectStore('gateway_resume_batches').createIndex('by_start_batch', ['start', 'n']);
  },
  // 22: running activity instances (one per application and channel), so that the HTTP API
  // answers for them and a server shares them between devices.
  (db) => {
    db.createObjectStore('activity_instances', { keyPath: 'instance_id' }).createIndex(
      'by_application_channel',
      ['application_id', 'channel_id'],
      { unique: true },
    );
  },
  // 23: guild bans (`/guilds/{guild.id}/bans`), keyed `[guild_id, user_id]`; apart from `bans`,
  // the platform-wide account bans.
  (db) => {
    db.createObjectStore('guild_bans', { keyPath: ['guild_id', 'user_id'] });
  },
  // 24: guild settings a bot reads and edits (widget, welcome screen, onboarding, incident
  // actions), one record per guild.
  (db) => {
    db.createObjectStore('guild_settings', { keyPath: 'guild_id' });
  },
  // 25: users interested in a guild scheduled event, in user id order per event; application command
  // permissions; users' role connections.
  (db) => {
    db.createObjectStore('guild_scheduled_event_users', {
      keyPath: ['guild_scheduled_event_id', 'order_key'],
    }).createIndex('by_guild_user', ['guild_id', 'user_id']);
    // Application command permissions per guild (`command_id` = the application's id: all its commands).
    db.createObjectStore('application_command_permissions', { keyPath: ['application_id', 'guild_id', 'command_id'] });
    // Users' role connections to applications.
    db.createObjectStore('role_connections', { keyPath: ['application_id', 'user_id'] });
  },
  // 26: thread members (threads themselves are channels): by thread, and by user for the threads a
  // user has joined.
  (db) => {
    db.createObjectStore('thread_members', { keyPath: ['thread_id', 'user_id'] }).createIndex('by_user', 'user_id');
  },
  // 27: incoming webhooks of guild channels, listed by channel and by guild.
  (db) => {
    const webhooks = db.createObjectStore('channel_webhooks', { keyPath: 'id' });
    webhooks.createIndex('by_channel', 'channel_id');
    webhooks.createIndex('by_guild', 'guild_id');
  },
  // 28: reactions on messages (guild channels and DMs): one record per user, emoji and type, so an
  // emoji's users are one bounded read in user id order; and poll votes, one per user and answer.
  (db) => {
    db.createObjectStore('message_reactions', {
      keyPath: ['channel_id', 'message_id', 'emoji_key', 'type', 'user_key'],
    });
    db.createObjectStore('poll_votes', { keyPath: ['channel_id', 'message_id', 'answer_key', 'user_key'] });
  },
  // Group DMs an application's bot creates (by member, and by application for its active count),
  // and their messages, newest first per channel.
  (db) => {
    const channels = db.createObjectStore('group_dm_channels', { keyPath: 'id' });
    channels.createIndex('by_member', 'member_ids', { multiEntry: true });
    channels.createIndex('by_application', 'application_id');
    db.createObjectStore('group_dm_messages', { keyPath: ['channel_id', 'order_key'] });
  },
];

/** The schema version this code writes. */
export const DB_VERSION = MIGRATIONS.length - 1;
