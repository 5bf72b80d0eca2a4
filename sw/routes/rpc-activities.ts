/**
 * `/rpc/...` routes for what the platform's client does for an activity beyond reading: the
 * user's relationships and the users it knows, quests, proxy tickets, image uploads, shares,
 * activity invites and joins, and the user's device. Like the rest of `/rpc`, the client's own
 * view with the activity's Bearer token, not part of the platform's public API; each route
 * asks for the scope the RPC command needs, so a direct caller gets no more than the command.
 * Quest answers are already in the RPC's terms (4002 "Quest not found").
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import type { FetchLike } from '../../src/platform/oauth2/oidc';
import { claimActivityJoin } from '../../src/platform/activities/activity-joins';
import { ActivityInviteSchema, inviteToActivity } from '../../src/platform/activities/activity-invites';
import { clientDeviceOf } from '../../src/platform/activities/client-devices';
import { storeImageUpload } from '../../src/platform/activities/image-uploads';
import { mintProxyTicket } from '../../src/platform/activities/proxy-tickets';
import { rpcQuest, rpcQuestEnrollmentStatus, startQuestTimer } from '../../src/platform/activities/quest-progress';
import { rpcRelationships, rpcUser } from '../../src/platform/activities/rpc-social';
import {
  SharedInteractionSchema,
  SharedMomentSchema,
  isPlatformMedia,
  shareInteraction,
  shareMoment,
  shareTargets,
  shareableCommand,
} from '../../src/platform/activities/shares';
import { ApiError } from '../../src/platform/core/errors';
import { RpcQuestPathSchema, RpcUserPathSchema, ShareTargetsQuerySchema } from '../../src/platform/activities/schemas';
import { bearerOf, publicOrigin, readJson, readQuery, validate, type AppContext, type AppEnv } from '../http';

/** Where the platform's files are served (the service worker's own origin). */
const origin = (c: AppContext) => publicOrigin(c);

/** The picked file of a multipart upload (`file`). */
async function uploadedFile(c: AppContext) {
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw ApiError.invalidForm({ file: 'Send the image as multipart/form-data in a part named file.' });
  }
  const part = form.get('file');
  if (!part || typeof part === 'string') return undefined;
  return {
    index: '0',
    filename: part.name || 'image',
    contentType: part.type,
    data: new Blob([part], { type: part.type }),
  };
}

/** The activity routes of `/rpc`; `send` reaches interactions endpoints (shared interactions). */
export function rpcActivityRoutes(send: FetchLike): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/relationships', async (c) => {
    const principal = bearerOf(c);
    return c.json(await rpcRelationships(c.get('ctx'), principal));
  });

  r.get('/users/:user_id', async (c) => {
    const { user_id } = validate(RpcUserPathSchema, c.req.param());
    return c.json(await rpcUser(c.get('ctx'), bearerOf(c), user_id));
  });

  r.get('/quest', async (c) => {
    const principal = bearerOf(c);
    return c.json(await rpcQuest(c.get('ctx'), principal.user.id, principal.application.id));
  });

  r.get('/quests/:quest_id/enrollment', async (c) => {
    const principal = bearerOf(c);
    const { quest_id } = validate(RpcQuestPathSchema, c.req.param());
    return c.json(await rpcQuestEnrollmentStatus(c.get('ctx'), principal.user.id, principal.application.id, quest_id));
  });

  r.post('/quests/:quest_id/timer', async (c) => {
    const principal = bearerOf(c);
    const { quest_id } = validate(RpcQuestPathSchema, c.req.param());
    return c.json(await startQuestTimer(c.get('ctx'), principal.user.id, principal.application.id, quest_id));
  });

  r.post('/proxy-tickets', async (c) => c.json(await mintProxyTicket(c.get('ctx'), bearerOf(c))));

  r.post('/image-uploads', async (c) => {
    const principal = bearerOf(c);
    const { record, path } = await storeImageUpload(c.get('ctx'), principal, await uploadedFile(c));
    return c.json({ id: record.id, filename: record.filename, size: record.size, url: `${origin(c)}${path}` }, 201);
  });

  r.get('/share-targets', async (c) => {
    const principal = bearerOf(c);
    const query = readQuery(c, ShareTargetsQuerySchema);
    if (
      query.purpose === 'moment' &&
      !(query.media_url && (await isPlatformMedia(c.get('ctx'), query.media_url, origin(c))))
    )
      throw ApiError.invalidForm({
        media_url: "Must be a URL of the platform's CDN (an attachment or an uploaded image).",
      });
    const targets = await shareTargets(c.get('ctx'), principal, query.channel_id, query.purpose);
    if (query.purpose === 'interaction') {
      const guildId =
        targets.channels[0]?.guild_id ?? (await c.get('ctx').db.get('channels', query.channel_id))?.guild_id;
      if (!guildId) throw ApiError.of('UNKNOWN_CHANNEL');
      await shareableCommand(c.get('ctx'), principal.application.id, guildId, query.command ?? '');
    }
    return c.json(targets);
  });

  r.post('/shared-moments', async (c) => {
    const principal = bearerOf(c);
    const body = await readJson(c, SharedMomentSchema);
    return c.json(await shareMoment(c.get('ctx'), principal, body, origin(c)), 201);
  });

  r.post('/shared-interactions', async (c) => {
    const principal = bearerOf(c);
    const body = await readJson(c, SharedInteractionSchema);
    return c.json(await shareInteraction(c.get('ctx'), principal, body, send, origin(c)), 201);
  });

  r.post('/activity-invites', async (c) => {
    const principal = bearerOf(c);
    const body = await readJson(c, ActivityInviteSchema);
    return c.json(await inviteToActivity(c.get('ctx'), principal, body), 201);
  });

  r.post('/activity-joins/claim', async (c) => {
    const principal = bearerOf(c);
    const join = await claimActivityJoin(c.get('ctx'), principal.user.id, principal.application.id);
    return c.json({ activity_join: join && { application_id: join.application_id, secret: join.secret } });
  });

  r.get('/device', async (c) => {
    const device = await clientDeviceOf(c.get('ctx'), bearerOf(c).user.id);
    return c.json({ thermal_state: device.thermal_state });
  });

  return r;
}
