/**
 * A minimal PNG encoder for the sandbox CDN's generated images: 8-bit RGB, no interlace,
 * filter 0 on every row, compressed with the platform's own `CompressionStream('deflate')`
 * (zlib, exactly what a PNG's IDAT holds). Browsers, workers and Node have it, so no image
 * library ships in the service worker.
 */

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

/** The CRC-32 table of the PNG specification (polynomial 0xedb88320). */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 over `bytes`, as PNG chunks carry it. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function deflate(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Encodes `width` × `height` RGB pixels (`rgb[(y * width + x) * 3 + channel]`) as a PNG file.
 * @example const png = await encodePng(1, 1, new Uint8Array([255, 0, 0])); // one red pixel
 */
export async function encodePng(width: number, height: number, rgb: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  if (rgb.length !== width * height * 3) throw new RangeError(`expected ${width * height * 3} bytes of RGB`);
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, truecolour, deflate, filter method 0, no interlace
  const rows = new Uint8Array(height * (width * 3 + 1));
  for (let y = 0; y < height; y++) rows.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1);
  const parts = [
    new Uint8Array(SIGNATURE),
    chunk('IHDR', header),
    chunk('IDAT', await deflate(rows)),
    chunk('IEND', new Uint8Array(0)),
  ];
  const file = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    file.set(part, offset);
    offset += part.length;
  }
  return file;
}
