import type SharpModule from 'sharp';
import type { Sharp } from 'sharp';
import { ParleyError } from '../ParleyError';

let loading: Promise<typeof SharpModule> | undefined;

/**
 * sharp, loaded at the first image upload: libvips adds ~20 MB to a process's memory (measured
 * with `process.memoryUsage()`), which a server that never sees an upload should not carry.
 */
function loadSharp(): Promise<typeof SharpModule> {
  return (loading ??= import('sharp').then((module) => module.default));
}

/**
 * Most pixels an uploaded image may decode to (8,000 × 5,000): a small file can claim huge
 * dimensions (a decompression bomb), which libvips then refuses before decoding.
 */
export const UPLOAD_MAX_PIXELS = 40_000_000;

/**
 * An uploaded image opened for re-encoding, the same way for avatars and comment images: at most
 * UPLOAD_MAX_PIXELS (refused before decoding), its first frame only, nothing libvips reads with
 * errors, turned upright by its EXIF orientation.
 */
export async function openUpload(bytes: Uint8Array): Promise<Sharp> {
  const sharp = await loadSharp();
  return sharp(bytes, {
    limitInputPixels: UPLOAD_MAX_PIXELS,
    animated: false,
    failOn: 'error',
  }).rotate();
}

/**
 * The coded error of an image libvips refused: over UPLOAD_MAX_PIXELS is `UPLOAD_TOO_LARGE`,
 * anything it could not decode `UPLOAD_TYPE_NOT_ALLOWED` (`what` names the upload: "An avatar").
 */
export function decodeFailure(error: unknown, what: string): ParleyError {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) {
    return new ParleyError(
      'UPLOAD_TOO_LARGE',
      `${what} can be at most ${UPLOAD_MAX_PIXELS / 1_000_000} megapixels.`,
      { field: 'file' },
    );
  }
  return new ParleyError('UPLOAD_TYPE_NOT_ALLOWED', 'This image could not be read.', {
    field: 'file',
  });
}
