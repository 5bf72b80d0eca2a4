/**
 * Rich embeds of a message: the schema of one embed with the platform's limits (at most 25
 * fields per embed: 26 is a 400 50035 naming `embeds.N.fields`), and the 6000-character total
 * across a message's embeds. Embeds sent through the API are always `rich`.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import { isoInstantText } from '../core/schema-parts';
import {
  EMBED_AUTHOR_NAME_MAX,
  EMBED_DESCRIPTION_MAX,
  EMBED_FIELD_NAME_MAX,
  EMBED_FIELD_VALUE_MAX,
  EMBED_FIELDS_MAX,
  EMBED_FOOTER_TEXT_MAX,
  EMBED_TITLE_MAX,
  EMBED_TOTAL_CHARS_MAX,
  EMBEDS_PER_MESSAGE_MAX,
} from '../core/limits';
import type { Embed } from '../../store/records/messages';

const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max, `Must be ${max} or fewer in length.`));
const link = v.pipe(
  v.string(),
  v.regex(/^(https?|attachment):\/\/\S+$/, 'Scheme must be one of (http, https, attachment).'),
);
const image = jsonObject({ url: link });

/** One embed as a request sends it; `type` other than `rich` is ignored, as on the platform. */
export const EmbedSchema = jsonObject({
  type: v.optional(v.string()),
  title: v.optional(text(EMBED_TITLE_MAX)),
  description: v.optional(text(EMBED_DESCRIPTION_MAX)),
  url: v.optional(link),
  timestamp: v.optional(isoInstantText),
  color: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffff))),
  footer: v.optional(jsonObject({ text: text(EMBED_FOOTER_TEXT_MAX), icon_url: v.optional(link) })),
  image: v.optional(image),
  thumbnail: v.optional(image),
  author: v.optional(
    jsonObject({ name: text(EMBED_AUTHOR_NAME_MAX), url: v.optional(link), icon_url: v.optional(link) }),
  ),
  fields: v.optional(
    v.pipe(
      v.array(
        jsonObject({
          name: text(EMBED_FIELD_NAME_MAX),
          value: text(EMBED_FIELD_VALUE_MAX),
          inline: v.optional(v.boolean()),
        }),
      ),
      v.maxLength(EMBED_FIELDS_MAX, `Must be ${EMBED_FIELDS_MAX} or fewer in length.`),
    ),
  ),
});

/** A message's embeds: at most 10, of at most 6000 characters together. */
export const EmbedsSchema = v.pipe(
  v.array(EmbedSchema),
  v.maxLength(EMBEDS_PER_MESSAGE_MAX, `Must be ${EMBEDS_PER_MESSAGE_MAX} or fewer in length.`),
  v.check(
    (embeds) => embedCharacters(embeds) <= EMBED_TOTAL_CHARS_MAX,
    `Embed size exceeds maximum size of ${EMBED_TOTAL_CHARS_MAX}`,
  ),
);

/** An embed as the request sent it (validated). */
export type EmbedInput = v.InferOutput<typeof EmbedSchema>;

/** Characters counted against the message total: titles, descriptions, field names and values, footers, author names. */
export function embedCharacters(embeds: readonly EmbedInput[]): number {
  let total = 0;
  for (const e of embeds) {
    total +=
      [...(e.title ?? '')].length +
      [...(e.description ?? '')].length +
      [...(e.footer?.text ?? '')].length +
      [...(e.author?.name ?? '')].length;
    for (const f of e.fields ?? []) total += [...f.name].length + [...f.value].length;
  }
  return total;
}

/** The stored form of a validated embed: always `rich`, with only the fields that were set. */
export function toStoredEmbed(input: EmbedInput): Embed {
  const { type: _type, ...rest } = input;
  return { type: 'rich', ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)) };
}

/** An embed on the wire: every field has its `inline` (false unless set), as the platform answers it. */
export function serializeEmbed(embed: Embed): Embed {
  if (!embed.fields) return embed;
  return { ...embed, fields: embed.fields.map((f) => ({ ...f, inline: f.inline ?? false })) };
}
