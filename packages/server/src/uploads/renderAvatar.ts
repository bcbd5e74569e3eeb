/**
 * Avatars are never served as uploaded: each is decoded and re-encoded with sharp (libvips) into
 * two square WebP files — LARGE (256 px, the profile) and SMALL (64 px, twice the 32 px a thread
 * shows) — turned upright by its EXIF orientation, then stripped of all metadata (camera, place,
 * time: sharp writes none unless asked). An animated image keeps its first frame. What libvips
 * cannot decode is refused; so is an image of more than UPLOAD_MAX_PIXELS (a small file can
 * claim huge dimensions, a decompression bomb).
 */
import { decodeFailure, openUpload } from './loadSharp';

/** The two renderings, by their side in pixels. */
export const AVATAR_SIZES = Object.freeze({ large: 256, small: 64 });

/** The two WebP renderings of an avatar upload. */
export async function renderAvatar(bytes: Uint8Array): Promise<{ large: Buffer; small: Buffer }> {
  try {
    const source = await openUpload(bytes);
    const square = (side: number) =>
      source
        .clone()
        .resize(side, side, { fit: 'cover', position: 'centre' })
        .webp({ quality: 82 })
        .toBuffer();
    const [large, small] = await Promise.all([
      square(AVATAR_SIZES.large),
      square(AVATAR_SIZES.small),
    ]);
    return { large, small };
  } catch (error) {
    throw decodeFailure(error, 'An avatar');
  }
}
