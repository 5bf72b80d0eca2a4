/**
 * Images a user uploads for an activity (INITIATE_IMAGE_UPLOAD): the platform's client uploads
 * the picked file and hands the activity an ephemeral attachment URL on its CDN. Here the CDN is
 * the service worker: the file is kept in IndexedDB and served at
 * `/attachments/ephemeral/{application_id}/{attachment_id}/{filename}`, offline like every
 * attachment. The sandbox keeps them until a reset (the platform lets them lapse).
 */
import { write } from '../../store/write';
import type { BearerPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { IMAGE_UPLOAD_TYPES } from '../core/limits';
import { ATTACHMENTS_PATH, cleanFilename, uploadLimitFor, type UploadedFile } from '../messages/attachments';
import type { EphemeralAttachmentRecord } from '../../store/records/activities';

/** Where uploaded images are served, under the attachments path. */
export const EPHEMERAL_ATTACHMENTS_PATH = `${ATTACHMENTS_PATH}/ephemeral`;

/** The same-origin path an uploaded image is served at. */
export function ephemeralAttachmentPath(applicationId: string, attachmentId: string, filename: string): string {
  return `${EPHEMERAL_ATTACHMENTS_PATH}/${applicationId}/${attachmentId}/${encodeURIComponent(filename)}`;
}

/**
 * Stores the image the token's user picked for the token's application. Only JPEG, PNG and GIF
 * images are taken (else 400 / 50035 naming `file`); one over the user's upload limit is 413 /
 * 40005. Resolves to the stored record and its path.
 * @example const { path } = await storeImageUpload(ctx, principal, file);
 */
export async function storeImageUpload(
  ctx: PlatformContext,
  principal: BearerPrincipal,
  file: UploadedFile | undefined,
): Promise<{ record: EphemeralAttachmentRecord; path: string }> {
  if (!file) throw ApiError.invalidForm({ file: 'Required: the image to upload.' });
  if (!(IMAGE_UPLOAD_TYPES as readonly string[]).includes(file.contentType.toLowerCase()))
    throw ApiError.invalidForm({ file: 'Must be a JPEG, PNG or GIF image.' });
  const limit = uploadLimitFor({
    context: 'message',
    now: ctx.clock.now(),
    premiumType: principal.user.premium_type,
  });
  if (file.data.size > limit) throw ApiError.of('REQUEST_TOO_LARGE');
  const record: EphemeralAttachmentRecord = {
    id: ctx.ids.next(),
    application_id: principal.application.id,
    user_id: principal.user.id,
    filename: cleanFilename(file.filename),
    content_type: file.contentType.toLowerCase(),
    size: file.data.size,
    data: file.data,
    created_at: ctx.clock.now(),
  };
  await write(ctx, ['ephemeral_attachments'], async (tx) => {
    await tx.store('ephemeral_attachments').add(record);
  });
  return { record, path: ephemeralAttachmentPath(record.application_id, record.id, record.filename) };
}

/**
 * The uploaded image at that path, or 404 (0) when the path does not name one.
 * @example const file = await readImageUpload(ctx, applicationId, attachmentId, 'cat.png');
 */
export async function readImageUpload(
  ctx: PlatformContext,
  applicationId: string,
  attachmentId: string,
  filename: string,
): Promise<EphemeralAttachmentRecord> {
  const file = await ctx.db.get('ephemeral_attachments', attachmentId);
  if (!file || file.application_id !== applicationId || file.filename !== filename) throw ApiError.of('UNKNOWN_ROUTE');
  return file;
}
