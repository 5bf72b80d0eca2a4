/**
 * What webhook events store: each application's event webhooks settings and key pair, the
 * outbox's deliveries, the sandbox sinks and what they received; with the event types and
 * statuses in the platform's public values (`platform/webhooks/`).
 */

/**
 * The webhook event types of the spec. APPLICATION_AUTHORIZED is webhook-only (never on the
 * gateway); ENTITLEMENT_CREATE is the only monetization event sent by webhook. The spec says
 * game direct message and lobby webhook events also exist without naming them: their names are
 * those of the platform's public webhook-events reference.
 */
export const WEBHOOK_EVENT_TYPES = [
  'APPLICATION_AUTHORIZED',
  'APPLICATION_DEAUTHORIZED',
  'ENTITLEMENT_CREATE',
  'QUEST_USER_ENROLLMENT',
  'LOBBY_MESSAGE_CREATE',
  'LOBBY_MESSAGE_UPDATE',
  'GAME_DIRECT_MESSAGE_CREATE',
  'GAME_DIRECT_MESSAGE_UPDATE',
] as const;
/** One of {@link WEBHOOK_EVENT_TYPES}. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** `event_webhooks_status` in the platform's public values. */
export const EVENT_WEBHOOKS_STATUS = {
  DISABLED: 1,
  ENABLED: 2,
  /** The platform stopped sending: the URL failed to take deliveries too often. */
  DISABLED_BY_PLATFORM: 3,
} as const;
/** One of {@link EVENT_WEBHOOKS_STATUS}. */
export type EventWebhooksStatus = (typeof EVENT_WEBHOOKS_STATUS)[keyof typeof EVENT_WEBHOOKS_STATUS];

/** The outer payload's `type`. */
export const WEBHOOK_TYPE = { PING: 0, EVENT: 1 } as const;

/** What is POSTed to the event webhooks URL. */
export interface WebhookPayload {
  version: 1;
  application_id: string;
  type: (typeof WEBHOOK_TYPE)[keyof typeof WEBHOOK_TYPE];
  event?: { type: string; timestamp: string; data?: unknown };
}

/**
 * An application's event webhooks settings and its Ed25519 key pair. The private key is a
 * non-extractable `CryptoKey` (structured-cloned into IndexedDB): no code path can read it
 * out, so it can never reach an answer, a log or an event.
 */
export interface EventWebhooksRecord {
  application_id: string;
  url: string | null;
  status: EventWebhooksStatus;
  types: WebhookEventType[];
  /** The public key, raw 32 bytes as hex: the application's `verify_key`. */
  verify_key: string;
  private_key: CryptoKey;
  /** Events at or below this log position happened before webhooks were enabled: never delivered. */
  enabled_after_seq: number;
  /** Deliveries that ended `failed` in a row since the last delivered one. */
  failed_in_a_row: number;
  updated_at: number;
}

/** Where one delivery stands. */
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event on its way to one application's URL. */
export interface WebhookDeliveryRecord {
  /** Snowflake. */
  id: string;
  event_seq: number;
  application_id: string;
  event_type: string;
  url: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** Platform-clock epoch ms of the next attempt; null once delivered or failed (so it leaves the due index). */
  next_attempt_at: number | null;
  /** The HTTP status of the last answer, or null when none came (network error, timeout). */
  last_status: number | null;
  last_error: string | null;
  payload: WebhookPayload;
  created_at: number;
  delivered_at: number | null;
}

/** One request a sandbox sink received. */
export interface WebhookSinkRequest {
  received_at: number;
  signature: string | null;
  timestamp: string | null;
  /** The parsed JSON body, or the text when it was not JSON. */
  body: unknown;
  /** The application named by the body's `application_id`, whose verify_key the signature was checked with. */
  application_id: string | null;
  signature_valid: boolean;
  /** What the sink answered. */
  answered: number;
}

/** A sandbox endpoint that records what it receives, so deliveries can be seen offline. */
export interface WebhookSinkRecord {
  id: string;
  /** The status it answers a correctly signed request with (204 unless told otherwise). */
  respond_with: number;
  requests: WebhookSinkRequest[];
  created_at: number;
}
