/**
 * The sandbox's CDN: the image URLs activities build from the platform's objects
 * (`https://cdn.discordapp.com/avatars/<user_id>/<hash>.png?size=128`, default avatars, guild
 * icons...) answered offline. An image the platform stored (a custom emoji, a member's guild
 * avatar) is served as uploaded; every other one is generated from its URL, so the same URL
 * always draws the same picture and two users or guilds look different: a symmetric 5 × 5
 * pattern in a colour of its own, like a code host's identicons. Every format asked for
 * (`.png`, `.jpg`, `.webp`, `.gif`) answers a PNG (a bot's uploaded avatar or banner is served as uploaded), which every browser draws whatever the name.
 */
import { encodePng } from './png';

/** The colours of the platform's six default avatars, in index order. */
export const DEFAULT_AVATAR_COLORS = [0x5865f2, 0x757e8a, 0x3ba55c, 0xfaa61a, 0xed4245, 0xeb459e] as const;

/** The `size` values the CDN takes: powers of two from 16 to 4096. */
export const CDN_IMAGE_SIZE_MIN = 16;
export const CDN_IMAGE_SIZE_MAX = 4096;
/** Without `size`: the size generated images have. */
export const CDN_IMAGE_SIZE_DEFAULT = 128;
/** Generated images are drawn at most this large; a larger `size` scales up in the page as any small upload would. */
const GENERATED_SIZE_MAX = 512;

const FORMAT = '(?:png|jpe?g|webp|gif|avif)';
const ID = '(\\d{1,20})';
const HASH = '((?:a_)?[0-9a-f]{32}|[\\w-]{1,64})';

/** What a CDN path asks for. */
export type CdnImage =
  | { kind: 'default-avatar'; index: number }
  /** `guild`: a guild's icon or banner, served as uploaded when the guild has that image (Modify Guild). */
  | { kind: 'generated'; seed: string }
  | { kind: 'member-avatar'; guild_id: string; user_id: string; hash: string }
  /**
   * An image a guild, user or group DM may have uploaded (Modify Guild, Modify Current User, a
   * group DM's Modify Channel): served as
   * uploaded while `hash` is the owner's current one, drawn from `seed` otherwise.
   */
  | {
      kind: 'uploaded';
      owners: ('guild' | 'user' | 'group-dm')[];
      field: 'avatar' | 'icon' | 'banner';
      id: string;
      hash: string;
      seed: string;
    }
  | { kind: 'emoji'; emoji_id: string };

/** The CDN's paths, as the platform's public image formatting documents them. */
const ROUTES: [RegExp, (m: RegExpExecArray) => CdnImage][] = [
  [new RegExp(`^/embed/avatars/([0-5])\\.png$`), (m) => ({ kind: 'default-avatar', index: Number(m[1]) })],
  [
    new RegExp(`^/avatars/${ID}/${HASH}\.${FORMAT}$`),
    (m) => ({
      kind: 'uploaded',
      owners: ['user'],
      field: 'avatar',
      id: m[1],
      hash: m[2],
      seed: `user:${m[1]}:${m[2]}`,
    }),
  ],
  [
    new RegExp(`^/icons/${ID}/${HASH}\.${FORMAT}$`),
    (m) => ({
      kind: 'uploaded',
      owners: ['guild'],
      field: 'icon',
      id: m[1],
      hash: m[2],
      seed: `guild:${m[1]}:${m[2]}`,
    }),
  ],
  [new RegExp(`^/app-icons/${ID}/${HASH}\.${FORMAT}$`), (m) => ({ kind: 'generated', seed: `app:${m[1]}:${m[2]}` })],
  [
    // A group DM's icon (Modify Channel), as uploaded while it is the channel's.
    new RegExp(`^/channel-icons/${ID}/${HASH}\.${FORMAT}$`),
    (m) => ({
      kind: 'uploaded',
      owners: ['group-dm'],
      field: 'icon',
      id: m[1],
      hash: m[2],
      seed: `channel:${m[1]}:${m[2]}`,
    }),
  ],
  [
    // A guild's banner and a user's banner share the path: the id says whose it is.
    new RegExp(`^/banners/${ID}/${HASH}\.${FORMAT}$`),
    (m) => ({
      kind: 'uploaded',
      owners: ['guild', 'user'],
      field: 'banner',
      id: m[1],
      hash: m[2],
      seed: `banner:${m[1]}:${m[2]}`,
    }),
  ],
  [new RegExp(`^/splashes/${ID}/${HASH}\\.${FORMAT}$`), (m) => ({ kind: 'generated', seed: `splash:${m[1]}:${m[2]}` })],
  [
    new RegExp(`^/guilds/${ID}/users/${ID}/avatars/${HASH}\\.${FORMAT}$`),
    (m) => ({ kind: 'member-avatar', guild_id: m[1], user_id: m[2], hash: m[3] }),
  ],
  [new RegExp(`^/emojis/${ID}\\.${FORMAT}$`), (m) => ({ kind: 'emoji', emoji_id: m[1] })],
];

/**
 * What the CDN path `path` asks for, or null when it is none of the CDN's images.
 * @example cdnImageOf('/embed/avatars/3.png') // { kind: 'default-avatar', index: 3 }
 */
export function cdnImageOf(path: string): CdnImage | null {
  for (const [pattern, read] of ROUTES) {
    const match = pattern.exec(path);
    if (match) return read(match);
  }
  return null;
}

/**
 * The `size` query value as a number of pixels: the default when absent, null when it is not
 * a power of two from 16 to 4096 (the CDN refuses it).
 * @example cdnImageSize('256') // 256
 */
export function cdnImageSize(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return CDN_IMAGE_SIZE_DEFAULT;
  if (!/^\d{1,4}$/.test(value)) return null;
  const size = Number(value);
  const powerOfTwo = (size & (size - 1)) === 0;
  return powerOfTwo && size >= CDN_IMAGE_SIZE_MIN && size <= CDN_IMAGE_SIZE_MAX ? size : null;
}

/** FNV-1a over the seed's UTF-16 code units: a stable 32-bit number per seed. */
function fnv1a(seed: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) hash = Math.imul(hash ^ seed.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** An RGB colour from a hue (0-359) at the saturation and lightness identicons read well in. */
function hueColor(hue: number): number {
  const s = 0.55;
  const l = 0.52;
  const f = (n: number) => {
    const k = (n + hue / 30) % 12;
    return Math.round(255 * (l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return (f(0) << 16) | (f(8) << 8) | f(4);
}

/** Draws a 5 × 5 cell mask (`cells[row * 5 + column]`) on a background, with half a cell of margin. */
function drawCells(size: number, cells: boolean[], ink: number, background: number): Uint8Array {
  const rgb = new Uint8Array(size * size * 3);
  const cell = size / 6;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const column = Math.floor((x - cell / 2) / cell);
      const row = Math.floor((y - cell / 2) / cell);
      const on = column >= 0 && column < 5 && row >= 0 && row < 5 && cells[row * 5 + column];
      const color = on ? ink : background;
      const at = (y * size + x) * 3;
      rgb[at] = color >> 16;
      rgb[at + 1] = (color >> 8) & 0xff;
      rgb[at + 2] = color & 0xff;
    }
  }
  return rgb;
}

/** A face-like glyph drawn in white on the default avatars' colours. */
const DEFAULT_AVATAR_GLYPH = [
  [0, 1, 0, 1, 0],
  [0, 1, 0, 1, 0],
  [0, 0, 0, 0, 0],
  [1, 0, 0, 0, 1],
  [0, 1, 1, 1, 0],
].flat() as (0 | 1)[];

/**
 * The PNG of a generated image: a default avatar in its colour, or the identicon of `seed`.
 * @example const png = await generatedImage({ kind: 'generated', seed: 'user:1:abc' }, 128);
 */
export async function generatedImage(
  image: { kind: 'default-avatar'; index: number } | { kind: 'generated'; seed: string },
  size: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const drawn = Math.min(size, GENERATED_SIZE_MAX);
  if (image.kind === 'default-avatar') {
    const color = DEFAULT_AVATAR_COLORS[image.index];
    return encodePng(drawn, drawn, drawCells(drawn, DEFAULT_AVATAR_GLYPH.map(Boolean), 0xffffff, color));
  }
  const hash = fnv1a(image.seed);
  // Fifteen bits choose the left three columns; the right two mirror them.
  const cells = Array.from({ length: 25 }, (_, i) => {
    const row = Math.floor(i / 5);
    const column = i % 5 < 3 ? i % 5 : 4 - (i % 5);
    return ((hash >>> (row * 3 + column)) & 1) === 1;
  });
  return encodePng(drawn, drawn, drawCells(drawn, cells, hueColor((hash >>> 16) % 360), 0xf2f3f5));
}

/**
 * A stored image's data URI (`data:image/png;base64,...`) as its type and bytes, or null when
 * it is not one.
 */
export function decodeDataUri(dataUri: string): { mime: string; bytes: Uint8Array<ArrayBuffer> } | null {
  const match = /^data:([\w.+/-]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(dataUri);
  if (!match) return null;
  const binary = atob(match[2]);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return { mime: match[1], bytes };
}
