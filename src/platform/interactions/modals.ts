/**
 * Modals (interaction callback 9) and the components they may hold (spec, components rules):
 * top-level Labels and Text Displays; inside a Label one Text Input (whose own `label` is then
 * not allowed), a string select, a user / role / mentionable / channel select, a File Upload
 * (0 to 10 files, optional `file_types`), a Radio Group, a Checkbox Group or a Checkbox. Radio
 * Groups, Checkbox Groups and Checkboxes exist only in modals and only inside a Label. A string
 * select's `required` defaults to true in a modal, and `disabled` on it is an error. The
 * deprecated form, an Action Row holding one Text Input (with its `label`), is still accepted.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import {
  COMPONENT_TYPES,
  ChannelSelectSchema,
  ComponentIdSchema,
  CustomIdSchema,
  MentionableSelectSchema,
  RoleSelectSchema,
  StringSelectSchema,
  TextDisplaySchema,
  UserSelectSchema,
} from './components';
import { selectValueErrors } from './component-rules';
import { ApiError } from '../core/errors';
import {
  CHECKBOX_GROUP_OPTIONS_MAX,
  FILE_UPLOAD_COUNT_MAX,
  FILE_UPLOAD_COUNT_MIN,
  LABEL_DESCRIPTION_MAX,
  LABEL_TEXT_MAX,
  MODAL_COMPONENTS_MAX,
  MODAL_TITLE_MAX,
  RADIO_GROUP_OPTIONS_MAX,
  RADIO_GROUP_OPTIONS_MIN,
  SELECT_OPTION_TEXT_MAX,
  SELECT_PLACEHOLDER_MAX,
  TEXT_INPUT_LENGTH_MAX,
} from '../core/limits';
import type { StoredModal } from '../../store/records/interactions';

const max = (n: number) => v.maxLength<string, number, string>(n, `Must be ${n} or fewer in length.`);
const text = (min: number, n: number) =>
  v.pipe(v.string(), v.minLength(min, `Must be between ${min} and ${n} in length.`), max(n));
const count = (lo: number, hi: number) => v.optional(v.pipe(v.number(), v.integer(), v.minValue(lo), v.maxValue(hi)));

/** A Text Input: short (1) or paragraph (2); `label` only in the deprecated Action Row form. */
const TextInputSchema = jsonObject({
  type: v.literal(COMPONENT_TYPES.TEXT_INPUT),
  id: ComponentIdSchema,
  custom_id: CustomIdSchema,
  style: v.picklist([1, 2], 'Value must be one of (1, 2).'),
  label: v.optional(text(1, LABEL_TEXT_MAX)),
  min_length: count(0, TEXT_INPUT_LENGTH_MAX),
  max_length: count(1, TEXT_INPUT_LENGTH_MAX),
  required: v.optional(v.boolean()),
  value: v.optional(v.pipe(v.string(), max(TEXT_INPUT_LENGTH_MAX))),
  placeholder: v.optional(v.pipe(v.string(), max(SELECT_PLACEHOLDER_MAX))),
});

const ChoiceOptionSchema = jsonObject({
  value: text(1, SELECT_OPTION_TEXT_MAX),
  label: text(1, SELECT_OPTION_TEXT_MAX),
  description: v.optional(v.pipe(v.string(), max(SELECT_OPTION_TEXT_MAX))),
  default: v.optional(v.boolean()),
});

/** Pick exactly one of 2 to 10 options. */
const RadioGroupSchema = jsonObject({
  type: v.literal(COMPONENT_TYPES.RADIO_GROUP),
  id: ComponentIdSchema,
  custom_id: CustomIdSchema,
  options: v.pipe(
    v.array(ChoiceOptionSchema),
    v.minLength(
      RADIO_GROUP_OPTIONS_MIN,
      `Must be between ${RADIO_GROUP_OPTIONS_MIN} and ${RADIO_GROUP_OPTIONS_MAX} in length.`,
    ),
    v.maxLength(
      RADIO_GROUP_OPTIONS_MAX,
      `Must be between ${RADIO_GROUP_OPTIONS_MIN} and ${RADIO_GROUP_OPTIONS_MAX} in length.`,
    ),
  ),
  required: v.optional(v.boolean()),
});

/** Pick `min_values` to `max_values` of 1 to 10 options. */
const CheckboxGroupSchema = jsonObject({
  type: v.literal(COMPONENT_TYPES.CHECKBOX_GROUP),
  id: ComponentIdSchema,
  custom_id: CustomIdSchema,
  options: v.pipe(
    v.array(ChoiceOptionSchema),
    v.minLength(1, `Must be between 1 and ${CHECKBOX_GROUP_OPTIONS_MAX} in length.`),
    v.maxLength(CHECKBOX_GROUP_OPTIONS_MAX, `Must be between 1 and ${CHECKBOX_GROUP_OPTIONS_MAX} in length.`),
  ),
  min_values: count(0, CHECKBOX_GROUP_OPTIONS_MAX),
  max_values: count(1, CHECKBOX_GROUP_OPTIONS_MAX),
  required: v.optional(v.boolean()),
});

/** A single yes/no toggle (never `required`). */
const CheckboxSchema = jsonObject({
  type: v.literal(COMPONENT_TYPES.CHECKBOX),
  id: ComponentIdSchema,
  custom_id: CustomIdSchema,
  default: v.optional(v.boolean()),
});

/**
 * A File Upload: `min_values` / `max_values` between FILE_UPLOAD_COUNT_MIN and
 * FILE_UPLOAD_COUNT_MAX (0 to 10; `max_values` at least 1). `file_types` restricts what may be
 * uploaded: extensions (`.png`) or media types (`image/png`, `image/*`); the spec says file
 * types "can be restricted" without naming the field, so the name is the sandbox's.
 */
const FileUploadSchema = jsonObject({
  type: v.literal(COMPONENT_TYPES.FILE_UPLOAD),
  id: ComponentIdSchema,
  custom_id: CustomIdSchema,
  min_values: count(FILE_UPLOAD_COUNT_MIN, FILE_UPLOAD_COUNT_MAX),
  max_values: count(Math.max(1, FILE_UPLOAD_COUNT_MIN), FILE_UPLOAD_COUNT_MAX),
  required: v.optional(v.boolean()),
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
});

/** A Label: a text (and description) above one input component. */
const LabelSchema = jsonObject({
  type: v.literal(COMPONENT_TYPES.LABEL),
  id: ComponentIdSchema,
  label: text(1, LABEL_TEXT_MAX),
  description: v.optional(v.pipe(v.string(), max(LABEL_DESCRIPTION_MAX))),
  component: v.variant(
    'type',
    [
      TextInputSchema,
      StringSelectSchema,
      UserSelectSchema,
      RoleSelectSchema,
      MentionableSelectSchema,
      ChannelSelectSchema,
      FileUploadSchema,
      RadioGroupSchema,
      CheckboxGroupSchema,
      CheckboxSchema,
    ],
    'A Label holds one Text Input, select, File Upload, Radio Group, Checkbox Group or Checkbox.',
  ),
});

/** Deprecated: an Action Row holding one Text Input. */
const TextInputRowSchema = jsonObject({
  type: v.literal(COMPONENT_TYPES.ACTION_ROW),
  id: ComponentIdSchema,
  components: v.pipe(v.array(TextInputSchema), v.length(1, 'An Action Row in a modal holds exactly one Text Input.')),
});

/** The modal of a callback 9: `custom_id`, `title` (up to 45 characters), 1 to 5 top-level components. */
export const ModalSchema = jsonObject({
  custom_id: CustomIdSchema,
  title: text(1, MODAL_TITLE_MAX),
  components: v.pipe(
    v.array(
      v.variant(
        'type',
        [LabelSchema, TextDisplaySchema, TextInputRowSchema],
        'A modal holds Labels, Text Displays and (deprecated) Action Rows of a Text Input.',
      ),
    ),
    v.minLength(1, `Must be between 1 and ${MODAL_COMPONENTS_MAX} in length.`),
    v.maxLength(MODAL_COMPONENTS_MAX, `Must be between 1 and ${MODAL_COMPONENTS_MAX} in length.`),
  ),
});

/** Input components that must be wrapped: said plainly rather than as a failed variant. */
const LABEL_ONLY = new Set<number>([
  COMPONENT_TYPES.RADIO_GROUP,
  COMPONENT_TYPES.CHECKBOX_GROUP,
  COMPONENT_TYPES.CHECKBOX,
  COMPONENT_TYPES.FILE_UPLOAD,
  COMPONENT_TYPES.TEXT_INPUT,
  COMPONENT_TYPES.STRING_SELECT,
  COMPONENT_TYPES.USER_SELECT,
  COMPONENT_TYPES.ROLE_SELECT,
  COMPONENT_TYPES.MENTIONABLE_SELECT,
  COMPONENT_TYPES.CHANNEL_SELECT,
]);

type Node = Record<string, unknown>;
type Errors = Record<string, string | { code: string; message: string }>;

/** The errors of rules valibot does not express: placement, Label-only fields, required/min, unique ids. */
function modalRuleErrors(components: readonly Node[]): Errors {
  const errors: Errors = {};
  const customIds = new Set<string>();
  components.forEach((top, i) => {
    const inner: [Node, string][] =
      top.type === COMPONENT_TYPES.LABEL
        ? [[top.component as Node, `components.${i}.component`]]
        : top.type === COMPONENT_TYPES.ACTION_ROW
          ? (top.components as Node[]).map((c, j) => [c, `components.${i}.components.${j}`])
          : [];
    for (const [node, path] of inner) {
      if (typeof node.custom_id === 'string') {
        if (customIds.has(node.custom_id))
          errors[`${path}.custom_id`] = {
            code: 'COMPONENT_CUSTOM_ID_DUPLICATED',
            message: 'Component custom id cannot be duplicated',
          };
        customIds.add(node.custom_id);
      }
      if (top.type === COMPONENT_TYPES.LABEL && node.type === COMPONENT_TYPES.TEXT_INPUT && node.label !== undefined) {
        errors[`${path}.label`] = 'A Text Input inside a Label has no label of its own: the Label holds it.';
      }
      if (top.type === COMPONENT_TYPES.ACTION_ROW && node.label === undefined)
        errors[`${path}.label`] = 'A Text Input in an Action Row needs a label.';
      if (node.type === COMPONENT_TYPES.STRING_SELECT && node.disabled === true) {
        errors[`${path}.disabled`] = {
          code: 'COMPONENT_DISABLED_IN_MODAL',
          message: 'A string select in a modal cannot be disabled.',
        };
      }
      if (node.type !== COMPONENT_TYPES.FILE_UPLOAD && node.type !== COMPONENT_TYPES.CHECKBOX_GROUP)
        Object.assign(errors, selectValueErrors(node, path));
      const min = node.min_values as number | undefined;
      const maxValues = node.max_values as number | undefined;
      if (min !== undefined && maxValues !== undefined && min > maxValues)
        errors[`${path}.min_values`] = 'min_values must not be above max_values.';
      if (
        node.type === COMPONENT_TYPES.CHECKBOX_GROUP &&
        maxValues !== undefined &&
        maxValues > (node.options as unknown[]).length
      )
        errors[`${path}.max_values`] = 'max_values must not be above the number of options.';
      if (
        min === 0 &&
        node.required !== false &&
        (node.type === COMPONENT_TYPES.CHECKBOX_GROUP || node.type === COMPONENT_TYPES.FILE_UPLOAD)
      ) {
        errors[`${path}.required`] = 'With min_values 0, required must be false.';
      }
      if (
        node.type === COMPONENT_TYPES.RADIO_GROUP &&
        (node.options as { default?: boolean }[]).filter((o) => o.default).length > 1
      ) {
        errors[`${path}.options`] = 'A Radio Group has at most one default option.';
      }
      if (
        node.type === COMPONENT_TYPES.TEXT_INPUT &&
        typeof node.min_length === 'number' &&
        typeof node.max_length === 'number' &&
        node.min_length > node.max_length
      ) {
        errors[`${path}.min_length`] = 'min_length must not be above max_length.';
      }
    }
  });
  return errors;
}

/**
 * Checks the modal of a callback 9 and returns it as kept for the submit: every component
 * with an `id` (numbered in order where missing) and every input's `required` made explicit
 * (true unless given; string selects included, as the spec has it for modals).
 * @example const modal = checkModal(body.data);
 */
export function checkModal(input: unknown): StoredModal {
  const raw = (input ?? {}) as Node;
  const placement: Errors = {};
  if (Array.isArray(raw.components)) {
    (raw.components as Node[]).forEach((c, i) => {
      if (c && LABEL_ONLY.has(c.type as number)) {
        placement[`data.components.${i}.type`] = {
          code: 'COMPONENT_REQUIRES_LABEL',
          message: 'This component must be inside a Label in a modal.',
        };
      }
    });
  }
  if (Object.keys(placement).length > 0) throw ApiError.invalidForm(placement);
  const result = v.safeParse(ModalSchema, raw);
  if (!result.success) {
    const fields: Record<string, string> = {};
    for (const issue of result.issues) fields[`data.${v.getDotPath(issue) ?? ''}`.replace(/\.$/, '')] ??= issue.message;
    throw ApiError.invalidForm(fields);
  }
  const modal = structuredClone(result.output) as unknown as StoredModal;
  const errors = modalRuleErrors(modal.components);
  if (Object.keys(errors).length > 0)
    throw ApiError.invalidForm(Object.fromEntries(Object.entries(errors).map(([k, e]) => [`data.${k}`, e])));
  let next = 1;
  const used = new Set<number>();
  const nodes = modal.components.flatMap((top) => [
    top,
    ...(top.component ? [top.component as Node] : []),
    ...((top.components as Node[] | undefined) ?? []),
  ]);
  for (const node of nodes) if (typeof node.id === 'number' && node.id !== 0) used.add(node.id);
  for (const node of nodes) {
    if (typeof node.id !== 'number' || node.id === 0) {
      while (used.has(next)) next++;
      node.id = next;
      used.add(next);
    }
    if (typeof node.custom_id === 'string' && node.type !== COMPONENT_TYPES.CHECKBOX && node.required === undefined)
      node.required = true;
  }
  return modal;
}

/** The input components of a modal with the top-level component each sits in. */
export function modalInputs(modal: StoredModal): { top: Node; input: Node }[] {
  return modal.components.flatMap((top) => {
    if (top.type === COMPONENT_TYPES.LABEL) return [{ top, input: top.component as Node }];
    if (top.type === COMPONENT_TYPES.ACTION_ROW) return (top.components as Node[]).map((input) => ({ top, input }));
    return [];
  });
}
