/**
 * Message attachments: the per-attachment upload limit, which attachment requests keep, add or
 * change which files, spoilers, and the attachment object on the wire. Files are stored as
 * Blobs in IndexedDB and served by the service worker at a same-origin URL.
 */
import { inForce, RULE_DATES } from '../core/dates';
import { ApiError } from '../core/errors';
import {
  ATTACHMENTS_PER_MESSAGE_MAX,
  UPLOAD_LIMIT_BOOST_TIER_2_BYTES,
  UPLOAD_LIMIT_BOOST_TIER_3_BYTES,
  UPLOAD_LIMIT_DEFAULT_BYTES,
  UPLOAD_LIMIT_LEGACY_BYTES,
  UPLOAD_LIMIT_NITRO_BASIC_BYTES,
  UPLOAD_LIMIT_NITRO_BYTES,
} from '../core/limits';
import { ATTACHMENT_FLAGS } from '../../store/records/core';
import type { AttachmentMeta, WireAttachment } from '../../store/records/messages';

/** Where an upload comes from: a webhook, an interaction response or follow-up, or a message. */
export type UploadContext = 'webhook' | 'interaction' | 'message';

/** The legacy filename prefix that still marks a spoiler. */
export const SPOILER_PREFIX = 'SPOILER_';

/** Where the service worker serves attachment files (CONTRACT §1: same origin). */
export const ATTACHMENTS_PATH = '/attachments';

/**
 * The largest file one attachment may be, in bytes: checked per attachment, not per message.
 * The default is 10 MiB; for webhooks and interaction responses it was 25 MiB before
 * 2025-01-16 (by the platform clock). The user's premium tier (messages and interactions: the
 * sender or invoking user) and the guild's boost level raise it.
 * @example uploadLimitFor({ context: 'interaction', now: ctx.clock.now(), premiumType: 0, boostTier: 0 }) // 10 MiB
 */
export function uploadLimitFor(options: {
  context: UploadContext;
  now: number;
  premiumType?: number;
  boostTier?: number;
}): number {
  const legacy = options.context !== 'message' && !inForce(RULE_DATES.UPLOAD_LIMIT_10_MIB, options.now);
  const base = legacy ? UPLOAD_LIMIT_LEGACY_BYTES : UPLOAD_LIMIT_DEFAULT_BYTES;
  const premium = options.context === 'webhook' ? 0 : premiumUploadLimit(options.premiumType ?? 0);
  return Math.max(base, premium, boostUploadLimit(options.boostTier ?? 0));
}

/** Nitro (2) 500 MiB; Nitro Classic (1) and Basic (3) 50 MiB; none 0. */
function premiumUploadLimit(premiumType: number): number {
  if (premiumType === 2) return UPLOAD_LIMIT_NITRO_BYTES;
  return premiumType === 1 || premiumType === 3 ? UPLOAD_LIMIT_NITRO_BASIC_BYTES : 0;
}

/** Boost level 2 and 3 raise the guild's limit; lower levels do not. */
function boostUploadLimit(tier: number): number {
  if (tier >= 3) return UPLOAD_LIMIT_BOOST_TIER_3_BYTES;
  return tier === 2 ? UPLOAD_LIMIT_BOOST_TIER_2_BYTES : 0;
}

/** A file part of a multipart request (`files[n]`). */
export interface UploadedFile {
  /** The `n` of `files[n]` (what a new attachment request's `id` names). */
  index: string;
  filename: string;
  contentType: string;
  data: Blob;
}

/** An attachment request (create or edit): metadata of a new file (`id` = n) or of a kept attachment (`id` = its snowflake). */
export interface AttachmentRequest {
  id: string | number;
  filename?: string;
  title?: string;
  description?: string;
  is_spoiler?: boolean;
  duration_secs?: number;
  waveform?: string;
}

/** A new attachment to store: its metadata and its file. */
export interface NewAttachment {
  meta: AttachmentMeta;
  data: Blob;
}

/** A filename without path separators or control characters (what the platform keeps). */
export function cleanFilename(name: string): string {
  const cleaned = name
    .split(/[\\/]/)
    .pop()!
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return cleaned === '' ? 'unknown' : cleaned;
}

/** The same-origin path a stored attachment is served at. */
export function attachmentPath(channelId: string, attachmentId: string, filename: string): string {
  return `${ATTACHMENTS_PATH}/${channelId}/${attachmentId}/${encodeURIComponent(filename)}`;
}

/** True when the attachment is a spoiler: marked by `is_spoiler`, or by the legacy filename prefix. */
export function isSpoilerAttachment(meta: Pick<AttachmentMeta, 'is_spoiler' | 'filename'>): boolean {
  return meta.is_spoiler || meta.filename.startsWith(SPOILER_PREFIX);
}

/** The attachment object; `flags` carries IS_SPOILER. */
export function serializeAttachment(meta: AttachmentMeta): WireAttachment {
  const { is_spoiler: _spoiler, ...wire } = meta;
  return { ...wire, proxy_url: meta.url, flags: isSpoilerAttachment(meta) ? ATTACHMENT_FLAGS.IS_SPOILER : 0 };
}

/** Finds the request whose `id` names `key` (a file's n, or an attachment's snowflake). */
function requestFor(requests: readonly AttachmentRequest[], key: string): AttachmentRequest | undefined {
  return requests.find((r) => String(r.id) === key);
}

/**
 * The attachments a message has after a create or an edit. `existing` are the message's
 * attachments (none on create); `requests` is the request's `attachments` (undefined when
 * absent: on an edit every existing attachment is kept, and new files are appended); `files`
 * are the uploaded files. Kept attachments take the request's `description` and `is_spoiler`.
 * Each file over `limit` bytes is 413 (40005); a request naming nothing is 400 50035.
 */
export function planAttachments(input: {
  existing: readonly AttachmentMeta[];
  requests: readonly AttachmentRequest[] | undefined;
  files: readonly UploadedFile[];
  limit: number;
  newId: () => string;
  url: (id: string, filename: string) => string;
}): { kept: AttachmentMeta[]; added: NewAttachment[]; removed: AttachmentMeta[] } {
  const requests = input.requests ?? [];
  for (const file of input.files) if (file.data.size > input.limit) throw ApiError.of('REQUEST_TOO_LARGE');
  requests.forEach((r, i) => {
    const known =
      input.files.some((f) => f.index === String(r.id)) || input.existing.some((a) => a.id === String(r.id));
    if (!known)
      throw ApiError.invalidForm({
        [`attachments.${i}.id`]: {
          code: 'ATTACHMENT_NOT_FOUND',
          message: 'Unknown attachment: no file or attachment has this id.',
        },
      });
  });
  const keepIds = input.requests === undefined ? null : new Set(requests.map((r) => String(r.id)));
  const kept = input.existing
    .filter((a) => keepIds === null || keepIds.has(a.id))
    .map((a) => {
      const r = requestFor(requests, a.id);
      return r
        ? {
            ...a,
            ...(r.description !== undefined ? { description: r.description } : {}),
            ...(r.is_spoiler !== undefined ? { is_spoiler: r.is_spoiler } : {}),
          }
        : a;
    });
  const removed = input.existing.filter((a) => !kept.some((k) => k.id === a.id));
  const added = input.files.map((file): NewAttachment => {
    const r = requestFor(requests, file.index);
    const id = input.newId();
    const filename = cleanFilename(r?.filename ?? file.filename);
    const meta: AttachmentMeta = {
      id,
      filename,
      content_type: file.contentType || contentTypeOf(filename),
      size: file.data.size,
      url: input.url(id, filename),
      is_spoiler: r?.is_spoiler ?? false,
      ...(r?.title !== undefined ? { title: r.title } : {}),
      ...(r?.description !== undefined ? { description: r.description } : {}),
      ...(r?.duration_secs !== undefined ? { duration_secs: r.duration_secs } : {}),
      ...(r?.waveform !== undefined ? { waveform: r.waveform } : {}),
    };
    return { meta, data: file.data };
  });
  if (kept.length + added.length > ATTACHMENTS_PER_MESSAGE_MAX) {
    throw ApiError.invalidForm({ attachments: `Must be ${ATTACHMENTS_PER_MESSAGE_MAX} or fewer in length.` });
  }
  return { kept, added, removed };
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  webm: 'video/webm',
  pdf: 'application/pdf',
};

/** The media type of a file sent without one, from its extension. */
export function contentTypeOf(filename: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  return (ext && CONTENT_TYPES[ext]) || 'application/octet-stream';
}
