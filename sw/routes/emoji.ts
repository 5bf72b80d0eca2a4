/**
 * Emoji routes: an application's own emoji (`/applications/{application.id}/emojis`) and a
 * guild's (`POST` / `GET /guilds/{guild.id}/emojis`), all for bots. Images are data URIs.
 */
import { Hono } from 'hono';
import {
  createApplicationEmoji,
  deleteApplicationEmoji,
  getApplicationEmoji,
  listApplicationEmojis,
  renameApplicationEmoji,
} from '../../src/platform/accounts/application-emoji';
import {
  createGuildEmoji,
  deleteGuildEmoji,
  getGuildEmoji,
  listGuildEmojis,
  modifyGuildEmoji,
} from '../../src/platform/guilds/emoji';
import { botOf, noContent, readJson, validate, type AppContext, type AppEnv } from '../http';
import { CreateApplicationEmojiSchema, EmojiPathSchema, RenameEmojiSchema } from '../../src/platform/accounts/schemas';
import { CreateGuildEmojiSchema, ModifyGuildEmojiSchema } from '../../src/platform/guilds/schemas';

const ids = (c: AppContext) => validate(EmojiPathSchema, c.req.param());

/** The emoji routes, mounted at the API root. */
export function emojiRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/applications/:application_id/emojis', async (c) =>
    c.json(await listApplicationEmojis(c.get('ctx'), botOf(c), ids(c).application_id!)),
  );
  r.post('/applications/:application_id/emojis', async (c) => {
    const principal = botOf(c);
    return c.json(
      await createApplicationEmoji(
        c.get('ctx'),
        principal,
        ids(c).application_id!,
        await readJson(c, CreateApplicationEmojiSchema),
      ),
      201,
    );
  });
  r.get('/applications/:application_id/emojis/:emoji_id', async (c) => {
    const { application_id, emoji_id } = ids(c);
    return c.json(await getApplicationEmoji(c.get('ctx'), botOf(c), application_id!, emoji_id!));
  });
  r.patch('/applications/:application_id/emojis/:emoji_id', async (c) => {
    const principal = botOf(c);
    const { application_id, emoji_id } = ids(c);
    return c.json(
      await renameApplicationEmoji(
        c.get('ctx'),
        principal,
        application_id!,
        emoji_id!,
        (await readJson(c, RenameEmojiSchema)).name,
      ),
    );
  });
  r.delete('/applications/:application_id/emojis/:emoji_id', async (c) => {
    const principal = botOf(c);
    const { application_id, emoji_id } = ids(c);
    await deleteApplicationEmoji(c.get('ctx'), principal, application_id!, emoji_id!);
    return noContent();
  });
  r.post('/guilds/:guild_id/emojis', async (c) => {
    const principal = botOf(c);
    const body = await readJson(c, CreateGuildEmojiSchema);
    return c.json(
      await createGuildEmoji(c.get('ctx'), principal, ids(c).guild_id!, { ...body, roles: body.roles ?? [] }),
      201,
    );
  });
  r.get('/guilds/:guild_id/emojis', async (c) => {
    return c.json(await listGuildEmojis(c.get('ctx'), botOf(c), ids(c).guild_id!));
  });
  r.get('/guilds/:guild_id/emojis/:emoji_id', async (c) => {
    const { guild_id, emoji_id } = ids(c);
    return c.json(await getGuildEmoji(c.get('ctx'), botOf(c), guild_id!, emoji_id!));
  });
  r.patch('/guilds/:guild_id/emojis/:emoji_id', async (c) => {
    const principal = botOf(c);
    const { guild_id, emoji_id } = ids(c);
    const body = await readJson(c, ModifyGuildEmojiSchema);
    return c.json(await modifyGuildEmoji(c.get('ctx'), principal, guild_id!, emoji_id!, body));
  });
  r.delete('/guilds/:guild_id/emojis/:emoji_id', async (c) => {
    const principal = botOf(c);
    const { guild_id, emoji_id } = ids(c);
    await deleteGuildEmoji(c.get('ctx'), principal, guild_id!, emoji_id!);
    return noContent();
  });
  return r;
}
