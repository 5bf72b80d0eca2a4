// @vitest-environment node
/**
 * CONTRACT §6: the platform's CDN images that activities load (avatars, default avatars, guild
 * icons, member avatars, emoji, attachments) are answered offline: stored ones as uploaded,
 * the others generated, the same URL always the same picture.
 */
import { describe, expect, it } from 'vitest';
import { cdnImageOf, cdnImageSize, generatedImage } from '../../../src/platform/cdn/images';
import { crc32, encodePng } from '../../../src/platform/cdn/png';
import { createTestClient, createWorld } from '../app-harness';

const CDN = 'https://cdn.discordapp.com';
const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

/** Width and height from a PNG's IHDR. */
function pngSize(bytes: Uint8Array): [number, number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return [view.getUint32(16), view.getUint32(20)];
}

/** The decompressed IDAT of a PNG with one IDAT chunk: filter byte + RGB per row. */
async function pngRows(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const view = new DataView(bytes.buffer);
  let at = 8;
  while (at < bytes.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (type === 'IDAT') {
      const stream = new Blob([bytes.slice(at + 8, at + 8 + length)])
        .stream()
        .pipeThrough(new DecompressionStream('deflate'));
      return new Uint8Array(await new Response(stream).arrayBuffer());
    }
    at += 12 + length;
  }
  throw new Error('no IDAT');
}

describe('PNG encoding of generated images', () => {
  it('CRC-32 matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('a PNG holds the signature, the size and the exact pixels (filter 0 rows)', async () => {
    const png = await encodePng(2, 1, new Uint8Array([255, 0, 0, 0, 0, 255]));
    expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(pngSize(png)).toEqual([2, 1]);
    expect([...(await pngRows(png))]).toEqual([0, 255, 0, 0, 0, 0, 255]);
  });
});

describe('the CDN’s paths and sizes (the platform’s image formatting)', () => {
  it('reads avatars, default avatars, icons, member avatars and emoji; anything else is no image', () => {
    expect(cdnImageOf('/embed/avatars/5.png')).toEqual({ kind: 'default-avatar', index: 5 });
    expect(cdnImageOf('/avatars/80351110224678912/a_1269e74af4df7417b13759eae50c83dc.gif')).toEqual({
      kind: 'uploaded',
      owners: ['user'],
      field: 'avatar',
      id: '80351110224678912',
      hash: 'a_1269e74af4df7417b13759eae50c83dc',
      seed: 'user:80351110224678912:a_1269e74af4df7417b13759eae50c83dc',
    });
    expect(cdnImageOf('/icons/1/abc.webp')).toMatchObject({ kind: 'uploaded', owners: ['guild'], seed: 'guild:1:abc' });
    // A banner's path is a guild's or a user's: the id says whose.
    expect(cdnImageOf('/banners/1/abc.png')).toMatchObject({
      kind: 'uploaded',
      owners: ['guild', 'user'],
      field: 'banner',
    });
    expect(cdnImageOf('/guilds/1/users/2/avatars/abc.png')).toEqual({
      kind: 'member-avatar',
      guild_id: '1',
      user_id: '2',
      hash: 'abc',
    });
    expect(cdnImageOf('/emojis/41771983429993937.png')).toEqual({ kind: 'emoji', emoji_id: '41771983429993937' });
    for (const path of ['/embed/avatars/6.png', '/avatars/x/abc.png', '/avatars/1/abc.svg', '/other', '/'])
      expect(cdnImageOf(path), path).toBeNull();
  });

  it('size is a power of two from 16 to 4096 (128 when absent)', () => {
    expect(cdnImageSize(null)).toBe(128);
    expect(cdnImageSize('16')).toBe(16);
    expect(cdnImageSize('4096')).toBe(4096);
    for (const bad of ['8', '100', '8192', '-16', 'big', '0']) expect(cdnImageSize(bad), bad).toBeNull();
  });

  it('the same URL draws the same picture; two users draw different ones', async () => {
    const a = await generatedImage({ kind: 'generated', seed: 'user:1:h' }, 32);
    expect([...(await generatedImage({ kind: 'generated', seed: 'user:1:h' }, 32))]).toEqual([...a]);
    const b = await generatedImage({ kind: 'generated', seed: 'user:2:h' }, 32);
    expect([...(await pngRows(b))]).not.toEqual([...(await pngRows(a))]);
  });
});

describe('the CDN answers offline (CONTRACT §6)', () => {
  it('a default avatar and a user avatar are PNGs of the size asked, with CORS for canvases', async () => {
    const client = await createTestClient();
    for (const [path, size] of [
      ['/embed/avatars/0.png', 128],
      ['/avatars/80351110224678912/1269e74af4df7417b13759eae50c83dc.png?size=64', 64],
      ['/icons/1/1269e74af4df7417b13759eae50c83dc.webp?size=256', 256],
    ] as const) {
      const response = await client.app.cdn(new Request(`${CDN}${path}`));
      expect(response.status, path).toBe(200);
      expect(response.headers.get('Content-Type')).toBe('image/png');
      expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
      expect(response.headers.get('X-Served-By')).toBe('platformpp-sw');
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
      expect(pngSize(bytes)).toEqual([size, size]);
    }
  });

  it('an unknown path is 404 and a size that is no power of two is 400', async () => {
    const client = await createTestClient();
    expect((await client.app.cdn(new Request(`${CDN}/nothing/here.png`))).status).toBe(404);
    expect((await client.app.cdn(new Request(`${CDN}/embed/avatars/0.png?size=100`))).status).toBe(400);
    expect((await client.app.cdn(new Request(`${CDN}/emojis/1.png`))).status).toBe(404);
  });

  it('a custom emoji is served as it was uploaded', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const guild = (await client.post('/sandbox/guilds', { name: 'Emoji Guild', owner_id: world.alice.id })).body.guild;
    await client.put(`/sandbox/guilds/${guild.id}/members/${world.bot.id}`, {});
    const pixel = await encodePng(1, 1, new Uint8Array([1, 2, 3]));
    const image = `data:image/png;base64,${btoa(String.fromCharCode(...pixel))}`;
    const role = await client.post(`/sandbox/guilds/${guild.id}/roles`, {
      name: 'Emoji',
      permissions: String((1n << 30n) | (1n << 43n)),
    });
    await client.put(`/sandbox/guilds/${guild.id}/members/${world.bot.id}`, { roles: [role.body.role.id] });
    const emoji = await client.post(`/api/v10/guilds/${guild.id}/emojis`, { name: 'wave', image }, world.botAuth);
    expect(emoji.status, JSON.stringify(emoji.body)).toBe(201);
    const response = await client.app.cdn(new Request(`${CDN}/emojis/${emoji.body.id}.png`));
    expect(response.status).toBe(200);
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([...pixel]);
  });
});
