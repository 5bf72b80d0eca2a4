/**
 * Submitting a modal (a MODAL_SUBMIT interaction) as the simulated user: the sandbox takes
 * `data: {custom_id, values: {<input custom_id>: value}}` (a string for a Text Input or a Radio
 * Group, a list for selects and Checkbox Groups, a boolean for a Checkbox, a list of files
 * `{filename, content_type?, data}` for a File Upload) and checks it against the modal the app
 * opened for this user (the latest with that custom_id, within the token's 15 minutes):
 * required inputs, lengths, counts, options, entities, and for files the user's upload limit
 * in that channel and the component's `file_types`. The interaction carries the values in the
 * platform's shape (`components`, each Label's `component` with its `value` / `values`).
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import { dictionary } from '../core/schema-parts';
import { COMPONENT_TYPES } from './components';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { prepareSubmittedFiles, SubmittedFileSchema, type PreparedFile } from './files';
import { userUploadLimit, type InteractionPlace } from './place';
import type { InteractionRecord } from '../../store/records/interactions';
import {
  compactResolved,
  emptyResolved,
  resolveChannel,
  resolveFiles,
  resolveMentionable,
  resolveRole,
  resolveUser,
  type Resolved,
} from './resolved';
import { INTERACTION_TOKEN_TTL_MS, TEXT_INPUT_LENGTH_MAX } from '../core/limits';
import { MESSAGE_TYPES } from '../../store/records/messages';
import type { BuiltData } from './data';

/** What the sandbox takes to submit a modal. */
export const ModalSubmitDataSchema = jsonObject({
  custom_id: v.pipe(v.string(), v.minLength(1)),
  values: v.optional(dictionary(v.unknown()), {}),
});

type Node = Record<string, unknown>;
const bad = (path: string, message: string) => ApiError.invalidForm({ [path]: message });

/** The interaction that opened the modal: this app's, for this user, latest first, token still valid. */
async function findOpener(ctx: PlatformContext, place: InteractionPlace, customId: string): Promise<InteractionRecord> {
  const mine = await ctx.db.getAllFromIndex('interactions', 'by_user', [place.application.id, place.user.id]);
  const now = ctx.clock.now();
  const opener = mine
    .filter((i) => i.modal?.custom_id === customId && i.created_at + INTERACTION_TOKEN_TTL_MS > now)
    .sort((a, b) => b.created_at - a.created_at)[0];
  if (!opener) throw bad('data.custom_id', 'No modal with this custom_id is open for this user.');
  if (opener.channel_id !== place.channelId) throw bad('channel_id', 'The modal was opened in another channel.');
  return opener;
}

interface SubmitRun {
  ctx: PlatformContext;
  place: InteractionPlace;
  resolved: Resolved;
  files: PreparedFile[];
  interactionId: string;
}

/** The submitted value of one input, in the platform's shape (`{type, id, custom_id, value | values}`). */
async function submittedInput(run: SubmitRun, input: Node, value: unknown): Promise<Node> {
  const customId = input.custom_id as string;
  const at = `data.values.${customId}`;
  const required = input.required !== false;
  const out: Node = { type: input.type, id: input.id, custom_id: customId };
  const list = (): string[] => {
    if (value === undefined) return [];
    if (!Array.isArray(value) || !value.every((x) => typeof x === 'string'))
      throw bad(at, 'Must be a list of strings.');
    return value as string[];
  };
  const counted = (values: readonly unknown[], min: number, max: number) => {
    if ((required || values.length > 0) && (values.length < min || values.length > max))
      throw bad(at, `Pick between ${min} and ${max}.`);
    if (required && values.length === 0) throw bad(at, 'This input is required.');
  };
  switch (input.type) {
    case COMPONENT_TYPES.TEXT_INPUT: {
      const text = value === undefined ? '' : value;
      if (typeof text !== 'string') throw bad(at, 'Must be a string.');
      const length = [...text].length;
      if (required && length === 0) throw bad(at, 'This input is required.');
      const min = (input.min_length as number | undefined) ?? 0;
      const max = (input.max_length as number | undefined) ?? TEXT_INPUT_LENGTH_MAX;
      if (length > 0 && (length < min || length > max)) throw bad(at, `Must be between ${min} and ${max} in length.`);
      out.value = text;
      return out;
    }
    case COMPONENT_TYPES.RADIO_GROUP: {
      if (value !== undefined && value !== null && typeof value !== 'string')
        throw bad(at, 'Must be one option value.');
      if (typeof value === 'string' && !(input.options as Node[]).some((o) => o.value === value))
        throw bad(at, 'Not an option of this Radio Group.');
      if (required && (value === undefined || value === null)) throw bad(at, 'This input is required.');
      out.value = value ?? null;
      return out;
    }
    case COMPONENT_TYPES.CHECKBOX:
      if (value !== undefined && typeof value !== 'boolean') throw bad(at, 'Must be a boolean.');
      out.value = value ?? false;
      return out;
    case COMPONENT_TYPES.FILE_UPLOAD: {
      const files = v.safeParse(v.array(SubmittedFileSchema), value ?? []);
      if (!files.success) throw bad(at, 'Must be a list of files: {filename, content_type?, data (base64)}.');
      counted(
        files.output,
        (input.min_values as number | undefined) ?? 1,
        (input.max_values as number | undefined) ?? 1,
      );
      const prepared = prepareSubmittedFiles(files.output, {
        path: at,
        limit: userUploadLimit(run.ctx, run.place),
        fileTypes: input.file_types as string[] | undefined,
        channelId: run.place.channelId,
        ownerId: run.interactionId,
        newId: () => run.ctx.ids.next(),
      });
      run.files.push(...prepared);
      resolveFiles(run.resolved, prepared);
      out.values = prepared.map((f) => f.meta.id);
      return out;
    }
    default: {
      const values = list();
      const options = input.options as Node[] | undefined;
      const defaultMax = input.type === COMPONENT_TYPES.CHECKBOX_GROUP ? (options?.length ?? 1) : 1;
      counted(
        values,
        (input.min_values as number | undefined) ?? 1,
        (input.max_values as number | undefined) ?? defaultMax,
      );
      for (const [i, x] of values.entries()) {
        const path = `${at}.${i}`;
        if (options && !options.some((o) => o.value === x)) throw bad(path, 'Not an option of this input.');
        if (input.type === COMPONENT_TYPES.USER_SELECT) await resolveUser(run.ctx, run.place, run.resolved, x, path);
        if (input.type === COMPONENT_TYPES.ROLE_SELECT) resolveRole(run.place, run.resolved, x, path);
        if (input.type === COMPONENT_TYPES.MENTIONABLE_SELECT)
          await resolveMentionable(run.ctx, run.place, run.resolved, x, path);
        if (input.type === COMPONENT_TYPES.CHANNEL_SELECT)
          await resolveChannel(run.ctx, run.place, run.resolved, x, path, input.channel_types as number[] | undefined);
      }
      out.values = values;
      return out;
    }
  }
}

/**
 * The data of a MODAL_SUBMIT interaction, with the interaction that opened the modal (its
 * owners and message carry over; the modal closes with the submit).
 */
export async function modalSubmitData(
  ctx: PlatformContext,
  place: InteractionPlace,
  raw: unknown,
  interactionId: string,
): Promise<BuiltData & { opener: InteractionRecord }> {
  const parsed = v.safeParse(ModalSubmitDataSchema, raw ?? {});
  if (!parsed.success)
    throw ApiError.invalidForm({
      [`data.${v.getDotPath(parsed.issues[0]) ?? ''}`.replace(/\.$/, '')]: parsed.issues[0].message,
    });
  const opener = await findOpener(ctx, place, parsed.output.custom_id);
  const values = parsed.output.values;
  const known = new Set<string>();
  const run: SubmitRun = { ctx, place, resolved: emptyResolved(), files: [], interactionId };
  const components: Node[] = [];
  for (const top of opener.modal!.components) {
    if (top.type === COMPONENT_TYPES.TEXT_DISPLAY) {
      components.push({ type: top.type, id: top.id });
      continue;
    }
    const inputs = top.type === COMPONENT_TYPES.LABEL ? [top.component as Node] : (top.components as Node[]);
    const answered: Node[] = [];
    for (const input of inputs) {
      known.add(input.custom_id as string);
      answered.push(await submittedInput(run, input, values[input.custom_id as string]));
    }
    components.push(
      top.type === COMPONENT_TYPES.LABEL
        ? { type: top.type, id: top.id, component: answered[0] }
        : { type: top.type, id: top.id, components: answered },
    );
  }
  const unknown = Object.keys(values).find((k) => !known.has(k));
  if (unknown !== undefined) throw bad(`data.values.${unknown}`, 'The modal has no input with this custom_id.');
  const data: Record<string, unknown> = { custom_id: opener.modal!.custom_id, components };
  const compact = compactResolved(run.resolved);
  if (compact) data.resolved = compact;
  return {
    data,
    owners: opener.authorizing_integration_owners,
    files: run.files,
    messageType: MESSAGE_TYPES.DEFAULT,
    command: null,
    message: null,
    opener,
  };
}
