import type SharpModule from 'sharp';

let loading: Promise<typeof SharpModule> | undefined;

/**
 * sharp, loaded at the first image upload: libvips adds ~20 MB to a process's memory (measured
 * with `process.memoryUsage()`), which a server that never sees an upload should not carry.
 */
export function loadSharp(): Promise<typeof SharpModule> {
  return (loading ??= import('sharp').then((module) => module.default));
}

/**
 * Most pixels an uploaded image may decode to (8,000 × 5,000): a small file can claim huge
 * dimensions (a decompression bomb), which libvips then refuses before decoding.
 */
export const UPLOAD_MAX_PIXELS = 40_000_000;
