// The `core` entry: the package root resolves only under the `import` condition, which Jest's
// CommonJS runtime does not use, and `fileTypeFromBuffer` needs nothing from the Node entry.
import { fileTypeFromBuffer } from 'file-type/core';
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from '../defaults';
import { ParleyError } from '../ParleyError';

/** An image type accepted for avatars (one of `AVATAR_TYPES`). */
export type AvatarMime = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';

/** True when `mime` is one of `AVATAR_TYPES`. */
function isAvatarMime(mime: string): mime is AvatarMime {
  return (AVATAR_TYPES as readonly string[]).includes(mime);
}

/** The accepted types for messages, e.g. "PNG, JPEG, WEBP or GIF". */
function acceptedList(): string {
  const names = AVATAR_TYPES.map((mime) => mime.replace('image/', '').toUpperCase());
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1] ?? ''}`;
}

/**
 * The MIME type of an image upload, read from its bytes — never from the file name or the
 * client's Content-Type, which the uploader controls (an HTML page named `cat.png` would otherwise
 * be served back as an image and could run script on our origin).
 *
 * Throws ParleyError `UPLOAD_TOO_LARGE` (checked first, before reading any content) when over
 * `maxBytes`, and `UPLOAD_TYPE_NOT_ALLOWED` when the bytes are not one of `AVATAR_TYPES` (the
 * types avatars and comment images share). Both carry `field: 'file'`; `what` names the upload in
 * their messages ("An avatar", "An image").
 */
export async function sniffImage(
  bytes: Uint8Array,
  { maxBytes, what }: { maxBytes: number; what: string },
): Promise<AvatarMime> {
  if (bytes.byteLength > maxBytes) {
    const megabytes = maxBytes / (1024 * 1024);
    throw new ParleyError(
      'UPLOAD_TOO_LARGE',
      `${what} can be at most ${megabytes} MB; this file is ${bytes.byteLength} bytes.`,
      { field: 'file' },
    );
  }
  const detected = await fileTypeFromBuffer(bytes);
  if (detected === undefined || !isAvatarMime(detected.mime)) {
    throw new ParleyError(
      'UPLOAD_TYPE_NOT_ALLOWED',
      `${what} must be a ${acceptedList()} image` +
        (detected === undefined ? '.' : `; this file is ${detected.mime}.`),
      { field: 'file' },
    );
  }
  return detected.mime;
}

/** The MIME type of an avatar upload (see {@link sniffImage}), at most `AVATAR_MAX_BYTES`. */
export function sniffAvatar(bytes: Uint8Array): Promise<AvatarMime> {
  return sniffImage(bytes, { maxBytes: AVATAR_MAX_BYTES, what: 'An avatar' });
}
