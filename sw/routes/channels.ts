/**
 * `/channels` routes: one channel (read, modify, delete), its permission overwrites, and a voice
 * channel's status. Changes are for bots.
 */
import { Hono } from 'hono';
import { deleteOverwrite, putOverwrite } from '../../src/platform/channels/overwrites';
import { setVoiceChannelStatus } from '../../src/platform/voice/channel-status';
import { getChannel } from '../../src/platform/guilds/reads';
import { deleteChannel, modifyChannel } from '../../src/platform/channels/channel-edits';
import { botOf, noContent, readJson, validate, type AppContext, type AppEnv } from '../http';
import { ChannelPathSchema, ModifyChannelSchema, OverwriteSchema } from '../../src/platform/channels/schemas';
import { VoiceStatusSchema } from '../../src/platform/voice/schemas';

const ids = (c: AppContext) => validate(ChannelPathSchema, c.req.param());

/** The `/channels` routes. */
export function channelRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/:channel_id', async (c) => {
    return c.json(await getChannel(c.get('ctx'), c.get('principal'), ids(c).channel_id));
  });
  r.patch('/:channel_id', async (c) => {
    const principal = botOf(c);
    const body = await readJson(c, ModifyChannelSchema);
    return c.json(await modifyChannel(c.get('ctx'), principal, ids(c).channel_id, body));
  });
  r.delete('/:channel_id', async (c) => {
    return c.json(await deleteChannel(c.get('ctx'), botOf(c), ids(c).channel_id));
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
