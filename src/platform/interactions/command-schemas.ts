/**
 * Request schemas of application commands (valibot): create (also each entry of a bulk
 * overwrite), edit, and options. Field shapes only; what depends on the command type, the
 * application or the other commands is checked by `interactions/command-rules.ts`.
 */
import * as v from 'valibot';
import type { CommandOption } from '../../store/records/commands';
import {
  COMMAND_PERMISSIONS_MAX,
  COMMAND_CHOICE_TEXT_MAX,
  COMMAND_CHOICES_MAX,
  COMMAND_DESCRIPTION_MAX,
  COMMAND_NAME_MAX,
  COMMAND_OPTION_LENGTH_MAX,
  COMMAND_OPTIONS_MAX,
} from '../core/limits';
import { parsePermissions } from '../core/permissions';
import { jsonObject } from '../core/json-object';
import { dictionary, snowflakeSchema } from '../core/schema-parts';

const between = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.check((s) => [...s].length >= min && [...s].length <= max, `Must be between ${min} and ${max} in length.`),
  );

const localizations = v.nullish(dictionary(v.string()));

const bitSet = v.pipe(
  v.string('Must be a decimal string.'),
  v.check((s) => parsePermissions(s) !== null, 'Must be a permission bit set (decimal string).'),
);

const integer = v.pipe(v.number(), v.safeInteger());

/** The INTEGER option range of the public reference: -2^53+1 to 2^53-1. */
const safeNumber = v.pipe(v.number(), v.minValue(-(2 ** 53)), v.maxValue(2 ** 53));

/** A choice: a name of 1-100 characters and a string (up to 100) or number value. */
const ChoiceSchema = jsonObject({
  name: between(1, COMMAND_CHOICE_TEXT_MAX),
  name_localizations: localizations,
  value: v.union([between(1, COMMAND_CHOICE_TEXT_MAX), safeNumber], 'Must be a string or a number.'),
});

/** An option (recursive: subcommands and groups nest options). */
export const CommandOptionSchema: v.GenericSchema<unknown, CommandOption> = jsonObject({
  type: v.picklist([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 'Value must be one of (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11).'),
  name: between(1, COMMAND_NAME_MAX),
  name_localizations: localizations,
  description: between(1, COMMAND_DESCRIPTION_MAX),
  description_localizations: localizations,
  required: v.optional(v.boolean()),
  choices: v.optional(
    v.pipe(
      v.array(ChoiceSchema),
      v.maxLength(COMMAND_CHOICES_MAX, `Must be ${COMMAND_CHOICES_MAX} or fewer in length.`),
    ),
  ),
  options: v.optional(
    v.pipe(
      v.array(v.lazy(() => CommandOptionSchema)),
      v.maxLength(COMMAND_OPTIONS_MAX, `Must be ${COMMAND_OPTIONS_MAX} or fewer in length.`),
    ),
  ),
  channel_types: v.optional(v.array(v.pipe(integer, v.minValue(0)))),
  min_value: v.optional(safeNumber),
  max_value: v.optional(safeNumber),
  min_length: v.optional(v.pipe(integer, v.minValue(0), v.maxValue(COMMAND_OPTION_LENGTH_MAX))),
  max_length: v.optional(v.pipe(integer, v.minValue(1), v.maxValue(COMMAND_OPTION_LENGTH_MAX))),
  autocomplete: v.optional(v.boolean()),
  file_types: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string(),
          v.regex(
            /^(\.[A-Za-z0-9]{1,16}|[a-z]+\/(\*|[A-Za-z0-9.+-]+))$/,
            'Must be an extension (.png) or a media type (image/png, image/*).',
          ),
        ),
      ),
      v.minLength(1),
    ),
  ),
}) as v.GenericSchema<unknown, CommandOption>;

const commandFields = {
  name: between(1, COMMAND_NAME_MAX),
  name_localizations: localizations,
  description: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (s) => [...s].length <= COMMAND_DESCRIPTION_MAX,
        `Must be ${COMMAND_DESCRIPTION_MAX} or fewer in length.`,
      ),
    ),
  ),
  description_localizations: localizations,
  options: v.optional(
    v.pipe(
      v.array(CommandOptionSchema),
      v.maxLength(COMMAND_OPTIONS_MAX, `Must be ${COMMAND_OPTIONS_MAX} or fewer in length.`),
    ),
  ),
  default_member_permissions: v.nullish(bitSet),
  /** Deprecated in favor of `contexts`: still accepted and mapped (see `interactions/command-rules.ts`). */
  dm_permission: v.nullish(v.boolean()),
  /** Replaced by `default_member_permissions`: accepted; `false` reads as "0" (admins only). */
  default_permission: v.nullish(v.boolean()),
  integration_types: v.optional(
    v.pipe(v.array(v.picklist([0, 1], 'Value must be one of (0, 1).')), v.minLength(1, 'Must be 1 or more in length.')),
  ),
  contexts: v.nullish(
    v.pipe(
      v.array(v.picklist([0, 1, 2], 'Value must be one of (0, 1, 2).')),
      v.minLength(1, 'Must be 1 or more in length.'),
    ),
  ),
  nsfw: v.optional(v.boolean()),
  handler: v.optional(v.picklist([1, 2], 'Value must be one of (1, 2).')),
};

/** Create (and each entry of a bulk overwrite, which may name the `id` it keeps). */
export const CommandCreateSchema = jsonObject({
  ...commandFields,
  type: v.optional(v.picklist([1, 2, 3, 4], 'Value must be one of (1, 2, 3, 4).'), 1),
  id: v.optional(snowflakeSchema),
});

export type CommandCreateInput = v.InferOutput<typeof CommandCreateSchema>;

/** Edit: every field optional; what is given replaces what was there. The type never changes. */
export const CommandEditSchema = v.partial(jsonObject(commandFields));

export type CommandEditInput = v.InferOutput<typeof CommandEditSchema>;

/** Bulk overwrite: the whole list of a scope. */
export const CommandBulkSchema = v.array(CommandCreateSchema);

/** A command route's path: the application, the guild for guild commands, the command. */
export const CommandPathSchema = v.object({
  application_id: snowflakeSchema,
  guild_id: v.optional(snowflakeSchema),
  command_id: v.optional(snowflakeSchema),
});

/** `with_localizations` is accepted: the sandbox always answers the full localization dictionaries. */
export const CommandListQuerySchema = v.object({
  with_localizations: v.optional(v.picklist(['true', 'false', '1', '0', 'True', 'False'])),
});

/** `PUT .../commands/{command.id}/permissions`: the command's whole list in the guild (at most 100). */
export const CommandPermissionsSchema = jsonObject({
  permissions: v.pipe(
    v.array(
      jsonObject({
        id: snowflakeSchema,
        type: v.picklist([1, 2, 3], 'Must be 1 (role), 2 (user) or 3 (channel).'),
        permission: v.boolean('Must be a boolean.'),
      }),
    ),
    v.maxLength(COMMAND_PERMISSIONS_MAX, `Must be ${COMMAND_PERMISSIONS_MAX} or fewer in length.`),
  ),
});

/** The path of a command permissions route. */
export const CommandPermissionsPathSchema = v.object({
  application_id: snowflakeSchema,
  guild_id: snowflakeSchema,
  command_id: v.optional(snowflakeSchema),
});
