/**
 * Serving stored attachment files at `/attachments/{channel_id}/{attachment_id}/{filename}`:
 * like the platform's CDN, the URL itself is the capability (no Authorization header). The
 * file answers only when all three parts match, and is gone with its message.
 */
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { AttachmentFileRecord } from '../../store/records/messages';

/**
 * The stored file, or 404 (0) when the path does not name one.
 * @example const file = await readAttachmentFile(ctx, channelId, attachmentId, 'cat.png');
 */
export async function readAttachmentFile(
  ctx: PlatformContext,
  channelId: string,
  attachmentId: string,
  filename: string,
): Promise<AttachmentFileRecord> {
  const file = await ctx.db.get('attachment_files', attachmentId);
  if (!file || file.channel_id !== channelId || file.filename !== filename) throw ApiError.of('UNKNOWN_ROUTE');
  return file;
}

/**
 * The headers a file is served with. Files are the users', served on the platform's own
 * origin: they may never run script there, so every file is sandboxed and its type is not sniffed.
 */
export function attachmentHeaders(
  file: Pick<AttachmentFileRecord, 'content_type' | 'size' | 'filename'>,
): Record<string, string> {
  return {
    'Content-Type': file.content_type,
    'Content-Length': String(file.size),
    'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    'Content-Security-Policy':
      "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, max-age=31536000, immutable',
  };
}
