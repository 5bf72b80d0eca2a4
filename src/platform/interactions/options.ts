/**
 * The options a simulated user fills in when invoking a CHAT_INPUT command, checked against
 * the command's definition as the platform client would: subcommands and groups, types,
 * required options, choices, ranges, lengths, channel types and file types. Entities they name
 * are resolved; ATTACHMENT values are files, stored with the interaction. An autocomplete
 * interaction sends partial options: exactly one `focused`, on an option with autocomplete,
 * required ones may be missing and its value is not checked.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import { OPTION_TYPES, type CommandOption } from '../../store/records/commands';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { prepareSubmittedFiles, SubmittedFileSchema, type PreparedFile } from './files';
import { attachmentSizeLimit, type InteractionPlace } from './place';
import { resolveChannel, resolveFiles, resolveMentionable, resolveRole, resolveUser, type Resolved } from './resolved';

/** An option as the sandbox takes it: `{name, value}` or `{name, options}` for subcommands. */
export interface InputOption {
  name: string;
  value?: unknown;
  options?: InputOption[];
  focused?: boolean;
}
export const InputOptionSchema: v.GenericSchema<unknown, InputOption> = jsonObject({
  name: v.pipe(v.string(), v.minLength(1)),
  value: v.optional(v.unknown()),
  options: v.optional(v.array(v.lazy(() => InputOptionSchema))),
  focused: v.optional(v.boolean()),
}) as v.GenericSchema<unknown, InputOption>;

/** An option as the interaction carries it. */
export interface DataOption {
  name: string;
  type: number;
  value?: string | number | boolean;
  options?: DataOption[];
  focused?: boolean;
}

interface OptionsRun {
  ctx: PlatformContext;
  place: InteractionPlace;
  resolved: Resolved;
  files: PreparedFile[];
  autocomplete: boolean;
  focused: number;
  interactionId: string;
}

const bad = (path: string, message: string) => ApiError.invalidForm({ [path]: message });

/** Checks one value option and returns its data form. */
async function valueOption(run: OptionsRun, def: CommandOption, input: InputOption, path: string): Promise<DataOption> {
  const out: DataOption = { name: def.name, type: def.type };
  if (input.focused) {
    if (!run.autocomplete || !def.autocomplete)
      throw bad(`${path}.focused`, 'Only an option with autocomplete can be focused, in an autocomplete interaction.');
    run.focused++;
    out.focused = true;
    out.value = typeof input.value === 'number' ? input.value : String(input.value ?? '');
    return out;
  }
  const value = input.value;
  const at = `${path}.value`;
  switch (def.type) {
    case OPTION_TYPES.STRING: {
      if (typeof value !== 'string') throw bad(at, 'Must be a string.');
      const length = [...value].length;
      if (def.min_length !== undefined && length < def.min_length)
        throw bad(at, `Must be ${def.min_length} or more in length.`);
      if (def.max_length !== undefined && length > def.max_length)
        throw bad(at, `Must be ${def.max_length} or fewer in length.`);
      out.value = value;
      break;
    }
    case OPTION_TYPES.INTEGER:
    case OPTION_TYPES.NUMBER: {
      if (
        typeof value !== 'number' ||
        !Number.isFinite(value) ||
        (def.type === OPTION_TYPES.INTEGER && !Number.isSafeInteger(value))
      )
        throw bad(at, def.type === OPTION_TYPES.INTEGER ? 'Must be an integer.' : 'Must be a number.');
      if (def.min_value !== undefined && value < def.min_value) throw bad(at, `Must be ${def.min_value} or more.`);
      if (def.max_value !== undefined && value > def.max_value) throw bad(at, `Must be ${def.max_value} or less.`);
      out.value = value;
      break;
    }
    case OPTION_TYPES.BOOLEAN:
      if (typeof value !== 'boolean') throw bad(at, 'Must be a boolean.');
      out.value = value;
      break;
    case OPTION_TYPES.USER:
      await resolveUser(run.ctx, run.place, run.resolved, String(value), at);
      out.value = String(value);
      break;
    case OPTION_TYPES.ROLE:
      resolveRole(run.place, run.resolved, String(value), at);
      out.value = String(value);
      break;
    case OPTION_TYPES.MENTIONABLE:
      await resolveMentionable(run.ctx, run.place, run.resolved, String(value), at);
      out.value = String(value);
      break;
    case OPTION_TYPES.CHANNEL:
      await resolveChannel(run.ctx, run.place, run.resolved, String(value), at, def.channel_types);
      out.value = String(value);
      break;
    case OPTION_TYPES.ATTACHMENT: {
      const file = v.safeParse(SubmittedFileSchema, value);
      if (!file.success) throw bad(at, 'Must be a file: {filename, content_type?, data (base64)}.');
      const [prepared] = prepareSubmittedFiles([file.output], {
        path: at,
        single: true,
        limit: attachmentSizeLimit(run.ctx, run.place),
        fileTypes: def.file_types,
        channelId: run.place.channelId,
        ownerId: run.interactionId,
        newId: () => run.ctx.ids.next(),
      });
      run.files.push(prepared);
      resolveFiles(run.resolved, [prepared]);
      out.value = prepared.meta.id;
      break;
    }
  }
  if (def.choices && def.choices.length > 0 && !def.choices.some((c) => c.value === out.value))
    throw bad(at, 'Must be one of the choices.');
  return out;
}

/** Checks a list of options against their definitions. */
async function optionList(
  run: OptionsRun,
  defs: readonly CommandOption[],
  inputs: readonly InputOption[],
  path: string,
): Promise<DataOption[]> {
  const out: DataOption[] = [];
  const seen = new Set<string>();
  for (const [i, input] of inputs.entries()) {
    const def = defs.find((d) => d.name === input.name);
    if (!def) throw bad(`${path}.${i}.name`, 'The command has no such option.');
    if (seen.has(input.name)) throw bad(`${path}.${i}.name`, 'An option is given once.');
    seen.add(input.name);
    if (def.type === OPTION_TYPES.SUB_COMMAND || def.type === OPTION_TYPES.SUB_COMMAND_GROUP) {
      if (inputs.length !== 1) throw bad(path, 'Exactly one subcommand is invoked.');
      const nested = await optionList(run, def.options ?? [], input.options ?? [], `${path}.${i}.options`);
      out.push({ name: def.name, type: def.type, options: nested });
      continue;
    }
    out.push(await valueOption(run, def, input, `${path}.${i}`));
  }
  const subs = defs.some((d) => d.type === OPTION_TYPES.SUB_COMMAND || d.type === OPTION_TYPES.SUB_COMMAND_GROUP);
  if (subs && out.length === 0) throw bad(path, 'A subcommand must be chosen.');
  if (!run.autocomplete) {
    const missing = defs.find((d) => d.required && !seen.has(d.name));
    if (missing) throw bad(path, `The required option ${missing.name} is missing.`);
  }
  return out;
}

/**
 * The command's options as filled in, with what they resolve and the files they carry.
 * @example const { options, files } = await checkCommandOptions(ctx, place, command.options, input.options, resolved, { autocomplete: false, interactionId });
 */
export async function checkCommandOptions(
  ctx: PlatformContext,
  place: InteractionPlace,
  defs: readonly CommandOption[],
  inputs: readonly InputOption[],
  resolved: Resolved,
  options: { autocomplete: boolean; interactionId: string },
): Promise<{ options: DataOption[]; files: PreparedFile[] }> {
  const run: OptionsRun = { ctx, place, resolved, files: [], focused: 0, ...options };
  const out = await optionList(run, defs, inputs, 'data.options');
  if (options.autocomplete && run.focused !== 1)
    throw bad('data.options', 'An autocomplete interaction has exactly one focused option.');
  return { options: out, files: run.files };
}
