/**
 * `/channels` routes: one channel (read, modify, delete), its permission overwrites, and a voice
 * channel's status. Changes are for bots. A thread is modified and deleted as a thread: its own
 * body (`EditThreadSchema`: name, archived, auto_archive_duration, locked, invitable,
 * rate_limit_per_user, flags; a guild channel's other fields are ignored, as the platform's
 * thread edit ignores them) and its own rules, events and audit entries (`editThread`,
 * `deleteThread`).
 */
import { Hono } from 'hono';
import { deleteOverwrite, putOverwrite } from '../../src/platform/channels/overwrites';
import { setVoiceChannelStatus } from '../../src/platform/voice/channel-status';
import { getChannel } from '../../src/platform/guilds/reads';
import { deleteChannel, modifyChannel } from '../../src/platform/channels/channel-edits';
import { deleteThread, editThread } from '../../src/platform/threads/edit';
import { isThreadChannel } from '../../src/platform/threads/access';
import { EditThreadSchema } from '../../src/platform/threads/schemas';
import { deleteGroupDm, getGroupDm, isGroupDm, modifyGroupDm } from '../../src/platform/group-dms/channels';
import { ModifyGroupDmSchema } from '../../src/platform/group-dms/schemas';
import { auditLogReason, botOf, noContent, readJson, validate, type AppContext, type AppEnv } from '../http';
import { ChannelPathSchema, ModifyChannelSchema, OverwriteSchema } from '../../src/platform/channels/schemas';
import { VoiceStatusSchema } from '../../src/platform/voice/schemas';

const ids = (c: AppContext) => validate(ChannelPathSchema, c.req.param());

/** The `/channels` routes. */
export function channelRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/:channel_id', async (c) => {
    const { channel_id } = ids(c);
    if (await isGroupDm(c.get('ctx'), channel_id))
      return c.json(await getGroupDm(c.get('ctx'), c.get('principal'), channel_id));
    return c.json(await getChannel(c.get('ctx'), c.get('principal'), channel_id));
  });
  r.patch('/:channel_id', async (c) => {
    const principal = botOf(c);
    const { channel_id } = ids(c);
    const ctx = c.get('ctx');
    if (await isThreadChannel(ctx.db, channel_id)) {
      const edit = await readJson(c, EditThreadSchema);
      return c.json(await editThread(ctx, principal, channel_id, edit, auditLogReason(c) ?? undefined));
    }
    if (await isGroupDm(ctx, channel_id))
      return c.json(await modifyGroupDm(ctx, principal, channel_id, await readJson(c, ModifyGroupDmSchema)));
    const body = await readJson(c, ModifyChannelSchema);
    return c.json(await modifyChannel(ctx, principal, channel_id, body));
  });
  r.delete('/:channel_id', async (c) => {
    const principal = botOf(c);
    const { channel_id } = ids(c);
    const ctx = c.get('ctx');
    if (await isThreadChannel(ctx.db, channel_id))
      return c.json(await deleteThread(ctx, principal, channel_id, auditLogReason(c) ?? undefined));
    if (await isGroupDm(ctx, channel_id)) return c.json(await deleteGroupDm(ctx, principal, channel_id));
    return c.json(await deleteChannel(ctx, principal, channel_id));
  });
  r.put('/:channel_id/permissions/:overwrite_id', async (c) => {
    const principal = botOf(c);
    const { channel_id, overwrite_id } = ids(c);
    const body = await readJson(c, OverwriteSchema);
    await putOverwrite(c.get('ctx'), principal, channel_id, overwrite_id!, {
      type: body.type,
      allow: body.allow ?? 0n,
      deny: body.deny ?? 0n,
    });
    return noContent();
  });
  r.delete('/:channel_id/permissions/:overwrite_id', async (c) => {
    const principal = botOf(c);
    const { channel_id, overwrite_id } = ids(c);
    await deleteOverwrite(c.get('ctx'), principal, channel_id, overwrite_id!);
    return noContent();
  });
  r.put('/:channel_id/voice-status', async (c) => {
    const principal = botOf(c);
    const body = await readJson(c, VoiceStatusSchema);
    await setVoiceChannelStatus(c.get('ctx'), principal, ids(c).channel_id, body.status ?? null);
    return noContent();
  });
  return r;
}
