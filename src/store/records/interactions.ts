/**
 * Interactions as stored: who triggered what, where, and how the app answered. The token is
 * never stored, only its SHA-256 (`token_hash`), the key the callback and webhook routes find
 * the interaction by. Also the records of messages created in DM contexts (guild channels keep
 * theirs with the channel's messages) and of each application's interactions endpoint URL.
 */
import type { ChannelMessageRecord } from './messages';
import type { Snowflake } from './core';

/** Interaction types (public values). */
export const INTERACTION_TYPES = {
  PING: 1,
  APPLICATION_COMMAND: 2,
  MESSAGE_COMPONENT: 3,
  APPLICATION_COMMAND_AUTOCOMPLETE: 4,
  MODAL_SUBMIT: 5,
} as const;

/** Interaction callback types (public values). */
export const CALLBACK_TYPES = {
  PONG: 1,
  CHANNEL_MESSAGE_WITH_SOURCE: 4,
  DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: 5,
  DEFERRED_UPDATE_MESSAGE: 6,
  UPDATE_MESSAGE: 7,
  APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: 8,
  MODAL: 9,
  /** Deprecated in favor of a premium button (style 6 with a sku_id): accepted, recorded. */
  PREMIUM_REQUIRED: 10,
  LAUNCH_ACTIVITY: 12,
} as const;

/** The interaction types LAUNCH_ACTIVITY may answer (spec, Events > Other). */
export const LAUNCH_ACTIVITY_INTERACTION_TYPES: readonly number[] = [
  INTERACTION_TYPES.APPLICATION_COMMAND,
  INTERACTION_TYPES.MESSAGE_COMPONENT,
  INTERACTION_TYPES.MODAL_SUBMIT,
];

/** A modal the app opened (callback 9), kept to check what the user submits. */
export interface StoredModal {
  custom_id: string;
  title: string;
  components: Record<string, unknown>[];
}

/** How the app answered, once. */
export interface InteractionResponseRecord {
  type: number;
  at: number;
  /** Callback 5: the original response is still the loading message. */
  loading: boolean;
  ephemeral: boolean;
}

/** An interaction as stored. */
export interface InteractionRecord {
  id: Snowflake;
  application_id: Snowflake;
  /** SHA-256 (hex) of the token: the token itself is never stored. */
  token_hash: string;
  type: number;
  context: number;
  user_id: Snowflake;
  guild_id: Snowflake | null;
  channel_id: Snowflake;
  /** The `data` delivered to the app. */
  data: Record<string, unknown>;
  /** Components and modals opened from a component: the message the component is on. */
  message_id: Snowflake | null;
  authorizing_integration_owners: Record<string, Snowflake>;
  /** Initiated only through a user install (`authorizing_integration_owners` holds only "1"): at most 5 follow-ups. */
  user_install_only: boolean;
  /** Messages of DM contexts live in `interaction_messages`; guild channel ones with the channel. */
  dm: boolean;
  /** The message type responses carry (20 slash command, 23 context menu, 0 otherwise). */
  message_type: number;
  response: InteractionResponseRecord | null;
  original_message_id: Snowflake | null;
  followup_message_ids: Snowflake[];
  modal: StoredModal | null;
  activity_instance_id: string | null;
  created_at: number;
}

/** A message created by an interaction in a DM context (guild channels keep theirs as channel messages). */
export type InteractionMessageRecord = ChannelMessageRecord & { interaction_id: Snowflake };

/** An application's interactions endpoint URL (interactions go there instead of the gateway). */
export interface InteractionEndpointRecord {
  application_id: Snowflake;
  url: string;
  updated_at: number;
}
