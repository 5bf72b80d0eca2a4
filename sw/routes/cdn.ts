/**
 * The platform's CDN origin (`https://cdn.discordapp.com`), answered by the service worker for
 * the pages it controls: avatars, default avatars, guild, application and group DM icons, banners,
 * guild member avatars, custom emoji, and message attachments (the same files as
 * `/attachments/...` on the page's origin). Images the platform stored are served as uploaded;
 * the others are generated (`src/platform/cdn/images.ts`). No Authorization header, as on the
 * real CDN; `Access-Control-Allow-Origin: *` so a page may draw them on a canvas.
 */
import { Hono } from 'hono';
import { cdnImageOf, cdnImageSize, decodeDataUri, generatedImage } from '../../src/platform/cdn/images';
import type { PlatformContext } from '../../src/platform/core/context';

/** Headers of every CDN answer. */
const CDN_HEADERS = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=86400' };

function notFound(): Response {
  return new Response('404: Not Found', { status: 404, headers: { ...CDN_HEADERS, 'Content-Type': 'text/plain' } });
}

function image(bytes: Uint8Array<ArrayBuffer>, mime: string): Response {
  return new Response(bytes, { status: 200, headers: { ...CDN_HEADERS, 'Content-Type': mime } });
}

/** A stored data URI as an image answer, or 404 when nothing usable is stored. */
function stored(dataUri: string | null | undefined): Response {
  const decoded = dataUri ? decodeDataUri(dataUri) : null;
  return decoded ? image(decoded.bytes, decoded.mime) : notFound();
}

/**
 * The CDN app: `fetch(request)` with the CDN's own paths. `attachments` answers the platform's
 * `/attachments/...` route for the same path.
 * @example const cdn = cdnApp(ctx, (r) => app.fetch(r)); await cdn.fetch(new Request('https://cdn.discordapp.com/embed/avatars/0.png'));
 */
export function cdnApp(ctx: PlatformContext, attachments: (request: Request) => Promise<Response>): Hono {
  const r = new Hono();
  r.get('/attachments/*', async (c) => {
    const response = await attachments(c.req.raw);
    const answer = new Response(response.body, response);
    answer.headers.set('Access-Control-Allow-Origin', '*');
    return answer;
  });
  r.get('*', async (c) => {
    const wanted = cdnImageOf(c.req.path);
    if (!wanted) return notFound();
    const size = cdnImageSize(c.req.query('size'));
    if (size === null)
      return new Response('400: size must be a power of two from 16 to 4096', {
        status: 400,
        headers: { ...CDN_HEADERS, 'Content-Type': 'text/plain' },
      });
    switch (wanted.kind) {
      case 'emoji':
        return stored((await ctx.db.get('emoji_images', wanted.emoji_id))?.data_uri);
      case 'member-avatar': {
        const member = await ctx.db.get('members', [wanted.guild_id, wanted.user_id]);
        if (member?.avatar === wanted.hash && member.avatar_data) return stored(member.avatar_data);
        return image(await generatedImage({ kind: 'generated', seed: `member:${c.req.path}` }, size), 'image/png');
      }
      case 'uploaded': {
        // A guild's, user's or group DM's upload as uploaded while its hash is the current one; else drawn.
        const stores = { guild: 'guilds', user: 'users', 'group-dm': 'group_dm_channels' } as const;
        for (const owner of wanted.owners) {
          const record = (await ctx.db.get(stores[owner], wanted.id)) as Record<string, unknown> | undefined;
          const data = record?.[`${wanted.field}_data`];
          if (record?.[wanted.field] === wanted.hash && typeof data === 'string') return stored(data);
        }
        return image(await generatedImage({ kind: 'generated', seed: wanted.seed }, size), 'image/png');
      }
      default:
        return image(await generatedImage(wanted, size), 'image/png');
    }
  });
  r.all('*', () => notFound());
  return r;
}
