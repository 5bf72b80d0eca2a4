/**
 * `GET /attachments/{channel_id}/{attachment_id}/{filename}`: the files of message attachments,
 * and `GET /attachments/ephemeral/{application_id}/{attachment_id}/{filename}`: images users
 * uploaded for activities (INITIATE_IMAGE_UPLOAD). Served by the service worker on the
 * platform's own origin (the platform's CDN, offline). No Authorization header: the URL is what
 * a message or the RPC hands out.
 */
import { Hono } from 'hono';
import { attachmentHeaders, readAttachmentFile } from '../../src/platform/messages/attachment-files';
import { readImageUpload } from '../../src/platform/activities/image-uploads';
import { validate, type AppEnv } from '../http';
import { AttachmentPathSchema, EphemeralAttachmentPathSchema } from '../../src/platform/messages/schemas';

/** The attachment file routes (mounted at `/attachments`). */
export function attachmentRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/ephemeral/:application_id/:attachment_id/:filename', async (c) => {
    const { application_id, attachment_id, filename } = validate(EphemeralAttachmentPathSchema, c.req.param());
    const file = await readImageUpload(c.get('ctx'), application_id, attachment_id, filename);
    return new Response(file.data, { status: 200, headers: attachmentHeaders(file) });
  });
  r.get('/:channel_id/:attachment_id/:filename', async (c) => {
    const { channel_id, attachment_id, filename } = validate(AttachmentPathSchema, c.req.param());
    const file = await readAttachmentFile(c.get('ctx'), channel_id, attachment_id, filename);
    return new Response(file.data, { status: 200, headers: attachmentHeaders(file) });
  });
  return r;
}
