/**
 * The gateway's dispatch wire: every dispatch name (`t`) the platform sends and the payload
 * (`d`) it carries, in one typed map that both ends import (msw's channel map, STYLE "one
 * protocol file per wire"). The platform builds payloads against it (`emit()` and the event
 * log are typed by it, see `events.ts`), the gateway dispatches them, and its clients (the game
 * SDK, the components, the demo) read them with the types narrowed by name.
 *
 * It lives with the store's records because the event log stores these payloads: the store is
 * the bottom floor, so every layer above can import the map without importing up. Payload
 * shapes follow the platform's public gateway; where the spec shows no shape, ours (and says so).
 */
import type { GuildMemberResponse } from 'discord-api-spec';
import type { Channel, GuildRecord, Lobby, LobbyMember, MemberRecord, Message, Role, Snowflake, User } from './core';
import type { DmChannel } from './direct-messages';
import type { GroupDmChannel } from './group-dms';
import type { ChannelMessage, ReactionEmoji } from './messages';
import type { serializeEntitlement, serializeSubscription } from './monetization';
import type { WirePresence } from './presence';
import type { GameRelationship, Relationship } from './relationships';

/** The guild object, with its roles as the gateway sends it. */
export type Guild = Pick<GuildRecord, 'id' | 'name' | 'icon' | 'banner' | 'owner_id' | 'features'> & { roles: Role[] };

/** The guild member object with its user (`avatar` and `banner` are image hashes). */
export type GuildMember = GuildMemberResponse & Pick<MemberRecord, 'bio'> & { user: User };

/** A member event's member: GUILD_MEMBER_ADD and GUILD_MEMBER_UPDATE name the guild. */
export type GuildMemberEvent = GuildMember & { guild_id: Snowflake };

/**
 * GUILD_CREATE: the guild with its channels and members. At Identify it also carries the
 * counts and lists of a full guild (`member_count`, `presences`...); when a user joins a guild
 * later, their own sessions get it with the channels and their own member only.
 */
export interface GuildCreate extends Guild {
  channels: Channel[];
  members: GuildMember[];
  member_count?: number;
  joined_at?: string;
  large?: boolean;
  unavailable?: boolean;
  voice_states?: Omit<GuildVoiceState, 'guild_id'>[];
  presences?: WirePresence[];
  /** The guild's active threads the session's user can view. */
  threads?: Channel[];
  stage_instances?: never[];
  guild_scheduled_events?: never[];
}

/** A thread member on the wire; `member` (the guild member) where the route or event adds it. */
export interface ThreadMember {
  id: Snowflake;
  user_id: Snowflake;
  join_timestamp: string;
  flags: number;
  member?: GuildMember;
}

/** THREAD_MEMBERS_UPDATE: who joined or left a thread, and how many are in it now. */
export interface ThreadMembersUpdate {
  id: Snowflake;
  guild_id: Snowflake;
  member_count: number;
  added_members?: ThreadMember[];
  removed_member_ids?: Snowflake[];
}

/** THREAD_LIST_SYNC: the active threads of channels the user just gained access to, and their own memberships. */
export interface ThreadListSync {
  guild_id: Snowflake;
  channel_ids?: Snowflake[];
  threads: Channel[];
  members: ThreadMember[];
}

/** A voice state in a guild voice channel; `channel_id` is null in the update that says the user left. */
export interface GuildVoiceState {
  guild_id: Snowflake;
  channel_id: Snowflake | null;
  user_id: Snowflake;
  member: GuildMember;
  session_id: string;
  deaf: boolean;
  mute: boolean;
  self_deaf: boolean;
  self_mute: boolean;
  self_stream: boolean;
  self_video: boolean;
  suppress: boolean;
  request_to_speak_timestamp: string | null;
}

/** A voice state in a lobby call: no guild, the lobby id, and the lobby as its channel while in it. */
export interface LobbyVoiceState extends Omit<GuildVoiceState, 'guild_id' | 'member' | 'request_to_speak_timestamp'> {
  guild_id: null;
  lobby_id: Snowflake;
  request_to_speak_timestamp: null;
}

/** A voice state in a DM call: no guild, the DM channel as the call's id and as its channel while in it. */
export interface DmVoiceState extends Omit<GuildVoiceState, 'guild_id' | 'member' | 'request_to_speak_timestamp'> {
  guild_id: null;
  dm_channel_id: Snowflake;
  request_to_speak_timestamp: null;
}

/** A message of a guild channel as MESSAGE_CREATE and MESSAGE_UPDATE carry it; a create adds the author's member. */
export type GuildMessageEvent = ChannelMessage & { guild_id: Snowflake; member?: Omit<GuildMember, 'user'> };

/** The ids every reaction event carries (`guild_id` in a guild channel only). */
export interface ReactionEventIds {
  channel_id: Snowflake;
  message_id: Snowflake;
  guild_id?: Snowflake;
}

/** A vote added to or removed from a poll answer. */
export interface PollVoteEvent {
  user_id: Snowflake;
  channel_id: Snowflake;
  message_id: Snowflake;
  guild_id?: Snowflake;
  answer_id: number;
}

/** The emoji object (`user` is who uploaded it, when known). */
export interface Emoji {
  id: Snowflake;
  name: string;
  roles: Snowflake[];
  user?: User;
  require_colons: boolean;
  managed: boolean;
  animated: boolean;
  available: boolean;
}

/** The scheduled event object (times as ISO-8601). */
export interface ScheduledEvent {
  id: Snowflake;
  guild_id: Snowflake;
  channel_id: Snowflake | null;
  creator_id: Snowflake;
  name: string;
  description: string | null;
  scheduled_start_time: string | null;
  scheduled_end_time: string | null;
  privacy_level: 2;
  status: 1 | 2 | 3 | 4;
  entity_type: 1 | 2 | 3;
  entity_id: null;
  entity_metadata: { location: string } | null;
  creator?: User;
  /** Users interested in the event, when asked for with `with_user_count`. */
  user_count?: number;
  image: null;
  /** The event repeats by this rule; the platform's events here are one-time (null). */
  recurrence_rule: null;
  /** Occurrences of a repeating event moved or cancelled: none for a one-time event. */
  guild_scheduled_event_exceptions: never[];
}

/** A command's permissions in a guild (`id` is the command's, or the application's for all its commands). */
export interface GuildCommandPermissions {
  id: Snowflake;
  application_id: Snowflake;
  guild_id: Snowflake;
  permissions: { id: Snowflake; type: 1 | 2 | 3; permission: boolean }[];
}

/** A user added or removed their interest in a scheduled event. */
export interface ScheduledEventUserEvent {
  guild_scheduled_event_id: Snowflake;
  user_id: Snowflake;
  guild_id: Snowflake;
}

/** The interaction object as INTERACTION_CREATE (and an interactions endpoint) receives it. */
export interface Interaction {
  id: Snowflake;
  application_id: Snowflake;
  type: number;
  /** The command's, component's or modal's data, as the interaction type defines it. */
  data: unknown;
  guild?: { id: Snowflake; locale: string; features: string[] };
  guild_id?: Snowflake;
  channel: {
    id: Snowflake;
    type: number;
    name?: string | null;
    guild_id?: Snowflake | null;
    flags?: number;
    recipients?: User[];
  };
  channel_id: Snowflake;
  /** In a guild: the invoking member (with `permissions`); in a DM: `user`. */
  member?: (GuildMember & { permissions: string }) | null;
  user?: User;
  version: 1;
  /** The message a component sits on. */
  message?: ChannelMessage;
  app_permissions: string;
  locale: string;
  guild_locale?: string;
  entitlements: Entitlement[];
  authorizing_integration_owners: Record<string, Snowflake>;
  context: number;
  attachment_size_limit: number;
}

/** The entitlement object. */
export type Entitlement = ReturnType<typeof serializeEntitlement>;

/** The subscription object. */
export type Subscription = ReturnType<typeof serializeSubscription>;

/** READY: the session, its user and application, and the guilds that follow as GUILD_CREATE. */
export interface ReadyData {
  v: number;
  user: User;
  guilds: { id: Snowflake; unavailable: true }[];
  session_id: string;
  session_type: 'normal';
  /** Where to Resume (the client adds `?v=10&encoding=json`). */
  resume_gateway_url: string;
  private_channels: never[];
  /** A user's session: their friends' presences. */
  presences?: WirePresence[];
  application: { id: Snowflake; flags: number };
  shard?: [number, number];
}

/** GUILD_MEMBERS_CHUNK: one chunk of the answer to Request Guild Members. */
export interface GuildMembersChunk {
  guild_id: Snowflake;
  members: GuildMember[];
  chunk_index: number;
  chunk_count: number;
  not_found?: Snowflake[];
  presences?: WirePresence[];
  nonce?: string;
}

/** A lobby member event: the lobby and the member concerned. */
export interface LobbyMemberEvent {
  lobby_id: Snowflake;
  member: LobbyMember;
}

/** VOICE_SERVER_UPDATE: where the voice gateway is (a path of this origin) and the token to identify with. */
export interface VoiceServerUpdate {
  token: string;
  guild_id: Snowflake | null;
  endpoint: string;
  /** A lobby call: the lobby. */
  channel_id?: Snowflake;
}

/** An invite's event: INVITE_CREATE carries its settings, INVITE_DELETE the code only. */
export interface InviteDelete {
  channel_id: Snowflake;
  guild_id: Snowflake;
  code: string;
}

/** INVITE_CREATE. */
export interface InviteCreate extends InviteDelete {
  created_at: string;
  expires_at: string | null;
  inviter?: User;
  max_age: number;
  max_uses: number;
  temporary: boolean;
  uses: number;
}

/**
 * ACTIVITY_LAUNCH (ours: the spec shows no shape): an interaction launched the application's
 * Activity for the invoking user, whose platform client (the host page) opens it.
 */
export interface ActivityLaunch {
  application_id: Snowflake;
  instance_id: string;
  interaction_id: Snowflake;
  user_id: Snowflake;
  channel_id: Snowflake;
  guild_id: Snowflake | null;
}

/**
 * What each dispatch carries, by name: every dispatch the gateway sends. Most come from the
 * event log (appended by the change that caused them); READY, RESUMED, GUILD_MEMBERS_CHUNK,
 * CHANNEL_INFO, RATE_LIMITED and VOICE_SERVER_UPDATE answer one session's own request.
 */
export interface GatewayDispatchPayloads {
  READY: ReadyData;
  RESUMED: Record<string, never>;
  USER_UPDATE: User;
  GUILD_CREATE: GuildCreate;
  GUILD_DELETE: { id: Snowflake };
  /** The guild after a change (Modify Guild, its settings), with its roles and emoji. */
  GUILD_UPDATE: Guild & Record<string, unknown>;
  GUILD_BAN_ADD: { guild_id: Snowflake; user: User };
  GUILD_BAN_REMOVE: { guild_id: Snowflake; user: User };
  GUILD_ROLE_CREATE: { guild_id: Snowflake; role: Role };
  GUILD_ROLE_UPDATE: { guild_id: Snowflake; role: Role };
  GUILD_ROLE_DELETE: { guild_id: Snowflake; role_id: Snowflake };
  GUILD_MEMBER_ADD: GuildMemberEvent;
  GUILD_MEMBER_UPDATE: GuildMemberEvent;
  GUILD_MEMBER_REMOVE: { guild_id: Snowflake; user: User };
  GUILD_MEMBERS_CHUNK: GuildMembersChunk;
  GUILD_EMOJIS_UPDATE: { guild_id: Snowflake; emojis: Emoji[] };
  GUILD_INTEGRATIONS_UPDATE: { guild_id: Snowflake };
  INTEGRATION_DELETE: { id: Snowflake; guild_id: Snowflake; application_id: Snowflake };
  GUILD_SCHEDULED_EVENT_CREATE: ScheduledEvent;
  GUILD_SCHEDULED_EVENT_UPDATE: ScheduledEvent;
  GUILD_SCHEDULED_EVENT_DELETE: ScheduledEvent;
  GUILD_SCHEDULED_EVENT_USER_ADD: ScheduledEventUserEvent;
  GUILD_SCHEDULED_EVENT_USER_REMOVE: ScheduledEventUserEvent;
  APPLICATION_COMMAND_PERMISSIONS_UPDATE: GuildCommandPermissions;
  /** A guild channel, or a DM channel to each of its two users when it is created, or a group DM to each member. */
  CHANNEL_CREATE: Channel | DmChannel | GroupDmChannel;
  CHANNEL_UPDATE: Channel | GroupDmChannel;
  CHANNEL_DELETE: Channel | GroupDmChannel;
  /** A user joined a group DM (to its other members), with the nickname they were added with. */
  CHANNEL_RECIPIENT_ADD: { channel_id: Snowflake; user: User; nick?: string };
  /** A user left a group DM (to its remaining members). */
  CHANNEL_RECIPIENT_REMOVE: { channel_id: Snowflake; user: User };
  /** A thread: `newly_created` when it was just started; `member` for a user added to it. */
  THREAD_CREATE: Channel & { newly_created?: boolean; member?: ThreadMember };
  THREAD_UPDATE: Channel;
  THREAD_DELETE: { id: Snowflake; guild_id: Snowflake; parent_id: Snowflake | null; type: number };
  THREAD_LIST_SYNC: ThreadListSync;
  THREAD_MEMBER_UPDATE: ThreadMember & { guild_id: Snowflake };
  THREAD_MEMBERS_UPDATE: ThreadMembersUpdate;
  CHANNEL_PINS_UPDATE: { guild_id: Snowflake; channel_id: Snowflake; last_pin_timestamp: string | null };
  /** A channel's incoming webhooks were created, changed or deleted (GUILD_WEBHOOKS intent). */
  WEBHOOKS_UPDATE: { guild_id: Snowflake; channel_id: Snowflake };
  /** The answer to Request Channel Info (op 43): the fields asked for, of the voice channels the session can view. */
  CHANNEL_INFO: {
    guild_id: Snowflake;
    channels: { id: Snowflake; status?: string | null; voice_start_time?: number | null }[];
  };
  VOICE_CHANNEL_STATUS_UPDATE: { id: Snowflake; guild_id: Snowflake; status: string | null };
  VOICE_CHANNEL_START_TIME_UPDATE: { id: Snowflake; guild_id: Snowflake; voice_start_time: number | null };
  VOICE_STATE_UPDATE: GuildVoiceState | LobbyVoiceState | DmVoiceState;
  VOICE_SERVER_UPDATE: VoiceServerUpdate;
  INVITE_CREATE: InviteCreate;
  INVITE_DELETE: InviteDelete;
  /** A guild channel message (`guild_id` set), an interaction's message in a DM, or a direct message (`recipient_id` set). */
  MESSAGE_CREATE: GuildMessageEvent | ChannelMessage | Message;
  MESSAGE_UPDATE: GuildMessageEvent | ChannelMessage | Message;
  MESSAGE_DELETE: { id: Snowflake; channel_id: Snowflake; guild_id?: Snowflake };
  MESSAGE_DELETE_BULK: { ids: Snowflake[]; channel_id: Snowflake; guild_id?: Snowflake };
  /** A user reacted: `member` (with its user) in a guild; burst reactions are never added here. */
  MESSAGE_REACTION_ADD: ReactionEventIds & {
    user_id: Snowflake;
    member?: GuildMember;
    emoji: ReactionEmoji;
    message_author_id: Snowflake;
    burst: boolean;
    burst_colors: string[];
    type: 0 | 1;
  };
  MESSAGE_REACTION_REMOVE: ReactionEventIds & { user_id: Snowflake; emoji: ReactionEmoji; burst: boolean; type: 0 | 1 };
  MESSAGE_REACTION_REMOVE_ALL: ReactionEventIds;
  MESSAGE_POLL_VOTE_ADD: PollVoteEvent;
  MESSAGE_POLL_VOTE_REMOVE: PollVoteEvent;
  MESSAGE_REACTION_REMOVE_EMOJI: ReactionEventIds & { emoji: ReactionEmoji };
  PRESENCE_UPDATE: WirePresence & { guild_id?: Snowflake };
  /** Trigger Typing Indicator: `guild_id` and `member` in a guild channel, neither in a DM. */
  TYPING_START: {
    channel_id: Snowflake;
    guild_id?: Snowflake;
    user_id: Snowflake;
    timestamp: number;
    member?: GuildMember;
  };
  /** Rate limited Request Guild Members: which opcode, how long to wait, and the request's guild and nonce. */
  RATE_LIMITED: { opcode: number; retry_after: number; meta: { guild_id: Snowflake; nonce?: string } };
  INTERACTION_CREATE: Interaction;
  ACTIVITY_LAUNCH: ActivityLaunch;
  LOBBY_CREATE: Lobby;
  LOBBY_UPDATE: Lobby;
  LOBBY_DELETE: Lobby;
  LOBBY_MEMBER_ADD: LobbyMemberEvent;
  LOBBY_MEMBER_UPDATE: LobbyMemberEvent;
  LOBBY_MEMBER_REMOVE: LobbyMemberEvent;
  LOBBY_MESSAGE_CREATE: Message;
  LOBBY_MESSAGE_UPDATE: Message;
  RELATIONSHIP_ADD: Relationship;
  RELATIONSHIP_UPDATE: Relationship;
  RELATIONSHIP_REMOVE: Relationship;
  GAME_RELATIONSHIP_ADD: GameRelationship;
  GAME_RELATIONSHIP_UPDATE: GameRelationship;
  GAME_RELATIONSHIP_REMOVE: GameRelationship;
  ENTITLEMENT_CREATE: Entitlement;
  ENTITLEMENT_UPDATE: Entitlement;
  ENTITLEMENT_DELETE: Entitlement;
  SUBSCRIPTION_CREATE: Subscription;
  SUBSCRIPTION_UPDATE: Subscription;
  SUBSCRIPTION_DELETE: Subscription;
  // What only the platform's own client hears (sessions with its capability): the activity RPC
  // host turns them into the embedded-app events of the same names.
  ACTIVITY_JOIN: { user_id: Snowflake; application_id: Snowflake };
  THERMAL_STATE_UPDATE: { user_id: Snowflake; thermal_state: number };
  QUEST_ENROLLMENT_STATUS_UPDATE: {
    user_id: Snowflake;
    application_id: Snowflake;
    quest_id: Snowflake;
    is_enrolled: boolean;
    enrolled_at: string;
  };
}

/** A dispatch name. */
export type GatewayDispatchName = keyof GatewayDispatchPayloads;

/**
 * One dispatch, its name and payload together: `switch (dispatch.t)` narrows `dispatch.d`.
 * @example if (dispatch.t === 'LOBBY_CREATE') lobbies.set(dispatch.d.id, dispatch.d);
 */
export type GatewayDispatch = {
  [T in GatewayDispatchName]: { t: T; d: GatewayDispatchPayloads[T] };
}[GatewayDispatchName];
