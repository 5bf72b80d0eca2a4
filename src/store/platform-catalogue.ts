/**
 * The platform database's stores and indexes (the shape `PlatformDB` types). IndexedDB reaches
 * it through its migrations; an engine that starts empty creates it from here.
 */
import type { Catalogue } from './catalogue';
import type { PlatformDB, PlatformStoreName } from './schema';

/** Every store of the platform database. */
export const PLATFORM_CATALOGUE: Catalogue<PlatformDB> = {
  meta: { indexes: {} },
  users: { keyPath: 'id', indexes: { by_username: { keyPath: 'username' } } },
  applications: {
    keyPath: 'id',
    indexes: {
      by_bot_token: { keyPath: 'bot_token_hash', unique: true },
      by_bot_user: { keyPath: 'bot_user_id', unique: true },
    },
  },
  tokens: {
    keyPath: 'hash',
    indexes: { by_user: { keyPath: 'user_id' }, by_application_user: { keyPath: ['application_id', 'user_id'] } },
  },
  auth_codes: { keyPath: 'hash', indexes: { by_application_user: { keyPath: ['application_id', 'user_id'] } } },
  guilds: { keyPath: 'id', indexes: {} },
  roles: { keyPath: 'id', indexes: { by_guild: { keyPath: 'guild_id' } } },
  channels: { keyPath: 'id', indexes: { by_guild: { keyPath: 'guild_id' } } },
  members: { keyPath: ['guild_id', 'user_id'], indexes: { by_user: { keyPath: 'user_id' } } },
  lobbies: {
    keyPath: 'id',
    indexes: {
      by_secret: { keyPath: ['application_id', 'secret'], unique: true },
      by_idle_deadline: { keyPath: 'idle_deadline' },
      by_linked_channel: { keyPath: 'linked_channel_id' },
    },
  },
  lobby_members: {
    keyPath: ['lobby_id', 'user_id'],
    indexes: { by_user_application: { keyPath: ['user_id', 'application_id'] } },
  },
  lobby_messages: { keyPath: ['lobby_id', 'order_key'], indexes: {} },
  events: { keyPath: 'seq', autoIncrement: true, indexes: {} },
  gateway_sessions: { keyPath: 'session_id', indexes: {} },
  gateway_resume_marks: { keyPath: ['session_id', 's'], indexes: {} },
  gateway_resume_batches: {
    keyPath: 'id',
    autoIncrement: true,
    indexes: {
      by_session_point: { keyPath: 'keys', multiEntry: true },
      by_start_batch: { keyPath: ['start', 'n'] },
    },
  },
  gateway_rate_limits: { keyPath: ['application_id', 'guild_id'], indexes: {} },
  presences: { keyPath: 'user_id', indexes: {} },
  external_identities: {
    keyPath: ['application_id', 'provider', 'subject'],
    indexes: { by_user: { keyPath: 'user_id' } },
  },
  identity_provider_configs: { keyPath: ['application_id', 'auth_type'], indexes: {} },
  sandbox_identity_providers: { keyPath: 'id', indexes: { by_issuer: { keyPath: 'issuer', unique: true } } },
  bans: { keyPath: 'user_id', indexes: {} },
  connections: { keyPath: ['user_id', 'id'], indexes: {} },
  application_links: {
    keyPath: ['parent_application_id', 'child_application_id'],
    indexes: { by_child: { keyPath: 'child_application_id', unique: true } },
  },
  event_webhooks: { keyPath: 'application_id', indexes: {} },
  webhook_deliveries: {
    keyPath: 'id',
    indexes: {
      by_event: { keyPath: ['event_seq', 'application_id'], unique: true },
      by_next_attempt: { keyPath: 'next_attempt_at' },
    },
  },
  webhook_outbox: { indexes: {} },
  webhook_sinks: { keyPath: 'id', indexes: {} },
  relationships: {
    keyPath: ['user_id', 'application_id', 'other_id'],
    indexes: {
      by_pair: { keyPath: ['user_id', 'other_id'] },
      by_type: { keyPath: ['user_id', 'application_id', 'type'] },
    },
  },
  dm_channels: {
    keyPath: 'id',
    indexes: {
      by_pair: { keyPath: ['user_low', 'user_high'], unique: true },
      by_recipient: { keyPath: 'recipient_ids', multiEntry: true },
    },
  },
  dm_messages: { keyPath: ['channel_id', 'order_key'], indexes: {} },
  group_dm_channels: {
    keyPath: 'id',
    indexes: {
      by_member: { keyPath: 'member_ids', multiEntry: true },
      by_application: { keyPath: 'application_id' },
    },
  },
  group_dm_messages: { keyPath: ['channel_id', 'order_key'], indexes: {} },
  invites: { keyPath: 'code', indexes: { by_channel: { keyPath: 'channel_id' }, by_guild: { keyPath: 'guild_id' } } },
  emojis: {
    keyPath: 'id',
    indexes: {
      by_application: { keyPath: 'application_id' },
      by_guild: { keyPath: 'guild_id' },
      by_application_name: { keyPath: ['application_id', 'name'] },
    },
  },
  emoji_images: { keyPath: 'emoji_id', indexes: {} },
  guild_bans: { keyPath: ['guild_id', 'user_id'], indexes: {} },
  guild_scheduled_events: { keyPath: 'id', indexes: { by_guild: { keyPath: 'guild_id' } } },
  role_connections: { keyPath: ['application_id', 'user_id'], indexes: {} },
  application_command_permissions: { keyPath: ['application_id', 'guild_id', 'command_id'], indexes: {} },
  guild_scheduled_event_users: {
    keyPath: ['guild_scheduled_event_id', 'order_key'],
    indexes: { by_guild_user: { keyPath: ['guild_id', 'user_id'] } },
  },
  voice_states: { keyPath: ['guild_id', 'user_id'], indexes: { by_channel: { keyPath: 'channel_id' } } },
  audit_log_entries: {
    keyPath: ['guild_id', 'order_key'],
    indexes: { by_guild_action: { keyPath: ['guild_id', 'action_type', 'order_key'] } },
  },
  channel_messages: {
    keyPath: ['channel_id', 'order_key'],
    indexes: {
      by_guild: { keyPath: ['guild_id', 'order_key'] },
      by_author: { keyPath: ['channel_id', 'author_id', 'order_key'] },
      by_nonce: { keyPath: ['channel_id', 'author_id', 'nonce_key'] },
      by_pin: { keyPath: ['channel_id', 'pin_key'] },
    },
  },
  message_reactions: { keyPath: ['channel_id', 'message_id', 'emoji_key', 'type', 'user_key'], indexes: {} },
  poll_votes: { keyPath: ['channel_id', 'message_id', 'answer_key', 'user_key'], indexes: {} },
  attachment_files: { keyPath: 'id', indexes: {} },
  message_search_indexes: { keyPath: 'guild_id', indexes: {} },
  automod_keywords: { keyPath: 'guild_id', indexes: {} },
  forward_counters: { keyPath: 'user_id', indexes: {} },
  skus: { keyPath: 'id', indexes: { by_application: { keyPath: 'application_id' } } },
  entitlements: {
    keyPath: 'id',
    indexes: {
      by_application: { keyPath: ['application_id', 'order_key'] },
      by_user: { keyPath: ['application_id', 'user_id', 'order_key'] },
      by_guild: { keyPath: ['application_id', 'guild_id', 'order_key'] },
    },
  },
  subscriptions: {
    keyPath: 'id',
    indexes: { by_user: { keyPath: ['user_id', 'order_key'] }, by_due: { keyPath: 'due_at' } },
  },
  quest_enrollments: { keyPath: ['quest_id', 'user_id'], indexes: {} },
  privileged_intent_applications: { keyPath: 'application_id', indexes: {} },
  voice_tokens: { keyPath: ['server_id', 'user_id'], indexes: { by_token: { keyPath: 'token_hash', unique: true } } },
  lobby_voice_states: { keyPath: ['application_id', 'user_id'], indexes: { by_lobby: { keyPath: 'lobby_id' } } },
  application_commands: {
    keyPath: 'id',
    indexes: {
      by_scope: { keyPath: ['application_id', 'scope_key'] },
      by_name: { keyPath: ['application_id', 'scope_key', 'type', 'name'], unique: true },
    },
  },
  interactions: {
    keyPath: 'id',
    indexes: { by_token: { keyPath: 'token_hash', unique: true }, by_user: { keyPath: ['application_id', 'user_id'] } },
  },
  interaction_messages: { keyPath: 'id', indexes: {} },
  interaction_endpoints: { keyPath: 'application_id', indexes: {} },
  request_records: { keyPath: 'key', indexes: { by_at: { keyPath: 'at' } } },
  quests: { keyPath: 'id', indexes: { by_application: { keyPath: 'application_id' } } },
  activity_joins: { keyPath: ['user_id', 'application_id'], indexes: {} },
  client_devices: { keyPath: 'user_id', indexes: {} },
  proxy_tickets: {
    keyPath: 'ticket_hash',
    indexes: { by_user_application: { keyPath: ['application_id', 'user_id'] } },
  },
  ephemeral_attachments: { keyPath: 'id', indexes: {} },
  dm_voice_states: { keyPath: ['application_id', 'user_id'], indexes: { by_channel: { keyPath: 'channel_id' } } },
  fixture_sets: { keyPath: 'name', indexes: {} },
  activity_instances: {
    keyPath: 'instance_id',
    indexes: { by_application_channel: { keyPath: ['application_id', 'channel_id'], unique: true } },
  },
  guild_settings: { keyPath: 'guild_id', indexes: {} },
  thread_members: { keyPath: ['thread_id', 'user_id'], indexes: { by_user: { keyPath: 'user_id' } } },
  channel_webhooks: {
    keyPath: 'id',
    indexes: { by_channel: { keyPath: 'channel_id' }, by_guild: { keyPath: 'guild_id' } },
  },
};

/** Every store, for transactions that touch all of them (reset). */
export const ALL_STORES = Object.keys(PLATFORM_CATALOGUE) as PlatformStoreName[];
