/**
 * Threads, as the platform's public API has them: start one from a message or alone, its
 * members (join, leave, add, remove, one, the list), a channel's archived threads, the current
 * user's joined private archived threads, the search of a channel's threads, and a guild's
 * active threads. Messages in threads go through the message routes; editing and deleting a
 * thread is `PATCH` / `DELETE /channels/{id}` (`editThread`, `deleteThread`).
 */
import { Hono } from 'hono';
import { startThread, startThreadFromMessage } from '../../src/platform/threads/create';
import {
  addThreadMember,
  getThreadMember,
  joinThread,
  leaveThread,
  listThreadMembers,
  removeThreadMember,
} from '../../src/platform/threads/members';
import {
  listActiveGuildThreads,
  listArchivedThreads,
  listJoinedPrivateArchivedThreads,
  searchThreads,
} from '../../src/platform/threads/lists';
import {
  ArchivedThreadsQuerySchema,
  JoinedArchivedThreadsQuerySchema,
  StartThreadFromMessageSchema,
  StartThreadSchema,
  ThreadMemberQuerySchema,
  ThreadMembersQuerySchema,
  ThreadPathSchema,
  ThreadSearchQuerySchema,
} from '../../src/platform/threads/schemas';
import { noContent, readJson, readQuery, snowflakeParam, validate, type AppContext, type AppEnv } from '../http';

const ids = (c: AppContext) => validate(ThreadPathSchema, c.req.param());

/** The audit log reason a request gives (`X-Audit-Log-Reason`, URL-encoded as the platform takes it). */
function auditReason(c: AppContext): string | undefined {
  const raw = c.req.header('X-Audit-Log-Reason');
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The `/channels/{id}/...` thread routes. */
export function threadRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/:channel_id/messages/:message_id/threads', async (c) => {
    const { channel_id, message_id } = ids(c);
    const body = await readJson(c, StartThreadFromMessageSchema);
    return c.json(
      await startThreadFromMessage(c.get('ctx'), c.get('principal'), channel_id, message_id!, body, auditReason(c)),
      201,
    );
  });
  r.post('/:channel_id/threads', async (c) => {
    const { channel_id } = ids(c);
    const body = await readJson(c, StartThreadSchema);
    return c.json(await startThread(c.get('ctx'), c.get('principal'), channel_id, body, auditReason(c)), 201);
  });
  r.get('/:channel_id/threads/archived/public', async (c) => {
    const query = readQuery(c, ArchivedThreadsQuerySchema);
    return c.json(await listArchivedThreads(c.get('ctx'), c.get('principal'), ids(c).channel_id, false, query));
  });
  r.get('/:channel_id/threads/archived/private', async (c) => {
    const query = readQuery(c, ArchivedThreadsQuerySchema);
    return c.json(await listArchivedThreads(c.get('ctx'), c.get('principal'), ids(c).channel_id, true, query));
  });
  r.get('/:channel_id/users/@me/threads/archived/private', async (c) => {
    const query = readQuery(c, JoinedArchivedThreadsQuerySchema);
    return c.json(await listJoinedPrivateArchivedThreads(c.get('ctx'), c.get('principal'), ids(c).channel_id, query));
  });
  r.get('/:channel_id/threads/search', async (c) => {
    const query = readQuery(c, ThreadSearchQuerySchema);
    return c.json(await searchThreads(c.get('ctx'), c.get('principal'), ids(c).channel_id, query));
  });
  r.get('/:channel_id/thread-members', async (c) => {
    const query = readQuery(c, ThreadMembersQuerySchema);
    return c.json(await listThreadMembers(c.get('ctx'), c.get('principal'), ids(c).channel_id, query));
  });
  r.put('/:channel_id/thread-members/@me', async (c) => {
    await joinThread(c.get('ctx'), c.get('principal'), ids(c).channel_id);
    return noContent();
  });
  r.delete('/:channel_id/thread-members/@me', async (c) => {
    await leaveThread(c.get('ctx'), c.get('principal'), ids(c).channel_id);
    return noContent();
  });
  r.get('/:channel_id/thread-members/:user_id', async (c) => {
    const { channel_id } = ids(c);
    const userId = snowflakeParam(c, 'user_id');
    const { with_member } = readQuery(c, ThreadMemberQuerySchema);
    return c.json(await getThreadMember(c.get('ctx'), c.get('principal'), channel_id, userId, with_member));
  });
  r.put('/:channel_id/thread-members/:user_id', async (c) => {
    const { channel_id } = ids(c);
    await addThreadMember(c.get('ctx'), c.get('principal'), channel_id, snowflakeParam(c, 'user_id'));
    return noContent();
  });
  r.delete('/:channel_id/thread-members/:user_id', async (c) => {
    const { channel_id } = ids(c);
    await removeThreadMember(c.get('ctx'), c.get('principal'), channel_id, snowflakeParam(c, 'user_id'));
    return noContent();
  });
  return r;
}

/** `GET /guilds/{id}/threads/active`. */
export function guildThreadRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/:guild_id/threads/active', async (c) => {
    return c.json(await listActiveGuildThreads(c.get('ctx'), c.get('principal'), snowflakeParam(c, 'guild_id')));
  });
  return r;
}
