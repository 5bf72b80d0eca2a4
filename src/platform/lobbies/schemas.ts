/**
 * The request shapes of the lobby API, as valibot schemas (ARCHITECTURE rule 4: every body and
 * query is validated before domain code sees it). Every limit comes from `limits.ts`; lengths
 * count characters (code points), not UTF-16 units.
 */
import * as v from 'valibot';
import {
  LOBBY_IDLE_TIMEOUT_MAX_S,
  LOBBY_IDLE_TIMEOUT_MIN_S,
  LOBBY_MEMBERS_BULK_MAX,
  LOBBY_MESSAGE_CONTENT_MAX,
  LOBBY_MESSAGE_METADATA_ENTRY_MAX,
  LOBBY_MESSAGE_METADATA_KEYS_MAX,
  LOBBY_MESSAGES_MAX,
  LOBBY_METADATA_MAX,
  LOBBY_SECRET_MAX,
} from '../core/limits';
import type { Metadata } from '../../store/records/core';
import { jsonObject } from '../core/json-object';
import { dictionary, flagsInt, queryInt, snowflakeSchema } from '../core/schema-parts';

/** Lobby member flags (public bit values). */
export const LOBBY_MEMBER_FLAGS = { CAN_LINK_LOBBY: 1 << 0 } as const;

const KNOWN_MEMBER_FLAGS = Object.values(LOBBY_MEMBER_FLAGS).reduce((all, f) => all | f, 0);

/**
 * The lobby flag bits a create, join or modify body may set: the platform's public schema
 * accepts `flags` of 1 (or null) on the lobby itself; what the bit does is not shown, so it is
 * stored and answered, nothing more.
 */
export const LOBBY_FLAGS_ACCEPTED = 1 << 0;

/** Characters of `text`, counted as code points (an emoji is one character). */
export function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/**
 * The size of a metadata dictionary as the limit counts it: every key and every value.
 * @example metadataLength({ topic: 'redstone' }) // 13
 */
export function metadataLength(metadata: Metadata): number {
  let n = 0;
  for (const [key, value] of Object.entries(metadata)) n += charLength(key) + charLength(value);
  return n;
}

const maxChars = (max: number, what = 'Must be') =>
  v.check((s: string) => charLength(s) <= max, `${what} ${max} or fewer in length.`);

const snowflake = snowflakeSchema;

/** A lobby or lobby member metadata dictionary: string values, at most 1000 characters in all. */
export const LobbyMetadataSchema = v.nullable(
  v.pipe(
    dictionary(v.string('Metadata values must be strings.')),
    v.check(
      (m) => metadataLength(m) <= LOBBY_METADATA_MAX,
      `Metadata must be ${LOBBY_METADATA_MAX} or fewer characters in all (keys and values).`,
    ),
  ),
);

/** A lobby message's metadata: at most 25 keys, each key and value at most 1024 characters. */
export const LobbyMessageMetadataSchema = v.nullable(
  v.pipe(
    dictionary(v.string('Metadata values must be strings.')),
    v.check(
      (m) => Object.keys(m).length <= LOBBY_MESSAGE_METADATA_KEYS_MAX,
      `Metadata must have ${LOBBY_MESSAGE_METADATA_KEYS_MAX} or fewer keys.`,
    ),
    v.check(
      (m) =>
        Object.entries(m).every(
          ([k, val]) =>
            charLength(k) <= LOBBY_MESSAGE_METADATA_ENTRY_MAX && charLength(val) <= LOBBY_MESSAGE_METADATA_ENTRY_MAX,
        ),
      `Metadata keys and values must be ${LOBBY_MESSAGE_METADATA_ENTRY_MAX} or fewer in length.`,
    ),
  ),
);

const idleTimeout = v.pipe(
  v.number('Value is not int.'),
  v.integer('Value is not int.'),
  v.minValue(LOBBY_IDLE_TIMEOUT_MIN_S, `int value should be greater than or equal to ${LOBBY_IDLE_TIMEOUT_MIN_S}.`),
  v.maxValue(LOBBY_IDLE_TIMEOUT_MAX_S, `int value should be less than or equal to ${LOBBY_IDLE_TIMEOUT_MAX_S}.`),
);

const lobbyFlags = v.nullable(flagsInt(LOBBY_FLAGS_ACCEPTED, 'Unknown lobby flag.'));

const memberFlags = flagsInt(KNOWN_MEMBER_FLAGS, 'Unknown lobby member flag.');

/** One member as POST and PATCH take it. */
export const LobbyMemberInputSchema = jsonObject({
  id: snowflake,
  metadata: v.optional(LobbyMetadataSchema),
  flags: v.optional(memberFlags),
});

const membersList = v.pipe(
  v.array(LobbyMemberInputSchema),
  v.maxLength(LOBBY_MEMBERS_BULK_MAX, `Must be ${LOBBY_MEMBERS_BULK_MAX} or fewer in length.`),
);

/** `PUT /lobbies`: create a lobby or join it by its secret. */
export const CreateOrJoinLobbySchema = jsonObject({
  secret: v.pipe(
    v.string('This field is required'),
    v.minLength(1, 'This field is required'),
    maxChars(LOBBY_SECRET_MAX),
  ),
  idle_timeout_seconds: v.optional(idleTimeout),
  lobby_metadata: v.optional(LobbyMetadataSchema),
  member_metadata: v.optional(LobbyMetadataSchema),
  flags: v.optional(lobbyFlags),
});

/** `POST /lobbies` (create) and `PATCH /lobbies/{id}` (modify; `members` replaces them all). */
export const LobbySettingsSchema = jsonObject({
  metadata: v.optional(LobbyMetadataSchema),
  members: v.optional(membersList),
  idle_timeout_seconds: v.optional(idleTimeout),
  flags: v.optional(lobbyFlags),
});

/** `PUT /lobbies/{id}/members/{user_id}`. */
export const PutLobbyMemberSchema = jsonObject({
  metadata: v.optional(LobbyMetadataSchema),
  flags: v.optional(memberFlags),
});

/** `POST /lobbies/{id}/members/bulk`, with the top-level array named `members`. */
export const BulkLobbyMembersSchema = jsonObject({
  members: v.pipe(
    v.array(
      jsonObject({ ...LobbyMemberInputSchema.entries, remove_member: v.optional(v.boolean()) }),
      'Value must be an array of lobby members.',
    ),
    v.minLength(1, 'Must be 1 or more in length.'),
    v.maxLength(LOBBY_MEMBERS_BULK_MAX, `Must be ${LOBBY_MEMBERS_BULK_MAX} or fewer in length.`),
  ),
});

/** `POST /lobbies/{id}/messages`. */
export const LobbyMessageSchema = jsonObject({
  content: v.pipe(
    v.string('This field is required'),
    v.minLength(1, 'Must be 1 or more in length.'),
    maxChars(LOBBY_MESSAGE_CONTENT_MAX),
  ),
  metadata: v.optional(LobbyMessageMetadataSchema),
});

/** `GET /lobbies/{id}/messages?limit=` (1-200). */
export const LobbyMessagesQuerySchema = v.object({ limit: v.optional(queryInt(1, LOBBY_MESSAGES_MAX)) });

/** Path parameters of the lobby routes. */
export const LobbyPathSchema = v.object({ lobby_id: snowflake, user_id: v.optional(snowflake) });

/** A member to add or update; `metadata` / `flags` left out keep an existing member's values. */
export type LobbyMemberInput = v.InferOutput<typeof LobbyMemberInputSchema>;

/** The body of `PUT /lobbies`. */
export type CreateOrJoinLobbyInput = v.InferOutput<typeof CreateOrJoinLobbySchema>;

/** The body of `POST /lobbies` and `PATCH /lobbies/{id}`. */
export type LobbySettingsInput = v.InferOutput<typeof LobbySettingsSchema>;

/** One entry of a bulk member update. */
export type BulkLobbyMemberInput = v.InferOutput<typeof BulkLobbyMembersSchema>['members'][number];

/** The body of `POST /lobbies/{id}/messages`. */
export type LobbyMessageInput = v.InferOutput<typeof LobbyMessageSchema>;

/** `PATCH /lobbies/{lobby.id}/channel-linking`: the guild channel to link, or null to unlink. */
export const LinkChannelSchema = jsonObject({ channel_id: v.nullish(snowflakeSchema) });
