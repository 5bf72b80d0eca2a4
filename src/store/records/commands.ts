/**
 * Application commands as stored and on the wire, with the platform's public enumerations:
 * command types, option types, installation contexts (`integration_types`), interaction
 * contexts (`contexts`) and entry point handlers. Type declarations and constants only; the
 * operations live in `commands.ts`.
 */
import type { Snowflake } from './core';

/** Command types: CHAT_INPUT 1, USER 2, MESSAGE 3, PRIMARY_ENTRY_POINT 4. */
export const COMMAND_TYPES = { CHAT_INPUT: 1, USER: 2, MESSAGE: 3, PRIMARY_ENTRY_POINT: 4 } as const;
/** The command types a user reaches from a context menu (the 15-per-type limit). */
export const CONTEXT_MENU_TYPES: readonly number[] = [COMMAND_TYPES.USER, COMMAND_TYPES.MESSAGE];

/** Option types (public values). */
export const OPTION_TYPES = {
  SUB_COMMAND: 1,
  SUB_COMMAND_GROUP: 2,
  STRING: 3,
  INTEGER: 4,
  BOOLEAN: 5,
  USER: 6,
  CHANNEL: 7,
  ROLE: 8,
  MENTIONABLE: 9,
  NUMBER: 10,
  ATTACHMENT: 11,
} as const;

/** Installation contexts (`integration_types`): 0 guild install, 1 user install. */
export const INTEGRATION_TYPES = { GUILD_INSTALL: 0, USER_INSTALL: 1 } as const;
/** Interaction contexts (`contexts`): 0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL. */
export const INTERACTION_CONTEXTS = { GUILD: 0, BOT_DM: 1, PRIVATE_CHANNEL: 2 } as const;
/** Every interaction context: what a command allows unless it says otherwise. */
export const ALL_INTERACTION_CONTEXTS: readonly number[] = [0, 1, 2];

/** Entry point handlers: APP_HANDLER 1 (the app answers), PLATFORM_LAUNCH_ACTIVITY 2 (the platform launches the activity). */
export const ENTRY_POINT_HANDLERS = { APP_HANDLER: 1, PLATFORM_LAUNCH_ACTIVITY: 2 } as const;

/** A choice of a STRING, INTEGER or NUMBER option. */
export interface CommandOptionChoice {
  name: string;
  name_localizations?: Record<string, string> | null;
  value: string | number;
}

/** An option of a command (or of a subcommand / group, nested in `options`). */
export interface CommandOption {
  type: number;
  name: string;
  name_localizations?: Record<string, string> | null;
  description: string;
  description_localizations?: Record<string, string> | null;
  required?: boolean;
  choices?: CommandOptionChoice[];
  options?: CommandOption[];
  channel_types?: number[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
  autocomplete?: boolean;
  /**
   * ATTACHMENT options only: the file types a user may attach, as extensions (`.png`) or media
   * types (`image/png`, `image/*`). The spec says they "can be restricted" without naming the
   * field; the public docs name none either, so `file_types` is the sandbox's name (the one
   * File Upload components use too).
   */
  file_types?: string[];
}

/** A command as stored. `scope_key` is the guild id of a guild command, '' for a global one (indexable). */
export interface ApplicationCommandRecord {
  id: Snowflake;
  application_id: Snowflake;
  guild_id: Snowflake | null;
  scope_key: string;
  type: number;
  name: string;
  name_localizations: Record<string, string> | null;
  description: string;
  description_localizations: Record<string, string> | null;
  options: CommandOption[];
  /** A permission bit set as a decimal string, or null (everyone may use it). */
  default_member_permissions: string | null;
  nsfw: boolean;
  /** Installation contexts where a global command is available. */
  integration_types: number[];
  /** Interaction contexts where a global command can be used. */
  contexts: number[] | null;
  /** Entry point commands only. */
  handler?: number;
  /** Bumped (a new snowflake) on every change. */
  version: Snowflake;
  created_at: number;
}

/** The command object on the wire. */
export interface ApplicationCommand {
  id: Snowflake;
  type: number;
  application_id: Snowflake;
  guild_id?: Snowflake;
  name: string;
  name_localizations: Record<string, string> | null;
  description: string;
  description_localizations: Record<string, string> | null;
  options?: CommandOption[];
  default_member_permissions: string | null;
  /** Deprecated in favor of `contexts`: true when BOT_DM is among them (global commands). */
  dm_permission?: boolean;
  nsfw: boolean;
  integration_types: number[];
  contexts: number[] | null;
  handler?: number;
  version: Snowflake;
}

/** One entry of a command's permissions in a guild: a role (1), a user (2) or a channel (3), allowed or not. */
export interface CommandPermission {
  id: Snowflake;
  type: 1 | 2 | 3;
  permission: boolean;
}

/**
 * A command's permissions in one guild, keyed `[application_id, guild_id, command_id]`; a
 * `command_id` equal to the application's id holds the permissions of all its commands there.
 */
export interface CommandPermissionsRecord {
  application_id: Snowflake;
  guild_id: Snowflake;
  command_id: Snowflake;
  permissions: CommandPermission[];
}
