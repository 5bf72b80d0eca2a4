/**
 * Bulk Delete Messages: `POST /channels/{channel.id}/messages/bulk-delete {messages}`, with the
 * optional `X-Audit-Log-Reason` header (URL-encoded) for the audit log entry; and Crosspost
 * Message. The rules are in `src/platform/messages/bulk-delete.ts` and `crosspost.ts`.
 */
import { Hono } from 'hono';
import { bulkDeleteMessages } from '../../src/platform/messages/bulk-delete';
import { crosspostMessage } from '../../src/platform/messages/crosspost';
import { BulkDeleteSchema, MessagePathSchema } from '../../src/platform/messages/schemas';
import { noContent, readJson, validate, type AppContext, type AppEnv } from '../http';

/** The audit log reason a request gives, decoded (as sent when it is not valid URL encoding). */
export function auditLogReason(c: AppContext): string | undefined {
  const raw = c.req.header('X-Audit-Log-Reason');
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The `/channels/{id}/messages/bulk-delete` and `/channels/{id}/messages/{id}/crosspost` routes. */
export function bulkDeleteRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/:channel_id/messages/bulk-delete', async (c) => {
    const { channel_id } = validate(MessagePathSchema, c.req.param());
    const { messages } = await readJson(c, BulkDeleteSchema);
    await bulkDeleteMessages(c.get('ctx'), c.get('principal'), channel_id, messages, auditLogReason(c));
    return noContent();
  });
  r.post('/:channel_id/messages/:message_id/crosspost', async (c) => {
    const { channel_id, message_id } = validate(MessagePathSchema, c.req.param());
    return c.json(await crosspostMessage(c.get('ctx'), c.get('principal'), channel_id, message_id!));
  });
  return r;
}
