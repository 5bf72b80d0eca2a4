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

/** A lobby message (`lobby_id` set) or a guild channel message (`channel_id` the channel's). */
export type WireMessage = Pick<Message | ChannelMessage, 'id' | 'channel_id' | 'content' | 'author' | 'timestamp'> & {
  lobby_id?: string;
  metadata?: Message['metadata'];
};
