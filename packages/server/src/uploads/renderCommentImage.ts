/**
 * A comment image is never served as uploaded: libvips decodes it, turns it upright by its EXIF
 * orientation, scales it down to COMMENT_IMAGE_MAX_WIDTH when wider (never up), and writes a WebP
 * without any metadata (camera, place, time: sharp writes none unless asked). An animated image
 * keeps its first frame. What libvips cannot decode is refused, and so is an image of more than
 * UPLOAD_MAX_PIXELS.
 */
import { COMMENT_IMAGE_MAX_WIDTH } from '../defaults';
import { decodeFailure, openUpload } from './loadSharp';

/** A comment image as it will be served. */
export interface RenderedImage {
  webp: Buffer;
  width: number;
  height: number;
}

/** The WebP rendering of a comment image upload. */
export async function renderCommentImage(bytes: Uint8Array): Promise<RenderedImage> {
  try {
    const { data, info } = await (
      await openUpload(bytes)
    )
      .resize({ width: COMMENT_IMAGE_MAX_WIDTH, withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
    return { webp: data, width: info.width, height: info.height };
  } catch (error) {
    throw decodeFailure(error, 'An image');
  }
}
