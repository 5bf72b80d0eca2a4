/**
 * Emoji routes: an application's own emoji (`/applications/{application.id}/emojis`, its bot
 * only) and a guild's (`POST` / `GET /guilds/{guild.id}/emojis`). Images are data URIs.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { requireBot, requireScope } from '../../src/platform/oauth2/auth';
import {
  createApplicationEmoji,
  deleteApplicationEmoji,
  getApplicationEmoji,
  listApplicationEmojis,
  renameApplicationEmoji,
} from '../../src/platform/accounts/application-emoji';
import { createGuildEmoji, listGuildEmojis } from '../../src/platform/guilds/emoji';
import { EMOJI_NAME_MAX, EMOJI_NAME_MIN } from '../../src/platform/core/limits';
import { noContent, readJson, schemas, validate, type AppContext, type AppEnv } from '../http';

const name = v.pipe(
  v.string('This field is required'),
  v.regex(
    new RegExp(`^[A-Za-z0-9_]{${EMOJI_NAME_MIN},${EMOJI_NAME_MAX}}$`),
    `Must be ${EMOJI_NAME_MIN} to ${EMOJI_NAME_MAX} letters, digits or underscores.`,
  ),
);
const image = v.string('This field is required');
const ApplicationEmojiBody = v.object({ name, image });
const RenameBody = v.object({ name });
const GuildEmojiBody = v.object({ name, image, roles: v.optional(v.nullable(v.array(schemas.snowflake)), []) });
const Path = v.object({
  application_id: v.optional(schemas.snowflake),
  guild_id: v.optional(schemas.snowflake),
  emoji_id: v.optional(schemas.snowflake),
});

const ids = (c: AppContext) => validate(Path, c.req.param());

function bot(c: AppContext) {
  const principal = c.get('principal');
  requireBot(principal);
  return principal;
}

/** The emoji routes, mounted at the API root. */
export function emojiRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/applications/:application_id/emojis', async (c) =>
    c.json(await listApplicationEmojis(c.get('ctx'), bot(c), ids(c).application_id!)),
  );
  r.post('/applications/:application_id/emojis', async (c) => {
    const principal = bot(c);
    return c.json(
      await createApplicationEmoji(
        c.get('ctx'),
        principal,
        ids(c).application_id!,
        await readJson(c, ApplicationEmojiBody),
      ),
      201,
    );
  });
  r.get('/applications/:application_id/emojis/:emoji_id', async (c) => {
    const { application_id, emoji_id } = ids(c);
    return c.json(await getApplicationEmoji(c.get('ctx'), bot(c), application_id!, emoji_id!));
  });
  r.patch('/applications/:application_id/emojis/:emoji_id', async (c) => {
    const principal = bot(c);
    const { application_id, emoji_id } = ids(c);
    return c.json(
      await renameApplicationEmoji(
        c.get('ctx'),
        principal,
        application_id!,
        emoji_id!,
        (await readJson(c, RenameBody)).name,
      ),
    );
  });
  r.delete('/applications/:application_id/emojis/:emoji_id', async (c) => {
    const principal = bot(c);
    const { application_id, emoji_id } = ids(c);
    await deleteApplicationEmoji(c.get('ctx'), principal, application_id!, emoji_id!);
    return noContent();
  });
  r.post('/guilds/:guild_id/emojis', async (c) => {
    const principal = bot(c);
    const body = await readJson(c, GuildEmojiBody);
    return c.json(
      await createGuildEmoji(c.get('ctx'), principal, ids(c).guild_id!, { ...body, roles: body.roles ?? [] }),
      201,
    );
  });
  r.get('/guilds/:guild_id/emojis', async (c) => {
    const principal = c.get('principal');
    requireScope(principal, 'guilds');
    return c.json(await listGuildEmojis(c.get('ctx'), principal, ids(c).guild_id!));
  });
  return r;
}
