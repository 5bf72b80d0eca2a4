/**
 * The durable event log's records (ARCHITECTURE rule 3): every change the spec says emits an
 * event appends one in the same transaction as the change.
 */

/** Who may see an event: the gateway filters dispatches with it. */
export interface EventAudience {
  /** Users who receive it whatever their intents (lobby members, the user concerned). */
  user_ids?: string[];
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

/** One entry of the durable event log: appended in the same transaction as the change. */
export interface EventRecord {
  seq?: number;
  /** The gateway dispatch name (`LOBBY_MESSAGE_CREATE`) or webhook event type. */
  type: string;
  data: unknown;
  audience: EventAudience;
  /** Where it is delivered: the gateway, the webhook outbox, or both. */
  channels: ('gateway' | 'webhook')[];
  created_at: number;
}
