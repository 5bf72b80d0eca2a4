/**
 * The platform's objects as the demo client reads them from the gateway and the HTTP API:
 * only the fields the shell uses.
 */

/** A user as the platform serializes it. */
export interface WireUser {
  id: string;
  username: string;
  global_name: string | null;
  bot?: boolean;
}

/** A guild member with its user. */
export interface WireMember {
  user: WireUser;
  nick: string | null;
  roles: string[];
}

/** A permission overwrite on the wire (bit sets as decimal strings). */
export interface WireOverwrite {
  id: string;
  type: 0 | 1;
  allow: string;
  deny: string;
}

/** A guild channel. */
export interface WireChannel {
  id: string;
  type: number;
  guild_id: string | null;
  name: string;
  parent_id: string | null;
  position: number;
  flags: number;
  topic?: string | null;
  permission_overwrites: WireOverwrite[];
}

/** A guild role. */
export interface WireRole {
  id: string;
  name: string;
  permissions: string;
  position: number;
  color: number;
}

/** A rich presence activity. */
export interface PresenceActivity {
  name: string;
  type: number;
  application_id?: string;
  state?: string | null;
  details?: string | null;
  /** Which field the status text shows: 0 the name, 1 the state, 2 the details. */
  status_display_type?: number | null;
  party?: { id?: string | null; size?: number[] | null } | null;
  timestamps?: { start?: number; end?: number } | null;
}

/** A user's presence. */
export interface Presence {
  status: string;
  activities: PresenceActivity[];
}

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
export interface WireLobbyMember {
  id: string;
  metadata: Record<string, string> | null;
  flags: number;
}

/** A lobby. */
export interface WireLobby {
  id: string;
  application_id: string;
  metadata: Record<string, string> | null;
  members: WireLobbyMember[];
}

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

/** A guild voice state (GUILD_CREATE's `voice_states`, VOICE_STATE_UPDATE). */
export interface WireVoiceState {
  guild_id?: string | null;
  channel_id: string | null;
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
