/**
 * Image data as the platform's API takes it: a base64 data URI
 * (`data:image/png;base64,...`). The sandbox has no CDN, so the data URI itself is stored;
 * the wire carries the image hash the platform's objects carry (`a_` first for animated GIFs).
 */
import { ApiError } from './errors';

/** Image types the platform accepts for avatars, banners and emoji. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'] as const;

/** A decoded image: its type, size, whether it is animated, the data URI and its hash. */
export interface ImageData {
  mime: (typeof IMAGE_TYPES)[number];
  bytes: number;
  animated: boolean;
  dataUri: string;
  hash: string;
}

const DATA_URI = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/;

function decodeBase64(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/**
 * Parses a data URI sent for `field`; anything else is 400 (50035) naming the field, and so is
 * an image over `maxBytes` once decoded. Hashing is async: call it before a write opens.
 * @example const banner = await parseImageData(body.banner, 'banner');
 */
export async function parseImageData(
  value: string,
  field: string,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<ImageData> {
  const match = DATA_URI.exec(value);
  const mime = match?.[1] as ImageData['mime'] | undefined;
  const bytes = match ? decodeBase64(match[2]) : null;
  if (!match || !bytes || bytes.length === 0) {
    throw ApiError.invalidForm({
      [field]: { code: 'IMAGE_INVALID', message: 'Invalid image data: expected a base64 data URI.' },
    });
  }
  if (!(IMAGE_TYPES as readonly string[]).includes(mime!)) {
    throw ApiError.invalidForm({
      [field]: { code: 'IMAGE_INVALID', message: `Unsupported image type ${mime}: use ${IMAGE_TYPES.join(', ')}.` },
    });
  }
  if (bytes.length > maxBytes) {
    throw ApiError.invalidForm({
      [field]: { code: 'BINARY_TYPE_MAX_SIZE', message: `File cannot be larger than ${maxBytes / 1024} KiB.` },
    });
  }
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const b of digest.subarray(0, 16)) hex += b.toString(16).padStart(2, '0');
  // A GIF is what the platform calls animated; the hash says so with its `a_` prefix.
  const animated = mime === 'image/gif';
  return { mime: mime!, bytes: bytes.length, animated, dataUri: value, hash: animated ? `a_${hex}` : hex };
}
