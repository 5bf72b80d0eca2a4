/**
 * Presence as stored: one record per user, with the rich presence each application shows and the
 * gateway sessions its status comes from (`platform/presence/`).
 */
import type { PresenceActivity } from '../../wire/rich-presence';

export type { PresenceActivity, RichPresenceInput, RichPresenceType } from '../../wire/rich-presence';

/** An activity a bot set with Presence Update (op 3): bots may set only these fields. */
export interface GatewayActivity {
  name: string;
  type: 0 | 1 | 2 | 3 | 4 | 5;
  url?: string | null;
  state?: string | null;
  created_at: number;
}

/** What a session may set with op 3: `invisible` shows as offline to others. */
export type SessionStatus = 'online' | 'idle' | 'dnd' | 'invisible';

/** The status others see. */
export type ShownStatus = 'online' | 'idle' | 'dnd' | 'offline';

/** A session's own presence (Identify's `presence`, then each Presence Update). */
export interface SessionPresence {
  status: SessionStatus;
  since: number | null;
  afk: boolean;
  /** Only a bot session's: absent until it set any. */
  activities?: GatewayActivity[];
}

/** A presence as others see it. */
export interface ShownPresence {
  status: ShownStatus;
  activities: (PresenceActivity | GatewayActivity)[];
  client_status: { web?: Exclude<ShownStatus, 'offline'> };
}

/** A presence on the wire (GUILD_CREATE, GUILD_MEMBERS_CHUNK, READY); PRESENCE_UPDATE adds `guild_id`. */
export interface WirePresence extends ShownPresence {
  user: { id: string };
}

/** A connected gateway session of the user, as the presence counts it. */
export interface PresenceSession extends SessionPresence {
  session_id: string;
  application_id: string;
  /** The start of the gateway (shared worker) it is connected to: when that is gone, so is it. */
  gateway: string;
  /**
   * The page whose socket it came over (its `platformpp-owner:<id>` Web Lock), when the page
   * said: once that start of the gateway is gone, a session whose page is gone too is over.
   */
  owner?: string;
  updated_at: number;
}

/**
 * A user's presence as stored: `activities` has at most one entry per application; `status` is
 * what others see, recomputed from `sessions` on every write (records written before sessions
 * were kept have none, and count as offline).
 */
export interface PresenceRecord {
  user_id: string;
  status: ShownStatus;
  activities: PresenceActivity[];
  updated_at: number;
  sessions?: PresenceSession[];
}
