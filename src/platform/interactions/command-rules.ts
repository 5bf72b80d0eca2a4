/**
 * The rules of a command beyond its fields' shapes: names by type (CHAT_INPUT names are
 * lowercase words, context menu names free text), descriptions only on CHAT_INPUT, options and
 * their nesting, `handler` only on entry point commands of applications with the EMBEDDED flag,
 * `integration_types` within what the application supports, the deprecated `dm_permission`
 * mapped onto `contexts`, and the per-scope limits (100 CHAT_INPUT, 15 per context menu type,
 * one global entry point, none per guild).
 */
import {
  ALL_INTERACTION_CONTEXTS,
  COMMAND_TYPES,
  CONTEXT_MENU_TYPES,
  INTERACTION_CONTEXTS,
  OPTION_TYPES,
  type ApplicationCommandRecord,
  type CommandOption,
} from '../../store/records/commands';
import type { CommandCreateInput, CommandEditInput } from './command-schemas';
import { ApiError } from '../core/errors';
import { CHAT_INPUT_COMMANDS_MAX, CONTEXT_MENU_COMMANDS_PER_TYPE_MAX, ENTRY_POINT_COMMANDS_MAX } from '../core/limits';
import { APPLICATION_FLAGS, type ApplicationRecord } from '../../store/records/core';

type Errors = Record<string, string | { code: string; message: string }>;

/** CHAT_INPUT command and option names (public reference), matched with the unicode flag. */
const CHAT_INPUT_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** Why `name` cannot name a CHAT_INPUT command or an option, or null. */
function chatInputNameProblem(name: string): string | null {
  if (!CHAT_INPUT_NAME.test(name)) return "Command name is invalid: letters, numbers, - _ and ' only, no spaces.";
  // Letters that have a lowercase variant must use it.
  return name !== name.toLowerCase() ? 'Command names must be lowercase.' : null;
}

const VALUE_TYPES = new Set<number>([OPTION_TYPES.STRING, OPTION_TYPES.INTEGER, OPTION_TYPES.NUMBER]);
const SUB = new Set<number>([OPTION_TYPES.SUB_COMMAND, OPTION_TYPES.SUB_COMMAND_GROUP]);

/** Errors of one option list at `path`; `parent` is the option type holding it (0 for the command). */
function optionErrors(options: readonly CommandOption[], path: string, parent: number, errors: Errors): void {
  const names = new Set<string>();
  let optionalSeen = false;
  const subs = options.filter((o) => SUB.has(o.type)).length;
  if (subs > 0 && subs < options.length) errors[path] = 'Subcommands and groups cannot be mixed with other options.';
  options.forEach((o, i) => {
    const at = `${path}.${i}`;
    const nameProblem = chatInputNameProblem(o.name);
    if (nameProblem) errors[`${at}.name`] = nameProblem;
    if (names.has(o.name))
      errors[`${at}.name`] = {
        code: 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS',
        message: 'Option names must be unique.',
      };
    names.add(o.name);
    if (parent === OPTION_TYPES.SUB_COMMAND_GROUP && o.type !== OPTION_TYPES.SUB_COMMAND)
      errors[`${at}.type`] = 'A subcommand group holds only subcommands.';
    if (parent === OPTION_TYPES.SUB_COMMAND && SUB.has(o.type))
      errors[`${at}.type`] = 'A subcommand cannot nest subcommands or groups.';
    if (SUB.has(o.type)) {
      if (o.required !== undefined) errors[`${at}.required`] = 'Subcommands and groups are never required.';
      optionErrors(o.options ?? [], `${at}.options`, o.type, errors);
      return;
    }
    if (o.options !== undefined) errors[`${at}.options`] = 'Only subcommands and groups have options.';
    if (o.required) {
      if (optionalSeen)
        errors[`${at}.required`] = {
          code: 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
          message: 'Required options must be placed before non-required options.',
        };
    } else optionalSeen = true;
    const only = (field: keyof CommandOption, allowed: boolean, why: string) => {
      if (o[field] !== undefined && !allowed) errors[`${at}.${field}`] = why;
    };
    only('choices', VALUE_TYPES.has(o.type), 'Only STRING, INTEGER and NUMBER options have choices.');
    only('autocomplete', VALUE_TYPES.has(o.type), 'Only STRING, INTEGER and NUMBER options autocomplete.');
    only('channel_types', o.type === OPTION_TYPES.CHANNEL, 'Only CHANNEL options have channel_types.');
    only(
      'min_value',
      o.type === OPTION_TYPES.INTEGER || o.type === OPTION_TYPES.NUMBER,
      'Only INTEGER and NUMBER options have min_value.',
    );
    only(
      'max_value',
      o.type === OPTION_TYPES.INTEGER || o.type === OPTION_TYPES.NUMBER,
      'Only INTEGER and NUMBER options have max_value.',
    );
    only('min_length', o.type === OPTION_TYPES.STRING, 'Only STRING options have min_length.');
    only('max_length', o.type === OPTION_TYPES.STRING, 'Only STRING options have max_length.');
    only('file_types', o.type === OPTION_TYPES.ATTACHMENT, 'Only ATTACHMENT options restrict file types.');
    if (o.autocomplete && o.choices && o.choices.length > 0)
      errors[`${at}.autocomplete`] = 'Autocomplete cannot be set on an option with choices.';
    (o.choices ?? []).forEach((c, j) => {
      const ok =
        o.type === OPTION_TYPES.STRING
          ? typeof c.value === 'string'
          : typeof c.value === 'number' && (o.type !== OPTION_TYPES.INTEGER || Number.isInteger(c.value));
      if (!ok) errors[`${at}.choices.${j}.value`] = 'The choice value does not match the option type.';
    });
    if (o.min_value !== undefined && o.max_value !== undefined && o.min_value > o.max_value)
      errors[`${at}.min_value`] = 'min_value must not be above max_value.';
    if (o.min_length !== undefined && o.max_length !== undefined && o.min_length > o.max_length)
      errors[`${at}.min_length`] = 'min_length must not be above max_length.';
  });
}

/** The installation contexts the application supports (its `integration_types_config` keys). */
export function supportedIntegrationTypes(app: ApplicationRecord): number[] {
  return Object.keys(app.integration_types_config).map(Number).sort();
}

/** The fields a command is stored with, from a create body (or an edit merged over a command). */
export type CommandFields = Omit<
  ApplicationCommandRecord,
  'id' | 'application_id' | 'guild_id' | 'scope_key' | 'version' | 'created_at'
>;

/**
 * Checks a command against the rules of its type and application and returns its stored
 * fields. `dm_permission` (deprecated) maps onto `contexts` when `contexts` is not given:
 * false leaves GUILD only, true every context. Throws 400 50035 naming each bad field.
 * @example const fields = normalizeCommand(body, application, guildId);
 */
export function normalizeCommand(
  input: CommandCreateInput | (CommandEditInput & { type: number }),
  app: ApplicationRecord,
  guildId: string | null,
  prefix = '',
): CommandFields {
  const errors: Errors = {};
  const at = (field: string) => `${prefix}${field}`;
  const type = input.type;
  const name = input.name ?? '';
  if (type === COMMAND_TYPES.CHAT_INPUT) {
    const problem = chatInputNameProblem(name);
    if (problem) errors[at('name')] = problem;
    if (!input.description)
      errors[at('description')] = 'A CHAT_INPUT command needs a description of 1 to 100 characters.';
    optionErrors(input.options ?? [], at('options'), 0, errors);
  } else {
    if (input.options !== undefined && input.options.length > 0)
      errors[at('options')] = 'Only CHAT_INPUT commands have options.';
    if (type !== COMMAND_TYPES.PRIMARY_ENTRY_POINT && input.description)
      errors[at('description')] = 'USER and MESSAGE commands have no description.';
  }
  const embedded = (BigInt(app.flags) & BigInt(APPLICATION_FLAGS.EMBEDDED)) !== 0n;
  if (type === COMMAND_TYPES.PRIMARY_ENTRY_POINT) {
    if (guildId !== null)
      errors[at('type')] = {
        code: 'APPLICATION_COMMAND_ENTRY_POINT_GUILD',
        message: 'Entry point commands are global only.',
      };
    if (!embedded)
      errors[at('type')] ??= {
        code: 'APPLICATION_NOT_EMBEDDED',
        message: 'Entry point commands launch an Activity: the application needs the EMBEDDED flag.',
      };
  }
  if (input.handler !== undefined) {
    if (type !== COMMAND_TYPES.PRIMARY_ENTRY_POINT)
      errors[at('handler')] = 'Only PRIMARY_ENTRY_POINT commands have a handler.';
    else if (!embedded)
      errors[at('handler')] = {
        code: 'APPLICATION_NOT_EMBEDDED',
        message: 'A handler needs an application with the EMBEDDED flag (an Activity).',
      };
  }
  const supported = supportedIntegrationTypes(app);
  const integrationTypes = input.integration_types ? [...new Set(input.integration_types)].sort() : supported;
  integrationTypes.forEach((t, i) => {
    if (!supported.includes(t))
      errors[at(`integration_types.${i}`)] = 'The application does not support this installation context.';
  });
  if (Object.keys(errors).length > 0) throw ApiError.invalidForm(errors);
  const contexts = input.contexts
    ? [...new Set(input.contexts)].sort()
    : input.dm_permission === false
      ? [INTERACTION_CONTEXTS.GUILD]
      : [...ALL_INTERACTION_CONTEXTS];
  const defaultPermissions =
    input.default_member_permissions !== undefined
      ? input.default_member_permissions
      : input.default_permission === false
        ? '0'
        : null;
  return {
    type,
    name,
    name_localizations: input.name_localizations ?? null,
    description:
      type === COMMAND_TYPES.CHAT_INPUT || type === COMMAND_TYPES.PRIMARY_ENTRY_POINT ? (input.description ?? '') : '',
    description_localizations: input.description_localizations ?? null,
    options: type === COMMAND_TYPES.CHAT_INPUT ? (input.options ?? []) : [],
    default_member_permissions: defaultPermissions ?? null,
    nsfw: input.nsfw ?? false,
    integration_types: integrationTypes,
    contexts,
    ...(type === COMMAND_TYPES.PRIMARY_ENTRY_POINT ? { handler: input.handler ?? 1 } : {}),
  };
}

/**
 * Throws when a scope's commands exceed the limits: 100 CHAT_INPUT (30032), 15 of each context
 * menu type (30032; the spec's limit, which was 5), one global entry point (30032).
 */
export function checkScopeLimits(commands: readonly Pick<ApplicationCommandRecord, 'type'>[]): void {
  const count = (type: number) => commands.filter((c) => c.type === type).length;
  if (count(COMMAND_TYPES.CHAT_INPUT) > CHAT_INPUT_COMMANDS_MAX)
    throw ApiError.of(
      'APPLICATION_COMMANDS_MAX',
      `Maximum number of CHAT_INPUT commands reached (${CHAT_INPUT_COMMANDS_MAX})`,
    );
  for (const type of CONTEXT_MENU_TYPES) {
    if (count(type) > CONTEXT_MENU_COMMANDS_PER_TYPE_MAX) {
      throw ApiError.of(
        'APPLICATION_COMMANDS_MAX',
        `Maximum number of ${type === COMMAND_TYPES.USER ? 'USER' : 'MESSAGE'} commands reached (${CONTEXT_MENU_COMMANDS_PER_TYPE_MAX})`,
      );
    }
  }
  if (count(COMMAND_TYPES.PRIMARY_ENTRY_POINT) > ENTRY_POINT_COMMANDS_MAX) {
    throw ApiError.of(
      'APPLICATION_COMMANDS_MAX',
      `An application has at most ${ENTRY_POINT_COMMANDS_MAX} entry point command.`,
    );
  }
}
