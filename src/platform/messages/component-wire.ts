/**
 * Message components as the platform answers them: what a request may leave out comes back
 * with its default, as the platform's own answers carry it (a select's `min_values` and
 * `max_values` of 1, a media item's `description` null and `spoiler` false, a container's
 * `accent_color` null, a separator's visible divider with small spacing), and a File component names its file and size, read from the attachment
 * it shows. Media of an attachment carry the attachment's id as the unfurled media item's id.
 */
import type { AttachmentMeta, StoredComponent } from '../../store/records/messages';
import { resolveComponentMedia } from '../interactions/component-rules';

type Node = Record<string, unknown>;

/** The select menu types (string, user, role, mentionable, channel). */
const SELECT_TYPES = new Set([3, 5, 6, 7, 8]);
/** Thumbnail, File, Separator, Container. */
const THUMBNAIL = 11;
const FILE = 13;
const SEPARATOR = 14;
const CONTAINER = 17;

/** A media item with its attachment's id, when it shows an attachment. */
function withMediaId(media: Node | undefined): Node | undefined {
  if (!media || media.id !== undefined || typeof media.attachment_id !== 'string') return media;
  return { ...media, id: media.attachment_id };
}

/** One component (and what it holds) with the defaults the platform answers. */
function withDefaults(node: Node, byId: ReadonlyMap<string, AttachmentMeta>): Node {
  const out: Node = { ...node };
  const type = node.type as number;
  if (SELECT_TYPES.has(type)) {
    out.min_values ??= 1;
    out.max_values ??= 1;
  }
  if (type === THUMBNAIL) {
    out.media = withMediaId(node.media as Node);
    out.description ??= null;
    out.spoiler ??= false;
  }
  if (type === FILE) {
    const file = withMediaId(node.file as Node);
    const attachment = typeof file?.attachment_id === 'string' ? byId.get(file.attachment_id) : undefined;
    out.file = file;
    out.name ??= attachment?.filename ?? null;
    out.size ??= attachment?.size ?? null;
    out.spoiler ??= false;
  }
  if (type === SEPARATOR) {
    // The platform's defaults: a visible divider with small spacing (1).
    out.divider ??= true;
    out.spacing ??= 1;
  }
  if (type === CONTAINER) {
    out.accent_color ??= null;
    out.spoiler ??= false;
  }
  if (Array.isArray(node.items))
    out.items = (node.items as Node[]).map((item) => ({
      ...item,
      media: withMediaId(item.media as Node),
      description: item.description ?? null,
      spoiler: item.spoiler ?? false,
    }));
  if (Array.isArray(node.components)) out.components = (node.components as Node[]).map((c) => withDefaults(c, byId));
  if (node.accessory && typeof node.accessory === 'object') out.accessory = withDefaults(node.accessory as Node, byId);
  return out;
}

/**
 * The components of a message as answered: `attachment://` media resolved to the attachment
 * (`resolveComponentMedia`), and every default filled in.
 * @example wireComponents(record.components, record.attachments)
 */
export function wireComponents(
  components: readonly StoredComponent[],
  attachments: readonly AttachmentMeta[],
): StoredComponent[] {
  const byId = new Map(attachments.map((a) => [a.id, a]));
  return resolveComponentMedia(components, attachments).map(
    (c) => withDefaults(c as unknown as Node, byId) as unknown as StoredComponent,
  );
}
