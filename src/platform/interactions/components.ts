/**
 * Message components as valibot schemas (the platform's public component reference): layout
 * (Action Row, Section, Container, Separator), content (Text Display, Thumbnail, Media Gallery,
 * File) and interactive ones (buttons, including the premium style that carries a `sku_id`, and
 * selects). The building blocks are exported for the interactions code to compose modals from;
 * the rules that span a whole message (counts, ids, V2 flag) are in `interactions/component-rules.ts`.
 */
import * as v from 'valibot';
import { snowflakeSchema } from '../core/schema-parts';
import { jsonObject } from '../core/json-object';
import {
  BUTTON_LABEL_MAX,
  BUTTON_URL_MAX,
  BUTTONS_PER_ACTION_ROW_MAX,
  COMPONENT_CUSTOM_ID_MAX,
  COMPONENT_MEDIA_DESCRIPTION_MAX,
  COMPONENTS_V2_TEXT_MAX,
  MEDIA_GALLERY_ITEMS_MAX,
  SECTION_TEXT_DISPLAYS_MAX,
  SELECT_OPTION_TEXT_MAX,
  SELECT_OPTIONS_MAX,
  SELECT_PLACEHOLDER_MAX,
  SELECT_VALUES_MAX,
} from '../core/limits';

/** Component types (public values). */
export const COMPONENT_TYPES = {
  ACTION_ROW: 1,
  BUTTON: 2,
  STRING_SELECT: 3,
  TEXT_INPUT: 4,
  USER_SELECT: 5,
  ROLE_SELECT: 6,
  MENTIONABLE_SELECT: 7,
  CHANNEL_SELECT: 8,
  SECTION: 9,
  TEXT_DISPLAY: 10,
  THUMBNAIL: 11,
  MEDIA_GALLERY: 12,
  FILE: 13,
  SEPARATOR: 14,
  CONTAINER: 17,
  LABEL: 18,
  FILE_UPLOAD: 19,
  RADIO_GROUP: 21,
  CHECKBOX_GROUP: 22,
  CHECKBOX: 23,
} as const;

/** Button styles; PREMIUM buttons carry a `sku_id` (they replace the deprecated PREMIUM_REQUIRED callback). */
export const BUTTON_STYLES = { PRIMARY: 1, SECONDARY: 2, SUCCESS: 3, DANGER: 4, LINK: 5, PREMIUM: 6 } as const;

const max = <T extends v.LengthInput>(n: number) =>
  v.maxLength<T, number, string>(n, `Must be ${n} or fewer in length.`);
const snowflake = snowflakeSchema;

/** The optional 32-bit `id` every component may carry (0 counts as absent). */
export const ComponentIdSchema = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2 ** 31 - 1)));
/** A developer-defined `custom_id`: 1 to 100 characters. */
export const CustomIdSchema = v.pipe(
  v.string(),
  v.minLength(1, 'Must be between 1 and 100 in length.'),
  max(COMPONENT_CUSTOM_ID_MAX),
);
/** A partial emoji: `id`, `name`, `animated`. */
export const PartialEmojiSchema = jsonObject({
  id: v.optional(v.nullable(snowflake)),
  name: v.optional(v.nullable(v.string())),
  animated: v.optional(v.boolean()),
});
/** An unfurled media item: an http(s) URL or `attachment://<filename>` of the message's own attachments. */
export const UnfurledMediaSchema = jsonObject({
  url: v.pipe(v.string(), v.regex(/^(https?|attachment):\/\/\S+$/, 'Scheme must be one of (http, https, attachment).')),
});

/** An issue on one key of an object (so a 400 names `components.0.components.1.custom_id`). */
function keyIssue(
  addIssue: (info: { message: string; path: [v.ObjectPathItem] }) => void,
  input: Record<string, unknown>,
  key: string,
  message: string,
) {
  addIssue({ message, path: [{ type: 'object', origin: 'value', input, key, value: input[key] }] });
}

/**
 * A button. Non-link, non-premium styles need a `custom_id` (no `url`, no `sku_id`); LINK needs
 * a `url` (no `custom_id`); PREMIUM needs a `sku_id` and has no `custom_id`, `label`, `url` or `emoji`.
 */
export const ButtonSchema = v.pipe(
  jsonObject({
    type: v.literal(COMPONENT_TYPES.BUTTON),
    id: ComponentIdSchema,
    style: v.picklist(Object.values(BUTTON_STYLES), 'Value must be one of (1, 2, 3, 4, 5, 6).'),
    label: v.optional(v.pipe(v.string(), max(BUTTON_LABEL_MAX))),
    emoji: v.optional(PartialEmojiSchema),
    custom_id: v.optional(CustomIdSchema),
    sku_id: v.optional(snowflake),
    url: v.optional(
      v.pipe(
        v.string(),
        max(BUTTON_URL_MAX),
        v.regex(/^(https?|discord):\/\/\S+$/, 'Scheme must be one of (http, https, discord).'),
      ),
    ),
    disabled: v.optional(v.boolean()),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const b = dataset.value as Record<string, unknown> & { style: number };
    const forbid = (keys: string[], why: string) =>
      keys.filter((k) => b[k] !== undefined).forEach((k) => keyIssue(addIssue, b, k, why));
    if (b.style === BUTTON_STYLES.PREMIUM) {
      if (b.sku_id === undefined) keyIssue(addIssue, b, 'sku_id', 'A premium button requires a sku_id.');
      forbid(['custom_id', 'label', 'url', 'emoji'], 'A premium button cannot have this field.');
      return;
    }
    if (b.style === BUTTON_STYLES.LINK) {
      if (b.url === undefined) keyIssue(addIssue, b, 'url', 'A link button requires a url.');
      forbid(['custom_id', 'sku_id'], 'A link button cannot have this field.');
    } else {
      if (b.custom_id === undefined) keyIssue(addIssue, b, 'custom_id', 'This button style requires a custom_id.');
      forbid(['url', 'sku_id'], 'Only link buttons have a url and only premium buttons a sku_id.');
    }
    if (b.label === undefined && b.emoji === undefined)
      keyIssue(addIssue, b, 'label', 'A button requires a label or an emoji.');
  }),
);

const selectValues = {
  placeholder: v.optional(v.pipe(v.string(), max(SELECT_PLACEHOLDER_MAX))),
  min_values: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(SELECT_VALUES_MAX))),
  max_values: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(SELECT_VALUES_MAX))),
  disabled: v.optional(v.boolean()),
  /** Only meaningful in modals (true unless given); ignored in messages. */
  required: v.optional(v.boolean()),
};
/** A string select: 1 to 25 options (`min_values` not above `max_values`: checked by the message rules). */
export const StringSelectSchema = jsonObject({
  type: v.literal(COMPONENT_TYPES.STRING_SELECT),
  id: ComponentIdSchema,
  custom_id: CustomIdSchema,
  options: v.pipe(
    v.array(
      jsonObject({
        label: v.pipe(v.string(), v.minLength(1), max(SELECT_OPTION_TEXT_MAX)),
        value: v.pipe(v.string(), v.minLength(1), max(SELECT_OPTION_TEXT_MAX)),
        description: v.optional(v.pipe(v.string(), max(SELECT_OPTION_TEXT_MAX))),
        emoji: v.optional(PartialEmojiSchema),
        default: v.optional(v.boolean()),
      }),
    ),
    v.minLength(1, 'Must be between 1 and 25 in length.'),
    max(SELECT_OPTIONS_MAX),
  ),
  ...selectValues,
});

const DefaultValueSchema = jsonObject({ id: snowflake, type: v.picklist(['user', 'role', 'channel']) });
const autoSelect = <T extends 5 | 6 | 7 | 8>(type: T) =>
  jsonObject({
    type: v.literal(type),
    id: ComponentIdSchema,
    custom_id: CustomIdSchema,
    default_values: v.optional(v.pipe(v.array(DefaultValueSchema), max(SELECT_VALUES_MAX))),
    channel_types: v.optional(v.array(v.pipe(v.number(), v.safeInteger(), v.minValue(0)))),
    ...selectValues,
  });
/** User, role, mentionable and channel selects. */
export const UserSelectSchema = autoSelect(COMPONENT_TYPES.USER_SELECT);
export const RoleSelectSchema = autoSelect(COMPONENT_TYPES.ROLE_SELECT);
export const MentionableSelectSchema = autoSelect(COMPONENT_TYPES.MENTIONABLE_SELECT);
export const ChannelSelectSchema = autoSelect(COMPONENT_TYPES.CHANNEL_SELECT);

const AnySelectSchema = v.variant('type', [
  StringSelectSchema,
  UserSelectSchema,
  RoleSelectSchema,
  MentionableSelectSchema,
  ChannelSelectSchema,
]);

/** An Action Row: up to 5 buttons, or exactly one select. */
export const ActionRowSchema = v.pipe(
  jsonObject({
    type: v.literal(COMPONENT_TYPES.ACTION_ROW),
    id: ComponentIdSchema,
    components: v.pipe(
      v.array(v.variant('type', [ButtonSchema, AnySelectSchema])),
      v.minLength(1, 'Must be between 1 and 5 in length.'),
      max(BUTTONS_PER_ACTION_ROW_MAX),
    ),
  }),
  v.check(
    (row) => row.components.every((c) => c.type === COMPONENT_TYPES.BUTTON) || row.components.length === 1,
    'An action row holds up to 5 buttons or a single select.',
  ),
);

/** Markdown text (also allowed in modals). */
export const TextDisplaySchema = jsonObject({
  type: v.literal(COMPONENT_TYPES.TEXT_DISPLAY),
  id: ComponentIdSchema,
  content: v.pipe(v.string(), v.minLength(1), max(COMPONENTS_V2_TEXT_MAX)),
});

const mediaDescription = v.optional(v.nullable(v.pipe(v.string(), max(COMPONENT_MEDIA_DESCRIPTION_MAX))));
/** A small image, a Section's accessory. */
export const ThumbnailSchema = jsonObject({
  type: v.literal(COMPONENT_TYPES.THUMBNAIL),
  id: ComponentIdSchema,
  media: UnfurledMediaSchema,
  description: mediaDescription,
  spoiler: v.optional(v.boolean()),
});
/** 1 to 10 media items. */
export const MediaGallerySchema = jsonObject({
  type: v.literal(COMPONENT_TYPES.MEDIA_GALLERY),
  id: ComponentIdSchema,
  items: v.pipe(
    v.array(
      jsonObject({ media: UnfurledMediaSchema, description: mediaDescription, spoiler: v.optional(v.boolean()) }),
    ),
    v.minLength(1, 'Must be between 1 and 10 in length.'),
    max(MEDIA_GALLERY_ITEMS_MAX),
  ),
});
/** A file of the message's own attachments (`attachment://<filename>` only). */
export const FileSchema = jsonObject({
  type: v.literal(COMPONENT_TYPES.FILE),
  id: ComponentIdSchema,
  file: jsonObject({
    url: v.pipe(
      v.string(),
      v.regex(/^attachment:\/\/\S+$/, 'A File component only references attachments (attachment://<filename>).'),
    ),
  }),
  spoiler: v.optional(v.boolean()),
});
/** Vertical space, with or without a divider (spacing 1 small, 2 large). */
export const SeparatorSchema = jsonObject({
  type: v.literal(COMPONENT_TYPES.SEPARATOR),
  id: ComponentIdSchema,
  divider: v.optional(v.boolean()),
  spacing: v.optional(v.picklist([1, 2])),
});
/** 1 to 3 Text Displays beside an accessory (a Thumbnail or a Button). */
export const SectionSchema = jsonObject({
  type: v.literal(COMPONENT_TYPES.SECTION),
  id: ComponentIdSchema,
  components: v.pipe(
    v.array(TextDisplaySchema),
    v.minLength(1, 'Must be between 1 and 3 in length.'),
    max(SECTION_TEXT_DISPLAYS_MAX),
  ),
  accessory: v.variant('type', [ThumbnailSchema, ButtonSchema]),
});
/** A visual group of components with an optional accent color (no limit on its children). */
export const ContainerSchema = jsonObject({
  type: v.literal(COMPONENT_TYPES.CONTAINER),
  id: ComponentIdSchema,
  components: v.pipe(
    v.array(
      v.variant('type', [
        ActionRowSchema,
        TextDisplaySchema,
        SectionSchema,
        MediaGallerySchema,
        SeparatorSchema,
        FileSchema,
      ]),
    ),
    v.minLength(1, 'Must be 1 or more in length.'),
  ),
  accent_color: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffff)))),
  spoiler: v.optional(v.boolean()),
});

/** A top-level component of a message (which ones need IS_COMPONENTS_V2 is checked by the rules). */
export const MessageComponentSchema = v.variant('type', [
  ActionRowSchema,
  SectionSchema,
  TextDisplaySchema,
  MediaGallerySchema,
  FileSchema,
  SeparatorSchema,
  ContainerSchema,
]);

/** A message's top-level components (counted by `checkMessageComponents`). */
export const MessageComponentsSchema = v.array(MessageComponentSchema);

/** A validated top-level message component. */
export type MessageComponentInput = v.InferOutput<typeof MessageComponentSchema>;
