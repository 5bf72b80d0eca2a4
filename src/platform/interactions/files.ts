/**
 * Files a simulated user submits with an interaction: the value of an ATTACHMENT command option
 * or the files of a modal's File Upload. Each is checked against the upload limit that applies
 * (413 40005 above it) and the component's or option's `file_types` (400 50035), stored with the
 * interaction like message attachments, and answered as `resolved.attachments`.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import { attachmentPath, cleanFilename, contentTypeOf, serializeAttachment } from '../messages/attachments';
import { ApiError } from '../core/errors';
import type { AttachmentFileRecord, AttachmentMeta, WireAttachment } from '../../store/records/messages';

/** A file as the sandbox takes it: a name, an optional media type, the bytes in base64. */
export const SubmittedFileSchema = jsonObject({
  filename: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)),
  content_type: v.optional(v.pipe(v.string(), v.maxLength(255))),
  data: v.pipe(v.string(), v.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Must be base64.')),
});
export type SubmittedFile = v.InferOutput<typeof SubmittedFileSchema>;

/** A submitted file ready to store. */
export interface PreparedFile {
  meta: AttachmentMeta;
  record: AttachmentFileRecord;
}

/** True when `type` (an extension `.png` or a media type `image/png`, `image/*`) admits the file. */
function admits(type: string, filename: string, contentType: string): boolean {
  if (type.startsWith('.')) return filename.toLowerCase().endsWith(type.toLowerCase());
  const media = contentType.split(';')[0].trim().toLowerCase();
  return type.endsWith('/*') ? media.startsWith(type.slice(0, -1).toLowerCase()) : media === type.toLowerCase();
}

/**
 * Checks and prepares submitted files. `path` names the field in errors; `limit` is the
 * per-file upload limit in bytes; `fileTypes`, when given, are the only types allowed.
 * @example const files = prepareSubmittedFiles(input, { path: 'data.values.upload', limit, fileTypes, channelId, ownerId, newId });
 */
export function prepareSubmittedFiles(
  files: readonly SubmittedFile[],
  options: {
    path: string;
    limit: number;
    fileTypes?: readonly string[];
    channelId: string;
    ownerId: string;
    newId: () => string;
    single?: boolean;
  },
): PreparedFile[] {
  return files.map((file, i) => {
    // One file (an ATTACHMENT option's value) is named by its field; a list by its index.
    const at = options.single ? options.path : `${options.path}.${i}`;
    const filename = cleanFilename(file.filename);
    const contentType = file.content_type || contentTypeOf(filename);
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = Uint8Array.from(atob(file.data), (ch) => ch.charCodeAt(0));
    } catch {
      throw ApiError.invalidForm({ [`${at}.data`]: 'Must be base64.' });
    }
    if (bytes.byteLength > options.limit) throw ApiError.of('REQUEST_TOO_LARGE');
    if (options.fileTypes && !options.fileTypes.some((t) => admits(t, filename, contentType))) {
      throw ApiError.invalidForm({
        [at]: {
          code: 'FILE_TYPE_NOT_ALLOWED',
          message: `Only these file types are allowed: ${options.fileTypes.join(', ')}.`,
        },
      });
    }
    const id = options.newId();
    const meta: AttachmentMeta = {
      id,
      filename,
      content_type: contentType,
      size: bytes.byteLength,
      url: attachmentPath(options.channelId, id, filename),
      is_spoiler: false,
    };
    const record: AttachmentFileRecord = {
      id,
      channel_id: options.channelId,
      message_id: options.ownerId,
      filename,
      content_type: contentType,
      size: bytes.byteLength,
      data: new Blob([bytes], { type: contentType }),
    };
    return { meta, record };
  });
}

/** `resolved.attachments` of prepared files, keyed by id. */
export function resolvedAttachments(files: readonly PreparedFile[]): Record<string, WireAttachment> {
  return Object.fromEntries(files.map((f) => [f.meta.id, serializeAttachment(f.meta)]));
}
