/**
 * `GET /guilds/{guild.id}/widget.png?style=`: the widget as a real PNG image (no token; a
 * disabled widget is 403 50004). Each style has its own size (shield 76x20, banner1 300x60,
 * banner2 320x80, banner3 320x76, banner4 320x152): a blurple ground, a block in the guild's own
 * colour, and the online member count drawn in a 3x5 pixel font. The platform's artwork (logo,
 * guild icon, name) is not drawn.
 */
import { encodePng } from '../cdn/png';
import type { PlatformContext } from '../core/context';
import { readWidget } from './widget';

/** The widget image styles and their sizes in pixels. */
export const WIDGET_IMAGE_SIZES = {
  shield: [76, 20],
  banner1: [300, 60],
  banner2: [320, 80],
  banner3: [320, 76],
  banner4: [320, 152],
} as const;

/** A widget image style. */
export type WidgetImageStyle = keyof typeof WIDGET_IMAGE_SIZES;

/** Digits 0-9 in a 3x5 font, one row per 3 bits (top row first). */
const DIGITS = [
  [7, 5, 5, 5, 7],
  [2, 6, 2, 2, 7],
  [7, 1, 7, 4, 7],
  [7, 1, 7, 1, 7],
  [5, 5, 7, 1, 1],
  [7, 4, 7, 1, 7],
  [7, 4, 7, 5, 7],
  [7, 1, 1, 1, 1],
  [7, 5, 7, 5, 7],
  [7, 5, 7, 1, 7],
];

const BLURPLE = [0x58, 0x65, 0xf2];
const WHITE = [0xff, 0xff, 0xff];

/** A colour of the guild's own, from its id (the same guild draws the same). */
function guildColour(guildId: string): number[] {
  const n = Number(BigInt(guildId) % 0xffffffn);
  return [0x40 + ((n >> 16) & 0x7f), 0x40 + ((n >> 8) & 0x7f), 0x40 + (n & 0x7f)];
}

/**
 * Draws the widget image of `style` for a guild with `online` members online.
 * @example const png = await drawWidgetImage('shield', guildId, 3);
 */
export async function drawWidgetImage(
  style: WidgetImageStyle,
  guildId: string,
  online: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const [width, height] = WIDGET_IMAGE_SIZES[style];
  const rgb = new Uint8Array(width * height * 3);
  const paint = (x: number, y: number, colour: number[]) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    rgb.set(colour, (y * width + x) * 3);
  };
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) paint(x, y, BLURPLE);
  const block = Math.min(height, width / 4);
  for (let y = 0; y < block; y++) for (let x = 0; x < block; x++) paint(x, y, guildColour(guildId));
  // The count, scaled to a third of the height, right of the block.
  const scale = Math.max(1, Math.floor(height / 3 / 5));
  const top = Math.floor((Math.min(height, block) - 5 * scale) / 2);
  let left = Math.ceil(block) + 2 * scale;
  for (const ch of String(online)) {
    DIGITS[Number(ch)].forEach((row, ry) => {
      for (let rx = 0; rx < 3; rx++) {
        if (!((row >> (2 - rx)) & 1)) continue;
        for (let dy = 0; dy < scale; dy++)
          for (let dx = 0; dx < scale; dx++) paint(left + rx * scale + dx, top + ry * scale + dy, WHITE);
      }
    });
    left += 4 * scale;
  }
  return encodePng(width, height, rgb);
}

/** `GET /guilds/{guild.id}/widget.png`: the PNG of the widget's online count. */
export async function getWidgetImage(ctx: PlatformContext, guildId: string, style: WidgetImageStyle) {
  const { online } = await readWidget(ctx, guildId);
  return drawWidgetImage(style, guildId, online.length);
}
