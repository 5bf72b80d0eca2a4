/**
 * The platform's objects as the demo client reads them from the gateway and the HTTP API: the
 * platform's own wire types (`src/store/records/dispatches.ts` and the records it builds on),
 * narrowed to the fields the shell uses so that its own copies (a member kept from a chunk) fit.
 */
import type { Channel, Lobby, LobbyMember, Message, OverwriteRecord, Role, User } from '../../src/store/records/core';
import type { ChannelMessage } from '../../src/store/records/messages';
import type { GatewayActivity, PresenceActivity as RichPresence, WirePresence } from '../../src/store/records/presence';

/** A user as the platform serializes it. */
export type WireUser = Pick<User, 'id' | 'username' | 'global_name' | 'bot'>;

/** A guild member with its user. */
export interface WireMember {
  user: WireUser;
  nick: string | null;
  roles: string[];
}

/** A permission overwrite on the wire (bit sets as decimal strings). */
export type WireOverwrite = OverwriteRecord;

/** A guild channel. */
export type WireChannel = Channel;

/** A guild role. */
export type WireRole = Role;

/**
 * An activity of a presence: an application's rich presence, or what a bot set over the gateway
 * (which has no `status_display_type`, `details` or `party`).
 */
export type PresenceActivity = (RichPresence | GatewayActivity) &
  Partial<Pick<RichPresence, 'application_id' | 'details' | 'status_display_type' | 'party' | 'timestamps'>>;

/** A user's presence. */
export type Presence = Pick<WirePresence, 'status'> & { activities: PresenceActivity[] };

/** A guild as the client holds it. */
export interface GuildState {
  id: string;
  name: string;
  owner_id: string;
  roles: Map<string, WireRole>;
  channels: Map<string, WireChannel>;
  members: Map<string, WireMember>;
}

/** A lobby member. */
export type WireLobbyMember = LobbyMember;

/** A lobby. */
export type WireLobby = Pick<Lobby, 'id' | 'application_id' | 'metadata' | 'members'>;

/** A lobby message, a guild channel message or a direct message. */
export interface WireMessage {
  id: string;
  /** 0 default, 19 a reply. */
  type?: number;
  /** Set on a lobby message. */
  lobby_id?: string;
  /** Set on a guild channel message and a direct message (its DM channel). */
  channel_id?: string;
  /** Set on a guild channel message's events. */
  guild_id?: string;
  /** Set on a direct message: who it was sent to. */
  recipient_id?: string;
  content: string;
  author: WireUser;
  timestamp: string;
  edited_timestamp?: string | null;
  pinned?: boolean;
  /** The message a reply answers (null when it was deleted). */
  referenced_message?: WireMessage | null;
  metadata?: Record<string, string> | null;
}

/** A voice state (GUILD_CREATE's `voice_states`, VOICE_STATE_UPDATE): a guild voice channel's, or a lobby call's (`guild_id: null`, `lobby_id`). */
export interface WireVoiceState {
  guild_id?: string | null;
  channel_id: string | null;
  /** The lobby of a lobby call's state (its `channel_id` too, but for a leave). */
  lobby_id?: string;
  user_id: string;
  self_mute: boolean;
  self_deaf: boolean;
  member?: WireMember;
}

/** A DM channel as `GET /users/@me/channels` and CHANNEL_CREATE give it. */
export interface WireDmChannel {
  id: string;
  type: 1;
  recipients: WireUser[];
}
