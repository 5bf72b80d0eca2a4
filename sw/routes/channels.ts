/**
 * `/channels` routes: one channel, its permission overwrites, and a voice channel's status.
 * Changes are for bots.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { requireBot, requireScope } from '../../src/platform/oauth2/auth';
import { deleteOverwrite, putOverwrite } from '../../src/platform/channels/overwrites';
import { setVoiceChannelStatus } from '../../src/platform/voice/channel-status';
import { getChannel } from '../../src/platform/guilds/reads';
import { parsePermissions } from '../../src/platform/core/permissions';
import { noContent, readJson, schemas, validate, type AppContext, type AppEnv } from '../http';

const ChannelPath = v.object({ channel_id: schemas.snowflake, overwrite_id: v.optional(schemas.snowflake) });
const bitSet = v.pipe(
  v.string('Must be a decimal string.'),
  v.check((s) => parsePermissions(s) !== null, 'Must be a decimal string of a 64-bit bit set.'),
  v.transform((s) => parsePermissions(s)!),
);
const OverwriteBody = v.object({
  type: v.picklist([0, 1], 'Must be 0 (role) or 1 (member).'),
  allow: v.optional(v.nullable(bitSet), '0'),
  deny: v.optional(v.nullable(bitSet), '0'),
});
const VoiceStatusBody = v.object({ status: v.nullish(v.string('Must be a string or null.'), null) });

const ids = (c: AppContext) => validate(ChannelPath, c.req.param());

function bot(c: AppContext) {
  const principal = c.get('principal');
  requireBot(principal);
  return principal;
}

/** The `/channels` routes. */
export function channelRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/:channel_id', async (c) => {
    const principal = c.get('principal');
    requireScope(principal, 'guilds');
    return c.json(await getChannel(c.get('ctx'), principal, ids(c).channel_id));
  });
  r.put('/:channel_id/permissions/:overwrite_id', async (c) => {
    const principal = bot(c);
    const { channel_id, overwrite_id } = ids(c);
    const body = await readJson(c, OverwriteBody);
    await putOverwrite(c.get('ctx'), principal, channel_id, overwrite_id!, {
      type: body.type,
      allow: body.allow ?? 0n,
      deny: body.deny ?? 0n,
    });
    return noContent();
  });
  r.delete('/:channel_id/permissions/:overwrite_id', async (c) => {
    const principal = bot(c);
    const { channel_id, overwrite_id } = ids(c);
    await deleteOverwrite(c.get('ctx'), principal, channel_id, overwrite_id!);
    return noContent();
  });
  r.put('/:channel_id/voice-status', async (c) => {
    const principal = bot(c);
    const body = await readJson(c, VoiceStatusBody);
    await setVoiceChannelStatus(c.get('ctx'), principal, ids(c).channel_id, body.status ?? null);
    return noContent();
  });
  return r;
}
