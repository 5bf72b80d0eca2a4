/**
 * The JSON body of every route that takes one: the schema the route validates it with (imported
 * from where the route imports it) and a valid body in the route world, rich enough that nested
 * objects and array items are there to be made wrong. Where a route reads part of its body
 * later with a schema of its own (an interaction callback's `data`, an interaction's command
 * `data`), the entry joins the two. Routes that change something without a JSON body are listed
 * apart, each with why.
 */
import * as v from 'valibot';
import type { RouteKey } from '../../../src/platform/oauth2/route-access';
import { jsonObject } from '../../../src/platform/core/json-object';
import { SANDBOX_INTERACTION_BODY_MAX_BYTES } from '../../../src/platform/core/limits';
import {
  BanSchema,
  BotProvisionalTokenSchema,
  BotUnmergeSchema,
  ChildTokenSchema,
  CreateApplicationEmojiSchema,
  ExternalAuthTokenSchema,
  IdentityProviderConfigSchema,
  ModifyApplicationSchema,
  ModifyCurrentUserSchema,
  PrivilegedIntentsDecisionSchema,
  RenameEmojiSchema,
  SandboxApplicationPatchSchema,
  SandboxApplicationSchema,
  SandboxConnectionSchema,
  SandboxIdentityProviderSchema,
  SandboxIdTokenSchema,
  SandboxUserProfileSchema,
  SandboxUserSchema,
} from '../../../src/platform/accounts/schemas';
import { ActivityInviteSchema } from '../../../src/platform/activities/activity-invites';
import {
  AddRecipientSchema,
  CreatePrivateChannelSchema,
  SandboxGroupDmSchema,
} from '../../../src/platform/group-dms/schemas';
import { ClientDeviceSchema } from '../../../src/platform/activities/client-devices';
import { QuestCreateSchema } from '../../../src/platform/activities/quests';
import {
  ActivityJoinSchema,
  QuestEnrollmentSchema,
  UrlMappingResolveSchema,
  UrlMappingsSchema,
} from '../../../src/platform/activities/schemas';
import { FaultSchema, RateLimitSettingsSchema } from '../../../src/platform/faults/fault-schemas';
import { SharedInteractionSchema, SharedMomentSchema } from '../../../src/platform/activities/shares';
import {
  IncidentActionsSchema,
  ModifyOnboardingSchema,
  ModifyWelcomeScreenSchema,
  ModifyWidgetSchema,
  TargetUsersBulkSchema,
} from '../../../src/platform/guilds/settings-schemas';
import {
  ChannelPositionsSchema,
  CreateGuildChannelSchema,
  CreateInviteSchema,
  ModifyChannelSchema,
  OverwriteSchema,
} from '../../../src/platform/channels/schemas';
import {
  CreateWebhookSchema,
  ModifyWebhookByTokenSchema,
  ModifyWebhookSchema,
} from '../../../src/platform/channel-webhooks/schemas';
import { SlackWebhookSchema } from '../../../src/platform/channel-webhooks/slack';
import { FixtureSetBodySchema } from '../../../src/platform/core/fixture-sets';
import { SandboxClockSchema } from '../../../src/platform/core/sandbox-clock';
import {
  AddGuildMemberSchema,
  BanMemberSchema,
  BulkBanSchema,
  CreateGuildEmojiSchema,
  CreateGuildSchema,
  CreateRoleSchema,
  ModifyGuildEmojiSchema,
  ModifyGuildSchema,
  CreateScheduledEventSchema,
  ModifyCurrentMemberSchema,
  ModifyMemberSchema,
  ModifyRoleSchema,
  PremiumTierSchema,
  PruneSchema,
  RolePositionsSchema,
  SandboxAcceptInviteSchema,
  SandboxChannelSchema,
  SandboxGuildSchema,
  SandboxMemberSchema,
  SandboxPrimaryGuildSchema,
  SandboxRoleSchema,
} from '../../../src/platform/guilds/schemas';
import {
  RoleConnectionMetadataSchema,
  RoleConnectionSchema,
} from '../../../src/platform/accounts/role-connection-schemas';
import { ModifyScheduledEventSchema } from '../../../src/platform/guilds/scheduled-event-schemas';
import { InteractionResponseSchema } from '../../../src/platform/interactions/callback';
import {
  CommandBulkSchema,
  CommandCreateSchema,
  CommandPermissionsSchema,
  CommandEditSchema,
} from '../../../src/platform/interactions/command-schemas';
import { SandboxInteractionSchema } from '../../../src/platform/interactions/create';
import { CommandDataSchema } from '../../../src/platform/interactions/data';
import { InteractionsEndpointSchema } from '../../../src/platform/interactions/schemas';
import {
  BulkLobbyMembersSchema,
  CreateOrJoinLobbySchema,
  LinkChannelSchema,
  LobbyMessageSchema,
  LobbySettingsSchema,
  PutLobbyMemberSchema,
} from '../../../src/platform/lobbies/schemas';
import { DmMessageSchema, ModerationMetadataSchema } from '../../../src/platform/messages/direct-message-schemas';
import {
  AutoModKeywordsSchema,
  BulkDeleteSchema,
  MessageCreateSchema,
  MessageEditSchema,
  SandboxPollVotesSchema,
} from '../../../src/platform/messages/schemas';
import {
  ClientPurchaseSchema,
  CreateSkuSchema,
  PurchaseSchema,
  RenewalSkusSchema,
  TestEntitlementSchema,
} from '../../../src/platform/monetization/schemas';
import { AuthorizeDecisionSchema, SandboxTokenSchema } from '../../../src/platform/oauth2/schemas';
import { PutActivitySchema } from '../../../src/platform/presence/presence';
import {
  FriendRequestByUsernameSchema,
  PutGameRelationshipSchema,
  PutRelationshipSchema,
  SandboxRelationshipSchema,
} from '../../../src/platform/relationships/schemas';
import {
  ModifyCurrentVoiceStateSchema,
  ModifyUserVoiceStateSchema,
  SandboxVoiceStateSchema,
  VoiceStatusSchema,
} from '../../../src/platform/voice/schemas';
import { EventWebhooksSchema, WebhookSinkSchema } from '../../../src/platform/webhooks/schemas';
import { StartThreadFromMessageSchema, StartThreadSchema } from '../../../src/platform/threads/schemas';
import { PNG } from './guild-admin-fixtures';
import type { RouteWorld } from './route-world';

/** A route's JSON body: its schema, a valid body, and what else the route needs to read it. */
export interface RouteBody {
  schema: v.GenericSchema;
  valid: (w: RouteWorld) => unknown;
  /** The query string the route needs besides. */
  query?: (w: RouteWorld) => string;
  /** The platform clock the route needs (a dated rule would answer before the body is read). */
  clock?: string;
  /** The route's own body size limit, when it is not JSON_BODY_MAX_BYTES. */
  maxBytes?: number;
}

/** A message as rich as the message routes take: embeds with fields, mentions, a poll. */
const richMessage = (w: RouteWorld) => ({
  content: 'hello',
  nonce: 'n-1',
  tts: false,
  embeds: [
    {
      title: 'Title',
      description: 'Description',
      url: 'https://example.com',
      timestamp: '2026-03-10T12:00:00Z',
      color: 0xff0000,
      footer: { text: 'Footer' },
      image: { url: 'https://example.com/a.png' },
      author: { name: 'Author' },
      fields: [{ name: 'Field', value: 'Value', inline: true }],
    },
  ],
  allowed_mentions: { parse: ['users'], replied_user: false },
  message_reference: { message_id: w.message.id, channel_id: w.text.id },
  flags: 4,
  poll: {
    question: { text: 'Which?' },
    answers: [{ poll_media: { text: 'This one', emoji: { name: '👍' } } }],
    duration: 24,
    allow_multiselect: false,
  },
});

/** An activity as PUT /users/@me/activities takes it, every part present. */
const richActivity = {
  activity: {
    type: 0,
    state: 'In a match',
    state_url: 'https://example.com/state',
    details: 'Ranked',
    details_url: 'https://example.com/details',
    status_display_type: 1,
    timestamps: { start: 1_773_144_000_000, end: 1_773_147_600_000 },
    assets: { large_image: 'map', large_text: 'Map', large_url: 'https://example.com/map', small_image: 'hero' },
    party: { id: 'party-1', size: [1, 4] },
    secrets: { join: 'join-secret' },
  },
};

const command = {
  name: 'cast',
  description: 'Cast a spell',
  type: 1,
  options: [
    {
      type: 3,
      name: 'spell',
      description: 'Which spell',
      required: true,
      choices: [{ name: 'Fire', value: 'fire' }],
      max_length: 20,
    },
    { type: 4, name: 'power', description: 'How strong', min_value: 1, max_value: 10 },
  ],
  default_member_permissions: '0',
  contexts: [0, 1],
  integration_types: [0],
  nsfw: false,
};

/** Every route that takes a JSON body, by its key in the access table. */
/** An application edit with every field the sandbox takes. */
const applicationEdit = () => ({
  description: 'Rolls dice',
  tags: ['dice', 'games'],
  custom_install_url: 'https://game.example/install',
  role_connections_verification_url: 'https://game.example/verify',
  install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048' },
  integration_types_config: { '0': { oauth2_install_params: { scopes: ['bot'], permissions: '0' } }, '1': {} },
  flags: 1 << 19,
});

export const ROUTE_BODIES: Partial<Record<RouteKey, RouteBody>> = {
  // Lobbies.
  'PUT /lobbies': {
    schema: CreateOrJoinLobbySchema,
    valid: () => ({
      secret: 'join-me',
      idle_timeout_seconds: 600,
      lobby_metadata: { mode: 'ranked' },
      member_metadata: { hero: 'mage' },
      flags: 1,
    }),
  },
  'POST /lobbies': {
    schema: LobbySettingsSchema,
    valid: (w) => ({
      metadata: { mode: 'ranked' },
      members: [{ id: w.alice.id, metadata: { hero: 'mage' }, flags: 1 }],
      idle_timeout_seconds: 600,
      flags: 1,
    }),
  },
  'PATCH /lobbies/:lobby_id': {
    schema: LobbySettingsSchema,
    valid: (w) => ({ metadata: { mode: 'casual' }, members: [{ id: w.bob.id, flags: 1 }], flags: null }),
  },
  'POST /lobbies/:lobby_id/members/bulk': {
    // The public shape is a bare array; `{members: [...]}` is taken too.
    schema: v.union([BulkLobbyMembersSchema.entries.members, BulkLobbyMembersSchema]),
    valid: (w) => ({ members: [{ id: w.carol.id, metadata: { hero: 'rogue' }, flags: 1, remove_member: false }] }),
  },
  'PUT /lobbies/:lobby_id/members/:user_id': {
    schema: PutLobbyMemberSchema,
    valid: () => ({ metadata: { hero: 'bard' }, flags: 1 }),
  },
  'POST /lobbies/:lobby_id/messages': {
    schema: LobbyMessageSchema,
    valid: () => ({ content: 'gg', metadata: { turn: '3' } }),
  },
  'PUT /lobbies/:lobby_id/messages/:message_id/moderation-metadata': {
    schema: ModerationMetadataSchema,
    valid: () => ({ verdict: 'clean' }),
  },
  'PATCH /lobbies/:lobby_id/channel-linking': { schema: LinkChannelSchema, valid: (w) => ({ channel_id: w.text.id }) },

  // Users, relationships, direct messages, presence.
  'PUT /users/@me/activities': { schema: PutActivitySchema, valid: () => richActivity },
  'POST /users/@me/relationships': { schema: FriendRequestByUsernameSchema, valid: () => ({ username: 'carol' }) },
  'PUT /users/@me/relationships/:user_id': { schema: PutRelationshipSchema, valid: () => ({ type: 1 }) },
  'POST /users/@me/game-relationships': { schema: FriendRequestByUsernameSchema, valid: () => ({ username: 'carol' }) },
  'PUT /users/@me/game-relationships/:user_id': { schema: PutGameRelationshipSchema, valid: () => ({ type: 1 }) },
  'POST /users/@me/dms/:recipient_id/messages': {
    schema: DmMessageSchema,
    valid: () => ({ content: 'hi', metadata: { kind: 'chat' } }),
  },
  'POST /users/@me/channels': { schema: CreatePrivateChannelSchema, valid: (w) => ({ recipient_id: w.bob.id }) },
  'PUT /channels/:channel_id/recipients/:user_id': {
    schema: AddRecipientSchema,
    valid: (w) => ({ access_token: w.aliceAccessToken, nick: 'Al' }),
  },
  'POST /sandbox/group-dms': {
    schema: SandboxGroupDmSchema,
    valid: (w) => ({ application_id: w.application.id, user_ids: [w.alice.id], name: 'Party' }),
  },
  'PUT /partner-sdk/dms/:user_id_1/:user_id_2/messages/:message_id/moderation-metadata': {
    schema: ModerationMetadataSchema,
    valid: () => ({ verdict: 'clean' }),
  },

  // Guilds, channels, messages, invites, emoji.
  // Before 2025-07-15, when applications could still create guilds.
  'POST /guilds': { schema: CreateGuildSchema, valid: () => ({ name: 'New guild' }), clock: '2025-07-01T00:00:00Z' },
  'PATCH /guilds/:guild_id/roles/:role_id': {
    schema: ModifyRoleSchema,
    valid: () => ({
      name: 'renamed',
      permissions: '1024',
      colors: { primary_color: 0xff0000, secondary_color: 0x00ff00, tertiary_color: null },
      hoist: true,
      mentionable: false,
    }),
  },
  'PATCH /guilds/:guild_id': {
    schema: ModifyGuildSchema,
    valid: (w) => ({ name: 'Renamed guild', icon: PNG, banner: null, owner_id: w.alice.id }),
  },
  'POST /guilds/:guild_id/roles': {
    schema: CreateRoleSchema,
    valid: () => ({ name: 'Raiders', permissions: '1024', color: 0x3498db, hoist: true, mentionable: true }),
  },
  'PATCH /guilds/:guild_id/roles': { schema: RolePositionsSchema, valid: (w) => [{ id: w.role.id, position: 1 }] },
  'PUT /guilds/:guild_id/bans/:user_id': { schema: BanMemberSchema, valid: () => ({ delete_message_seconds: 3600 }) },
  'POST /guilds/:guild_id/bulk-ban': {
    schema: BulkBanSchema,
    valid: (w) => ({ user_ids: [w.bob.id, w.carol.id], delete_message_seconds: 0 }),
  },
  'PUT /guilds/:guild_id/members/:user_id': {
    schema: AddGuildMemberSchema,
    valid: (w) => ({ access_token: w.aliceAccessToken, nick: 'Bobby', roles: [w.role.id], mute: false, deaf: false }),
  },
  'PATCH /guilds/:guild_id/members/@me': {
    schema: ModifyCurrentMemberSchema,
    valid: () => ({ nick: 'Bot', avatar: null, banner: null, bio: 'A bot' }),
  },
  'PATCH /guilds/:guild_id/members/:user_id': {
    schema: ModifyMemberSchema,
    valid: (w) => ({
      nick: 'Bobby',
      roles: [w.role.id],
      mute: false,
      deaf: false,
      channel_id: null,
      communication_disabled_until: '2026-03-11T12:00:00Z',
      flags: 0,
    }),
  },
  'POST /guilds/:guild_id/prune': {
    schema: PruneSchema,
    valid: (w) => ({ days: 7, compute_prune_count: true, include_roles: [w.role.id], reason: 'tidy' }),
  },
  'POST /guilds/:guild_id/scheduled-events': {
    schema: CreateScheduledEventSchema,
    valid: (w) => ({
      name: 'Raid',
      description: 'Bring potions',
      privacy_level: 2,
      entity_type: 2,
      channel_id: w.voice.id,
      scheduled_start_time: '2026-03-12T20:00:00Z',
      scheduled_end_time: '2026-03-12T22:00:00Z',
    }),
  },
  'PATCH /guilds/:guild_id/scheduled-events/:event_id': {
    schema: ModifyScheduledEventSchema,
    valid: (w) => ({
      name: 'Raid II',
      description: null,
      privacy_level: 2,
      entity_type: 2,
      channel_id: w.voice.id,
      entity_metadata: null,
      scheduled_start_time: '2026-03-12T21:00:00Z',
      scheduled_end_time: '2026-03-12T23:00:00Z',
      status: 1,
      image: null,
      recurrence_rule: null,
    }),
  },
  'PATCH /users/@me': {
    schema: ModifyCurrentUserSchema,
    valid: () => ({ username: 'Game A Bot', avatar: PNG, banner: null }),
  },
  'PATCH /applications/@me': { schema: ModifyApplicationSchema, valid: applicationEdit },
  'PATCH /applications/:application_id': { schema: ModifyApplicationSchema, valid: applicationEdit },
  'PUT /applications/:application_id/role-connections/metadata': {
    schema: RoleConnectionMetadataSchema,
    valid: () => [
      {
        type: 2,
        key: 'level',
        name: 'Level',
        name_localizations: { fr: 'Niveau' },
        description: 'Level reached',
        description_localizations: { fr: 'Niveau atteint' },
      },
    ],
  },
  'PUT /users/@me/applications/:application_id/role-connection': {
    schema: RoleConnectionSchema,
    valid: () => ({ platform_name: 'Game', platform_username: 'alice', metadata: {} }),
  },
  'POST /guilds/:guild_id/emojis': {
    schema: CreateGuildEmojiSchema,
    valid: (w) => ({ name: 'wave', image: PNG, roles: [w.role.id] }),
  },
  'PATCH /guilds/:guild_id/emojis/:emoji_id': {
    schema: ModifyGuildEmojiSchema,
    valid: (w) => ({ name: 'wave_hello', roles: [w.role.id] }),
  },
  'PATCH /guilds/:guild_id/voice-states/@me': {
    schema: ModifyCurrentVoiceStateSchema,
    valid: (w) => ({ channel_id: w.voice.id, suppress: true, request_to_speak_timestamp: '2026-03-10T12:00:00Z' }),
  },
  'PATCH /guilds/:guild_id/voice-states/:user_id': {
    schema: ModifyUserVoiceStateSchema,
    valid: (w) => ({ channel_id: w.voice.id, suppress: true }),
  },
  'PATCH /guilds/:guild_id/welcome-screen': {
    schema: ModifyWelcomeScreenSchema,
    valid: (w) => ({
      enabled: true,
      description: 'Welcome',
      welcome_channels: [{ channel_id: w.text.id, description: 'Say hi', emoji_id: null, emoji_name: 'wave' }],
    }),
  },
  'PATCH /guilds/:guild_id/widget': {
    schema: ModifyWidgetSchema,
    valid: (w) => ({ enabled: true, channel_id: w.text.id }),
  },
  'PUT /guilds/:guild_id/onboarding': {
    schema: ModifyOnboardingSchema,
    valid: (w) => ({
      enabled: false,
      mode: 0,
      default_channel_ids: [w.text.id],
      prompts: [
        {
          id: w.role.id,
          title: 'What do you play?',
          type: 0,
          single_select: false,
          required: false,
          in_onboarding: true,
          options: [
            {
              title: 'Raids',
              description: 'Weekly raids',
              emoji_name: 'sword',
              emoji_animated: false,
              role_ids: [w.role.id],
              channel_ids: [w.text.id],
            },
          ],
        },
      ],
    }),
  },
  'PUT /guilds/:guild_id/incident-actions': {
    schema: IncidentActionsSchema,
    valid: () => ({ invites_disabled_until: '2026-03-10T13:00:00Z', dms_disabled_until: null }),
  },
  'POST /invites/:code/target-users/bulk-add': {
    schema: TargetUsersBulkSchema,
    valid: (w) => ({ user_ids: [w.bob.id] }),
  },
  'POST /invites/:code/target-users/bulk-delete': {
    schema: TargetUsersBulkSchema,
    valid: (w) => ({ user_ids: [w.bob.id] }),
  },
  'PUT /channels/:channel_id/permissions/:overwrite_id': {
    schema: OverwriteSchema,
    valid: () => ({ type: 0, allow: '1024', deny: '0' }),
  },
  'PUT /channels/:channel_id/voice-status': { schema: VoiceStatusSchema, valid: () => ({ status: 'Raiding' }) },
  'POST /channels/:channel_id/messages': { schema: MessageCreateSchema, valid: richMessage },
  'POST /channels/:channel_id/messages/:message_id/threads': {
    schema: StartThreadFromMessageSchema,
    valid: () => ({ name: 'Talk', auto_archive_duration: 60, rate_limit_per_user: 5 }),
  },
  'POST /channels/:channel_id/threads': {
    schema: StartThreadSchema,
    valid: () => ({ name: 'Plans', auto_archive_duration: 4320, rate_limit_per_user: 0, type: 12, invitable: false }),
  },
  'PUT /sandbox/channels/:channel_id/polls/:message_id/votes/:user_id': {
    schema: SandboxPollVotesSchema,
    valid: () => ({ answer_ids: [1] }),
  },
  'POST /channels/:channel_id/messages/bulk-delete': {
    schema: BulkDeleteSchema,
    valid: (w) => ({ messages: [w.message.id, String(BigInt(w.message.id) + 1n)] }),
  },
  'PATCH /channels/:channel_id/messages/:message_id': {
    schema: MessageEditSchema,
    valid: () => ({ content: 'edited', embeds: [{ title: 'Edited', fields: [{ name: 'a', value: 'b' }] }], flags: 4 }),
  },
  'POST /channels/:channel_id/invites': {
    schema: CreateInviteSchema,
    valid: (w) => ({ max_age: 3600, max_uses: 5, temporary: false, unique: true, role_ids: [w.role.id] }),
  },
  'POST /applications/:application_id/emojis': {
    schema: CreateApplicationEmojiSchema,
    valid: () => ({ name: 'sparkle', image: PNG }),
  },
  'PATCH /applications/:application_id/emojis/:emoji_id': {
    schema: RenameEmojiSchema,
    valid: () => ({ name: 'shine' }),
  },

  // Monetization and commands.
  'POST /applications/:application_id/entitlements': {
    schema: TestEntitlementSchema,
    valid: (w) => ({ sku_id: w.gold.id, owner_id: w.bob.id, owner_type: 2 }),
  },
  'POST /applications/:application_id/commands': { schema: CommandCreateSchema, valid: () => command },
  'PUT /applications/:application_id/guilds/:guild_id/commands/:command_id/permissions': {
    schema: CommandPermissionsSchema,
    valid: (w) => ({
      permissions: [
        { id: w.role.id, type: 1, permission: true },
        { id: w.bob.id, type: 2, permission: false },
        { id: w.text.id, type: 3, permission: true },
      ],
    }),
  },
  'PUT /applications/:application_id/commands': { schema: CommandBulkSchema, valid: () => [command] },
  'PATCH /applications/:application_id/commands/:command_id': {
    schema: CommandEditSchema,
    valid: () => ({ description: 'Roll two dice', options: command.options }),
  },
  'POST /applications/:application_id/guilds/:guild_id/commands': { schema: CommandCreateSchema, valid: () => command },
  'PUT /applications/:application_id/guilds/:guild_id/commands': { schema: CommandBulkSchema, valid: () => [command] },
  'PATCH /applications/:application_id/guilds/:guild_id/commands/:command_id': {
    schema: CommandEditSchema,
    valid: () => ({ description: 'A duel', options: command.options }),
  },

  // The platform client's routes for an activity.
  'POST /rpc/purchases': { schema: ClientPurchaseSchema, valid: (w) => ({ sku_id: w.gold.id, guild_id: null }) },
  'POST /rpc/shared-moments': {
    schema: SharedMomentSchema,
    valid: (w) => ({ media_url: 'https://cdn.discordapp.com/attachments/1/2/a.png', channel_id: w.text.id }),
  },
  'POST /rpc/shared-interactions': {
    schema: SharedInteractionSchema,
    valid: (w) => ({ channel_id: w.text.id, command: 'roll', options: [{ name: 'sides', value: '6' }] }),
  },
  'POST /rpc/activity-invites': {
    schema: ActivityInviteSchema,
    valid: (w) => ({ user_id: w.bob.id, channel_id: w.text.id, content: 'Join us' }),
  },

  // OAuth2, the partner SDK, interactions.
  'POST /oauth2/authorize': {
    schema: AuthorizeDecisionSchema,
    valid: (w) => ({ authorize: true, user_id: w.alice.id }),
    query: (w) => `?client_id=${w.application.id}&response_type=code&scope=identify`,
  },
  'POST /partner-sdk/token': {
    schema: ExternalAuthTokenSchema,
    valid: (w) => ({
      client_id: w.application.id,
      client_secret: w.clientSecret,
      external_auth_type: 'OIDC',
      external_auth_token: 'a.b.c',
    }),
  },
  'POST /partner-sdk/token/bot': {
    schema: BotProvisionalTokenSchema,
    valid: () => ({ external_user_id: 'player-1', preferred_global_name: 'Player One' }),
  },
  'POST /partner-sdk/provisional-accounts/unmerge': {
    schema: ExternalAuthTokenSchema,
    valid: (w) => ({
      client_id: w.application.id,
      client_secret: w.clientSecret,
      external_auth_type: 'OIDC',
      external_auth_token: 'a.b.c',
    }),
  },
  'POST /partner-sdk/provisional-accounts/unmerge/bot': {
    schema: BotUnmergeSchema,
    valid: () => ({ external_user_id: 'player-1' }),
  },
  'POST /partner-sdk/child-token': {
    schema: ChildTokenSchema,
    valid: (w) => ({ parent_access_token: w.aliceAccessToken, child_application_id: w.child.id }),
  },
  'POST /interactions/:interaction_id/:token/callback': {
    // A CHANNEL_MESSAGE_WITH_SOURCE answer: its `data` is read as a message.
    schema: jsonObject({ type: InteractionResponseSchema.entries.type, data: v.nullish(MessageCreateSchema) }),
    valid: (w) => ({ type: 4, data: { ...richMessage(w), message_reference: undefined, poll: undefined } }),
  },
  // Called with the world's answered interaction (an application's id): a follow-up and its edits.
  'POST /webhooks/:webhook_id/:token': { schema: MessageCreateSchema, valid: () => ({ content: 'follow-up' }) },
  'PATCH /webhooks/:webhook_id/:token/messages/:message_id': {
    schema: MessageEditSchema,
    valid: () => ({ content: 'edited', embeds: [{ title: 'Edited' }] }),
  },
  'PATCH /webhooks/:webhook_id/:token/messages/@original': {
    schema: MessageEditSchema,
    valid: () => ({ content: 'edited', embeds: [{ title: 'Edited' }] }),
  },
  // The world's incoming webhook.
  'POST /webhooks/:webhook_id/:token/slack': {
    schema: SlackWebhookSchema,
    valid: () => ({
      text: 'deployed',
      username: 'CI',
      icon_url: null,
      attachments: [{ title: 'Build', color: '#36a64f', fields: [{ title: 'Status', value: 'green', short: true }] }],
    }),
  },
  'PATCH /webhooks/:webhook_id/:token': { schema: ModifyWebhookByTokenSchema, valid: () => ({ name: 'Renamed' }) },
  'PATCH /webhooks/:webhook_id': {
    schema: ModifyWebhookSchema,
    valid: (w) => ({ name: 'Renamed', avatar: null, channel_id: w.text.id }),
  },
  // A thread's PATCH reads its body with EditThreadSchema instead; its refusals (50035, nothing
  // changed) are proved in threads-channels.test.ts.
  'PATCH /channels/:channel_id': {
    schema: ModifyChannelSchema,
    valid: (w) => ({
      name: 'renamed',
      topic: 'Releases',
      nsfw: false,
      rate_limit_per_user: 5,
      position: 1,
      permission_overwrites: [{ id: w.role.id, type: 0, allow: '0', deny: '2048' }],
    }),
  },
  'POST /guilds/:guild_id/channels': {
    schema: CreateGuildChannelSchema,
    valid: (w) => ({
      name: 'builds',
      type: 0,
      topic: 'CI',
      rate_limit_per_user: 0,
      permission_overwrites: [{ id: w.role.id, type: 0, allow: '1024', deny: '0' }],
    }),
  },
  'PATCH /guilds/:guild_id/channels': {
    schema: ChannelPositionsSchema,
    valid: (w) => [{ id: w.text.id, position: 2, lock_permissions: false, parent_id: null }],
  },
  'POST /channels/:channel_id/webhooks': {
    schema: CreateWebhookSchema,
    valid: () => ({ name: 'Builds', avatar: null }),
  },

  // The sandbox control API.
  'POST /sandbox/users': {
    schema: SandboxUserSchema,
    valid: () => ({ username: 'dave', global_name: 'Dave', premium_type: 0 }),
  },
  'PATCH /sandbox/users/:user_id': {
    schema: SandboxUserProfileSchema,
    valid: () => ({ username: 'alice2', global_name: 'Alice', avatar: null }),
  },
  'POST /sandbox/applications': {
    schema: SandboxApplicationSchema,
    valid: (w) => ({ name: 'Game C', owner_id: w.alice.id, flags: 0, bot_public: true }),
  },
  'PATCH /sandbox/applications/:application_id': {
    schema: SandboxApplicationPatchSchema,
    valid: () => ({
      approvals: { identify_premium: true, sdk_terms_accepted: true, privileged_intents_approved: false },
      flags: 0,
      channel_obfuscation: false,
      redirect_uris: ['https://example.com/callback'],
    }),
  },
  'POST /sandbox/tokens': {
    schema: SandboxTokenSchema,
    valid: (w) => ({ application_id: w.application.id, user_id: w.bob.id, scopes: 'identify' }),
  },
  'POST /sandbox/guilds': {
    schema: SandboxGuildSchema,
    valid: (w) => ({ name: 'Another guild', owner_id: w.bob.id, features: ['COMMUNITY'] }),
  },
  'PUT /sandbox/fixture-sets/:name': {
    schema: FixtureSetBodySchema,
    valid: () => ({ value: { lobby_id: '1', user_ids: ['2', '3'] } }),
  },
  'PUT /sandbox/guilds/:guild_id/members/:user_id': {
    schema: SandboxMemberSchema,
    valid: (w) => ({ roles: [w.role.id], nick: 'Bob' }),
  },
  'POST /sandbox/guilds/:guild_id/roles': {
    schema: SandboxRoleSchema,
    valid: () => ({ name: 'new', permissions: '0', colors: { primary_color: 1, secondary_color: null } }),
  },
  'POST /sandbox/guilds/:guild_id/channels': {
    schema: SandboxChannelSchema,
    valid: (w) => ({
      name: 'new-channel',
      type: 0,
      parent_id: null,
      permission_overwrites: [{ id: w.role.id, type: 0, allow: '0', deny: '1024' }],
      rate_limit_per_user: 5,
    }),
  },
  'PUT /sandbox/clock': { schema: SandboxClockSchema, valid: () => ({ now: '2026-03-10T12:00:00Z' }) },
  'POST /sandbox/faults': {
    schema: FaultSchema,
    valid: () => ({ type: 'http_error', method: 'GET', path: '/api/v10/users/@me', count: 2, status: 502 }),
  },
  'PUT /sandbox/rate-limits': {
    schema: RateLimitSettingsSchema,
    valid: () => ({ enabled: true, route_limit: 5, route_window_seconds: 5, global_per_second: 50 }),
  },
  'POST /sandbox/url-mappings/resolve': {
    schema: UrlMappingResolveSchema,
    valid: () => ({ url: 'http://platform.test/.proxy/backend/ping', referrer: '' }),
  },
  'POST /sandbox/identity-providers': {
    schema: SandboxIdentityProviderSchema,
    valid: () => ({ audience: 'game-b', alg: 'RS256' }),
  },
  'POST /sandbox/identity-providers/:id/id-tokens': {
    schema: SandboxIdTokenSchema,
    valid: () => ({ sub: 'player-2', expires_in: 3600, preferred_username: 'p2', nonce: 'n' }),
  },
  'PUT /sandbox/applications/:application_id/identity-provider': {
    schema: IdentityProviderConfigSchema,
    valid: (w) => ({ auth_type: 'OIDC', issuer: w.provider.issuer, audience: 'game-a', legacy: false }),
  },
  'POST /sandbox/users/:user_id/ban': { schema: BanSchema, valid: () => ({ permanent: false }) },
  'POST /sandbox/users/:user_id/connections': {
    schema: SandboxConnectionSchema,
    valid: () => ({ type: 'steam', name: 'alice', id: '42', verified: true, visibility: 1, legacy: false }),
  },
  'POST /sandbox/applications/:application_id/skus': {
    schema: CreateSkuSchema,
    valid: () => ({ name: 'Gems', type: 3, flags: 4, price: { amount: 199, currency: 'usd' } }),
  },
  'POST /sandbox/purchases': {
    schema: PurchaseSchema,
    valid: (w) => ({ user_id: w.bob.id, sku_id: w.gold.id, guild_id: null, legacy: false, country: 'US' }),
  },
  'PATCH /sandbox/subscriptions/:subscription_id': {
    schema: RenewalSkusSchema,
    valid: (w) => ({ renewal_sku_ids: [w.premium.id] }),
  },
  'PUT /sandbox/users/:user_id/relationships/:other_id': {
    schema: SandboxRelationshipSchema,
    valid: (w) => ({ type: 1, application_id: w.application.id }),
  },
  'POST /sandbox/invites/:code/accept': { schema: SandboxAcceptInviteSchema, valid: (w) => ({ user_id: w.carol.id }) },
  'PUT /sandbox/guilds/:guild_id/voice-states/:user_id': {
    schema: SandboxVoiceStateSchema,
    valid: (w) => ({ channel_id: w.voice.id }),
  },
  'PUT /sandbox/users/:user_id/primary-guild': {
    schema: SandboxPrimaryGuildSchema,
    valid: (w) => ({ guild_id: w.guild.id, tag: 'GG', badge: null }),
  },
  'PUT /sandbox/guilds/:guild_id/automod/keywords': {
    schema: AutoModKeywordsSchema,
    valid: () => ({ keywords: ['spoiler'] }),
  },
  'PUT /sandbox/guilds/:guild_id/premium-tier': { schema: PremiumTierSchema, valid: () => ({ premium_tier: 2 }) },
  'POST /sandbox/quests/:quest_id/enrollments': {
    schema: QuestEnrollmentSchema,
    valid: (w) => ({ application_id: w.application.id, user_id: w.bob.id, quest_name: 'Quest' }),
  },
  'POST /sandbox/applications/:application_id/privileged-intents-applications': {
    schema: PrivilegedIntentsDecisionSchema,
    valid: () => ({ decision: 'approved' }),
  },
  'PUT /sandbox/applications/:application_id/url-mappings': {
    schema: UrlMappingsSchema,
    valid: () => ({ url_mappings: [{ prefix: '/api', target: 'example.com' }] }),
  },
  'POST /sandbox/quests': {
    schema: QuestCreateSchema,
    valid: (w) => ({ application_id: w.application.id, name: 'Second quest', play_seconds: 60, expires_at: null }),
  },
  'PUT /sandbox/users/:user_id/device': { schema: ClientDeviceSchema, valid: () => ({ thermal_state: 2 }) },
  'POST /sandbox/users/:user_id/activity-joins': {
    schema: ActivityJoinSchema,
    valid: (w) => ({ application_id: w.application.id, from_user_id: w.bob.id }),
  },
  'PUT /sandbox/applications/:application_id/event-webhooks': {
    schema: EventWebhooksSchema,
    valid: () => ({ url: 'https://example.com/hook', types: ['ENTITLEMENT_CREATE'], enabled: true }),
  },
  'POST /sandbox/webhook-sinks': { schema: WebhookSinkSchema, valid: () => ({ respond_with: 200 }) },
  'POST /sandbox/interactions': {
    // A command's interaction: its `data` is read as command data.
    schema: jsonObject({ ...SandboxInteractionSchema.entries, data: v.nullish(CommandDataSchema) }),
    valid: (w) => ({
      application_id: w.application.id,
      user_id: w.alice.id,
      type: 2,
      guild_id: w.guild.id,
      channel_id: w.text.id,
      locale: 'en-US',
      data: { name: 'roll', type: 1 },
    }),
    maxBytes: SANDBOX_INTERACTION_BODY_MAX_BYTES,
  },
  'PUT /sandbox/applications/:application_id/interactions-endpoint': {
    schema: InteractionsEndpointSchema,
    valid: () => ({ url: null }),
  },
};

/** Routes that change something and read no JSON body, and why. */
export const ROUTES_WITHOUT_JSON_BODY: Partial<Record<RouteKey, string>> = {
  'POST /oauth2/token': 'application/x-www-form-urlencoded (RFC 6749)',
  'POST /oauth2/token/revoke': 'application/x-www-form-urlencoded (RFC 7009)',
  'POST /rpc/image-uploads': 'multipart/form-data: the picked file',
  'PUT /invites/:code/target-users': 'multipart/form-data: the target users CSV',
  'PUT /invites/:code/target-users/:user_id': 'no body: everything is in the path',
  'POST /sandbox/webhook-sinks/:sink_id': 'a webhook receiver: it keeps whatever body a delivery sends',
  'POST /rpc/quests/:quest_id/timer': 'no body: the quest is in the path',
  'POST /rpc/proxy-tickets': 'no body: the ticket is for the token',
  'POST /rpc/activity-joins/claim': 'no body: the join is the token user’s',
  'PUT /guilds/:guild_id/members/:user_id/roles/:role_id': 'no body: everything is in the path',
  'PUT /channels/:channel_id/messages/pins/:message_id': 'no body: everything is in the path',
  'PUT /channels/:channel_id/pins/:message_id': 'no body: everything is in the path',
  'POST /channels/:channel_id/typing': 'no body: the channel is in the path',
  'PUT /channels/:channel_id/thread-members/@me': 'no body: the thread is in the path',
  'PUT /channels/:channel_id/thread-members/:user_id': 'no body: everything is in the path',
  'PUT /channels/:channel_id/messages/:message_id/reactions/:emoji/@me': 'no body: everything is in the path',
  'POST /channels/:channel_id/polls/:message_id/expire': 'no body: everything is in the path',
  'POST /channels/:channel_id/messages/:message_id/crosspost': 'no body: everything is in the path',
  'POST /applications/:application_id/entitlements/:entitlement_id/consume': 'no body: everything is in the path',
  'POST /lobbies/:lobby_id/members/@me/invites': 'no body: everything is in the path',
  'POST /lobbies/:lobby_id/members/:user_id/invites': 'no body: everything is in the path',
  'POST /sandbox/reset': 'no body',
  'PUT /sandbox/applications/:parent_id/children/:child_id': 'no body: everything is in the path',
  'POST /sandbox/subscriptions/advance': 'no body: settles what the clock has passed',
  'POST /sandbox/subscriptions/:subscription_id/cancel': 'no body: everything is in the path',
  'POST /sandbox/subscriptions/:subscription_id/resume': 'no body: everything is in the path',
  'POST /sandbox/subscriptions/:subscription_id/expire': 'no body: everything is in the path',
  'POST /sandbox/subscriptions/:subscription_id/migrate': 'no body: everything is in the path',
  'POST /sandbox/guilds/:guild_id/index': 'no body: everything is in the path',
  'PUT /sandbox/guilds/:guild_id/scheduled-events/:event_id/users/:user_id': 'no body: everything is in the path',
};
