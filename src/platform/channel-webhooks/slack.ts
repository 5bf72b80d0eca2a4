/**
 * The Slack-compatible execution (`POST /webhooks/{webhook.id}/{webhook.token}/slack`): a Slack
 * incoming-webhook body `{text, username, icon_url, attachments}` becomes a webhook message
 * (`text` its content, each attachment an embed), then is checked and sent as any execution.
 */
import * as v from 'valibot';
import { jsonObject, refuseArrays } from '../core/json-object';
import { MESSAGE_CONTENT_MAX } from '../core/limits';

const optionalText = v.nullish(v.string('Must be a string.'));

/** A Slack attachment, as far as it maps to an embed. */
const SlackAttachmentSchema = refuseArrays(
  v.looseObject({
    title: optionalText,
    title_link: optionalText,
    text: optionalText,
    pretext: optionalText,
    color: v.nullish(v.pipe(v.string(), v.regex(/^#?[0-9a-fA-F]{6}$/, 'Must be a hex colour.'))),
    author_name: optionalText,
    author_link: optionalText,
    author_icon: optionalText,
    image_url: optionalText,
    thumb_url: optionalText,
    footer: optionalText,
    footer_icon: optionalText,
    ts: v.nullish(v.number()),
    fields: v.nullish(
      v.array(refuseArrays(v.looseObject({ title: optionalText, value: optionalText, short: v.nullish(v.boolean()) }))),
    ),
  }),
);

/** `POST /webhooks/{webhook.id}/{webhook.token}/slack`. */
export const SlackWebhookSchema = jsonObject({
  text: v.nullish(v.pipe(v.string('Must be a string.'), v.maxLength(MESSAGE_CONTENT_MAX))),
  username: optionalText,
  icon_url: optionalText,
  attachments: v.nullish(v.pipe(v.array(SlackAttachmentSchema, 'Must be an array.'), v.maxLength(10))),
});

type SlackAttachment = v.InferOutput<typeof SlackAttachmentSchema>;

/** Drops absent fields, so the embed schema sees only what the attachment set. */
function defined<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(object).filter(([, value]) => value !== undefined && value !== null),
  ) as Partial<T>;
}

function embedOf(a: SlackAttachment): Record<string, unknown> {
  return defined({
    title: a.title ?? undefined,
    url: a.title ? (a.title_link ?? undefined) : undefined,
    description: [a.pretext, a.text].filter(Boolean).join('\n') || undefined,
    color: a.color ? Number.parseInt(a.color.replace('#', ''), 16) : undefined,
    author: a.author_name ? defined({ name: a.author_name, url: a.author_link, icon_url: a.author_icon }) : undefined,
    image: a.image_url ? { url: a.image_url } : undefined,
    thumbnail: a.thumb_url ? { url: a.thumb_url } : undefined,
    footer: a.footer ? defined({ text: a.footer, icon_url: a.footer_icon }) : undefined,
    timestamp: a.ts ? new Date(a.ts * 1000).toISOString() : undefined,
    fields: a.fields?.length
      ? a.fields.map((f) => ({ name: f.title || '\u200b', value: f.value || '\u200b', inline: f.short ?? false }))
      : undefined,
  });
}

/**
 * The execution body a Slack body stands for; the route checks it with `ExecuteWebhookSchema`
 * as any execution's (400 / 50035 naming the field of the mapped message otherwise).
 * @example validate(ExecuteWebhookSchema, slackExecution({ text: 'deployed' }))
 */
export function slackExecution(body: v.InferOutput<typeof SlackWebhookSchema>): Record<string, unknown> {
  return defined({
    content: body.text ?? undefined,
    username: body.username ?? undefined,
    avatar_url: body.icon_url ?? undefined,
    embeds: body.attachments?.map(embedOf),
  });
}
