/**
 * The durable event log's records (ARCHITECTURE rule 3): every change the spec says emits an
 * event appends one in the same transaction as the change. Each entry's `data` is typed by its
 * `type`: gateway dispatches by the dispatch wire (`dispatches.ts`), webhook-only events and the
 * gateway's own bookkeeping here.
 */
import type { IntegrationType, Message, Snowflake, User } from './core';
import type { DmChannel } from './direct-messages';
import type { InstanceParticipantRecord } from './activities';
import type { GatewayDispatchName, GatewayDispatchPayloads } from './dispatches';

/** An activity instance as the frames in it see it: its participants, each user once, in first-join order. */
export interface ActivityInstanceView {
  instance_id: string;
  application_id: Snowflake;
  channel_id: Snowflake;
  guild_id: Snowflake | null;
  participants: InstanceParticipantRecord[];
}

/** Who may see an event: the gateway filters dispatches with it. */
export interface EventAudience {
  /** Users who receive it whatever their intents (lobby members, the user concerned). */
  user_ids?: string[];
  /**
   * Bot sessions among `user_ids` receive it only with this intent (a direct message reaches a
   * bot with DIRECT_MESSAGES, as on the platform); users' sessions are not affected.
   */
  bot_intent?: number;
  /** Guild events reach sessions whose user is in the guild and whose intents include `intent`. */
  guild_id?: string;
  intent?: number;
  /** Events that concern one application only (entitlements, lobby events of its lobbies). */
  application_id?: string;
  /**
   * Only sessions of the platform's own client (Identify capability `CAPABILITY_PLATFORM_CLIENT`)
   * receive it: what the client hears of its user beyond the public gateway.
   */
  client?: boolean;
}

/** Where an event is delivered: the gateway, the webhook outbox, or both. */
export type EventChannel = 'gateway' | 'webhook';

/** A game direct message as its webhook events carry it: the message with its DM channel. */
export type GameDirectMessageEvent = Message & {
  channel: DmChannel | { id: Snowflake; type: 1; recipients: User[] };
};

/**
 * Events the log holds that are never dispatched on the gateway: the webhook-only events of the
 * spec (payload shapes beyond the fields it names are ours) and the gateway's own bookkeeping.
 */
export interface LogOnlyEventPayloads {
  /** App installed to a user or a server (webhook only). */
  APPLICATION_AUTHORIZED: { integration_type: IntegrationType; user: User; scopes: string[] };
  /** The user unlinked, revoked the authorization, or was banned (webhook only). */
  APPLICATION_DEAUTHORIZED: { user: User };
  /** A user enrolled in one of the application's quests (webhook only). */
  QUEST_USER_ENROLLMENT: {
    quest_id: string;
    quest_name: string;
    application_id: Snowflake;
    user_id: Snowflake;
    enrolled_at: string;
    user: User;
  };
  GAME_DIRECT_MESSAGE_CREATE: GameDirectMessageEvent;
  GAME_DIRECT_MESSAGE_UPDATE: GameDirectMessageEvent;
  /**
   * Some of a user's credentials were deleted: acted on by the gateway (which closes the user's
   * sessions whose own token is gone), never sent (`src/platform/oauth2/tokens.ts`).
   */
  SESSIONS_INVALIDATED: { user_id: Snowflake };
  /**
   * An activity instance's participants changed, or it ended: heard by the connections that hold
   * its frames (a page's socket to the server), never dispatched. `frame_id` is the frame whose
   * join or leave changed it.
   */
  ACTIVITY_INSTANCE_UPDATE: { instance: ActivityInstanceView; frame_id: string; ended: boolean };
}

/**
 * What each entry of the log carries, by type. Dispatches that answer one session's own request
 * (READY, RESUMED, chunks, channel info, rate limits, voice servers) are never logged.
 */
export type LoggedEventPayloads = Omit<
  GatewayDispatchPayloads,
  'READY' | 'RESUMED' | 'GUILD_MEMBERS_CHUNK' | 'CHANNEL_INFO' | 'RATE_LIMITED' | 'VOICE_SERVER_UPDATE'
> &
  LogOnlyEventPayloads;

/** The type of a log entry: a gateway dispatch name or a webhook event type. */
export type LoggedEventType = keyof LoggedEventPayloads;

/** What an entry has whatever its type. */
interface EventRecordFields {
  seq?: number;
  audience: EventAudience;
  channels: EventChannel[];
  created_at: number;
}

/**
 * One entry of the durable event log, appended in the same transaction as the change: checking
 * `type` narrows `data`.
 * @example if (event.type === 'LOBBY_MESSAGE_CREATE') console.log(event.data.lobby_id);
 */
export type EventRecord = {
  [T in LoggedEventType]: EventRecordFields & { type: T; data: LoggedEventPayloads[T] };
}[LoggedEventType];

/** An event as a write emits it: the log adds its `seq` and time, and delivers it on the gateway unless told. */
export type EmittedEvent = {
  [T in LoggedEventType]: {
    type: T;
    data: LoggedEventPayloads[T];
    audience: EventAudience;
    channels?: EventChannel[];
  };
}[LoggedEventType];

/** An entry the gateway dispatches as it is: its type is a dispatch name. */
export type DispatchEventRecord = Extract<EventRecord, { type: GatewayDispatchName }>;

/** Every log-only type, so that the check below cannot miss one (the compiler asks for each). */
const LOG_ONLY_TYPES: Readonly<Record<keyof LogOnlyEventPayloads, true>> = {
  APPLICATION_AUTHORIZED: true,
  APPLICATION_DEAUTHORIZED: true,
  QUEST_USER_ENROLLMENT: true,
  GAME_DIRECT_MESSAGE_CREATE: true,
  GAME_DIRECT_MESSAGE_UPDATE: true,
  SESSIONS_INVALIDATED: true,
  ACTIVITY_INSTANCE_UPDATE: true,
};

/**
 * True for an entry that is a gateway dispatch (not a webhook-only event, not the gateway's own
 * bookkeeping).
 * @example if (isDispatchEvent(event)) send({ t: event.type, d: event.data });
 */
export function isDispatchEvent(event: EventRecord): event is DispatchEventRecord {
  return !Object.hasOwn(LOG_ONLY_TYPES, event.type);
}
