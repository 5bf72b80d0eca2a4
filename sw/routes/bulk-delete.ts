/**
 * Bulk Delete Messages: `POST /channels/{channel.id}/messages/bulk-delete {messages}`, with the
 * optional `X-Audit-Log-Reason` header (URL-encoded) for the audit log entry. The rules are in
 * `src/platform/messages/bulk-delete.ts`.
 */
import { Hono } from 'hono';
import { bulkDeleteMessages } from '../../src/platform/messages/bulk-delete';
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

/** The `/channels/{id}/messages/bulk-delete` route. */
export function bulkDeleteRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/:channel_id/messages/bulk-delete', async (c) => {
    const { channel_id } = validate(MessagePathSchema, c.req.param());
    const { messages } = await readJson(c, BulkDeleteSchema);
    await bulkDeleteMessages(c.get('ctx'), c.get('principal'), channel_id, messages, auditLogReason(c));
    return noContent();
  });
  return r;
}
