/**
 * The rules that span a message's components: without IS_COMPONENTS_V2 only Action Rows, at
 * most 5; with it at most 40 components in all (nested ones count; there is no limit on the
 * top level nor inside a Container) and 4000 characters of text; `custom_id`s and `id`s unique
 * in the message, missing `id`s assigned in order; `attachment://` media naming the message's
 * own attachments, which is also what makes an attachment of a V2 message visible.
 */
import { ApiError } from '../core/errors';
import { COMPONENTS_V2_MAX, COMPONENTS_V2_TEXT_MAX, LEGACY_ACTION_ROWS_MAX } from '../core/limits';
import { COMPONENT_TYPES, type MessageComponentInput } from './components';
import type { AttachmentMeta, StoredComponent } from '../../store/records/messages';

type Node = Record<string, unknown>;

/** Every component of a tree in document order, with its dotted path. */
function* walk(list: readonly unknown[], path: string): Generator<{ node: Node; path: string }> {
  for (let i = 0; i < list.length; i++) {
    const node = list[i] as Node;
    const at = `${path}.${i}`;
    yield { node, path: at };
    if (Array.isArray(node.components)) yield* walk(node.components, `${at}.components`);
    if (node.accessory && typeof node.accessory === 'object')
      yield { node: node.accessory as Node, path: `${at}.accessory` };
  }
}

/** The `attachment://` media a component shows, with the path of each url. */
function mediaOf(node: Node, path: string): { url: string; path: string }[] {
  const out: { url: string; path: string }[] = [];
  const media = node.media as { url?: string } | undefined;
  if (media?.url) out.push({ url: media.url, path: `${path}.media.url` });
  const file = node.file as { url?: string } | undefined;
  if (file?.url) out.push({ url: file.url, path: `${path}.file.url` });
  if (Array.isArray(node.items)) {
    (node.items as { media?: { url?: string } }[]).forEach(
      (item, j) => item.media?.url && out.push({ url: item.media.url, path: `${path}.items.${j}.media.url` }),
    );
  }
  return out;
}

const ATTACHMENT_SCHEME = 'attachment://';

/** The filename an `attachment://` url names, or null for other urls. */
function attachmentName(url: string): string | null {
  return url.startsWith(ATTACHMENT_SCHEME) ? decodeURIComponent(url.slice(ATTACHMENT_SCHEME.length)) : null;
}

/**
 * Checks a message's validated components against the message-wide rules and returns them as
 * stored: each with an `id` (missing or 0 ids numbered in order, skipping ids in use), and
 * without the modal-only `required` of selects (ignored in messages). Throws 400 50035 naming
 * the field.
 * @example const stored = checkMessageComponents(body.components, { componentsV2: true, attachments });
 */
export function checkMessageComponents(
  components: readonly MessageComponentInput[] | readonly StoredComponent[],
  options: { componentsV2: boolean; attachments: readonly AttachmentMeta[] },
): StoredComponent[] {
  const copy = structuredClone(components) as unknown as Node[];
  const errors: Record<string, string | { code: string; message: string }> = {};
  const visits = [...walk(copy, 'components')];
  if (!options.componentsV2) {
    copy.forEach((c, i) => {
      if (c.type !== COMPONENT_TYPES.ACTION_ROW)
        errors[`components.${i}.type`] = {
          code: 'COMPONENT_REQUIRES_COMPONENTS_V2',
          message: 'This component needs the IS_COMPONENTS_V2 message flag.',
        };
    });
    if (copy.length > LEGACY_ACTION_ROWS_MAX)
      errors.components = `Must be ${LEGACY_ACTION_ROWS_MAX} or fewer in length.`;
  } else {
    if (visits.length > COMPONENTS_V2_MAX)
      errors.components = {
        code: 'COMPONENT_MAX_TOTAL_EXCEEDED',
        message: `Must be ${COMPONENTS_V2_MAX} or fewer components in total (nested components count).`,
      };
    const text = visits.reduce(
      (n, { node }) => n + (node.type === COMPONENT_TYPES.TEXT_DISPLAY ? [...String(node.content)].length : 0),
      0,
    );
    if (text > COMPONENTS_V2_TEXT_MAX)
      errors.components ??= `The text of all components must be ${COMPONENTS_V2_TEXT_MAX} or fewer characters.`;
  }
  const customIds = new Set<string>();
  const ids = new Set<number>();
  const names = new Set(options.attachments.map((a) => a.filename));
  for (const { node, path } of visits) {
    if (typeof node.custom_id === 'string') {
      if (customIds.has(node.custom_id))
        errors[`${path}.custom_id`] = {
          code: 'COMPONENT_CUSTOM_ID_DUPLICATED',
          message: 'Component custom id cannot be duplicated',
        };
      customIds.add(node.custom_id);
    }
    if (typeof node.id === 'number' && node.id !== 0) {
      if (ids.has(node.id))
        errors[`${path}.id`] = { code: 'COMPONENT_ID_DUPLICATED', message: 'Component id cannot be duplicated' };
      ids.add(node.id);
    }
    Object.assign(errors, selectValueErrors(node, path));
    for (const media of mediaOf(node, path)) {
      const name = attachmentName(media.url);
      if (name !== null && !names.has(name))
        errors[media.path] = {
          code: 'ATTACHMENT_NOT_FOUND',
          message: `No attachment of this message is named ${name}.`,
        };
    }
    // Only selects carry it, and in a message it means nothing.
    delete node.required;
  }
  if (Object.keys(errors).length > 0) throw ApiError.invalidForm(errors);
  let next = 1;
  for (const { node } of visits) {
    if (typeof node.id === 'number' && node.id !== 0) continue;
    while (ids.has(next)) next++;
    node.id = next;
    ids.add(next);
  }
  return copy as StoredComponent[];
}

/** Selects: `min_values` (1 unless given) not above `max_values` (1 unless given), nor above a string select's options. */
export function selectValueErrors(node: Record<string, unknown>, path: string): Record<string, string> {
  if (typeof node.custom_id !== 'string' || node.type === COMPONENT_TYPES.BUTTON) return {};
  const min = typeof node.min_values === 'number' ? node.min_values : 1;
  const max = typeof node.max_values === 'number' ? node.max_values : 1;
  if (min > max) return { [`${path}.min_values`]: 'min_values must not be above max_values.' };
  if (Array.isArray(node.options) && max > node.options.length)
    return { [`${path}.max_values`]: 'max_values must not be above the number of options.' };
  return {};
}

/** The filenames a message's components expose through Media Gallery, Thumbnail and File. */
export function exposedAttachmentNames(components: readonly StoredComponent[]): Set<string> {
  const names = new Set<string>();
  for (const { node, path } of walk(components, 'components')) {
    for (const media of mediaOf(node, path)) {
      const name = attachmentName(media.url);
      if (name !== null) names.add(name);
    }
  }
  return names;
}

/**
 * The components on the wire: `attachment://` media resolved to the attachment's URL, media
 * type and id (the unfurled media item), other urls as sent.
 */
export function resolveComponentMedia(
  components: readonly StoredComponent[],
  attachments: readonly AttachmentMeta[],
): StoredComponent[] {
  const byName = new Map(attachments.map((a) => [a.filename, a]));
  const resolve = (media: { url: string }) => {
    const name = attachmentName(media.url);
    const a = name === null ? undefined : byName.get(name);
    return a ? { ...media, url: a.url, proxy_url: a.url, content_type: a.content_type, attachment_id: a.id } : media;
  };
  const copy = structuredClone(components) as unknown as Node[];
  for (const { node } of walk(copy, 'components')) {
    if (node.media) node.media = resolve(node.media as { url: string });
    if (node.file) node.file = resolve(node.file as { url: string });
    if (Array.isArray(node.items))
      node.items = (node.items as { media: { url: string } }[]).map((item) => ({
        ...item,
        media: resolve(item.media),
      }));
  }
  return copy as StoredComponent[];
}
