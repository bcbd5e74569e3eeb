/**
 * Images in comments: each upload is rendered (renderCommentImage.ts) and written once under a
 * fresh random name that carries its size, `uploads/images/<16 hex>-<width>x<height>.webp`, so
 * it is served with immutable caching and a comment can give its `<img>` a width and height
 * before it loads. A row per file (db/store/commentImages.ts) says who uploaded it and which of
 * their comments uses it: an upload never posted is swept after a week, and deleting the comment
 * or erasing the account deletes the file.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../db/inTransaction';
import { insertCommentImage } from '../db/store/commentImages';
import type { Logger } from '../runtime/createLogger';
import type { RenderedImage } from './renderCommentImage';
import { sweepFolder } from './sweepFolder';
import { uploadWriteFailure } from './storageFull';

/** Folder of comment images, under the data folder and under the public URL. */
export const IMAGE_DIR = 'uploads/images';

/** The file names this server gives comment images. */
const IMAGE_NAME = /^[0-9a-f]{16}-\d{1,5}x\d{1,5}\.webp$/;

/** Where comment images live and how they are reached. */
export interface ImagePlace {
  dataDir: string;
  publicUrl: string;
}

/** The URL prefix of this server's comment images: Markdown may show only what starts with it. */
export function imageUrlPrefix(publicUrl: string): string {
  return `${publicUrl}/${IMAGE_DIR}/`;
}

/** The file name of an image URL of this server's (`prefix`), or undefined for any other URL. */
function ownImageName(prefix: string, url: string): string | undefined {
  if (!url.startsWith(prefix)) return undefined;
  const name = url.slice(prefix.length);
  return IMAGE_NAME.test(name) ? name : undefined;
}

/** The names of this server's images a Markdown source points at (`![…](url)`), once each. */
export function imageNamesIn(prefix: string, source: string): string[] {
  const names = new Set<string>();
  for (const [url] of source.matchAll(/https?:\/\/[^\s)"'<>]+/g)) {
    const name = ownImageName(prefix, url);
    if (name !== undefined) names.add(name);
  }
  return [...names];
}

/**
 * Writes a rendered image under a new name and records it as `userId`'s upload for `storyId`;
 * answers its URL. The file is written under a temporary name and renamed into place before its
 * row is written, so no row ever names a half-written or missing file, and a failure removes
 * what it wrote (a full disk: `STORAGE_FULL`).
 */
export async function storeCommentImage(
  deps: ImagePlace & { db: Db; logger: Pick<Logger, 'error'> },
  upload: { userId: string; storyId: string; createdAt: string },
  image: RenderedImage,
): Promise<{ url: string; name: string }> {
  const dir = join(deps.dataDir, IMAGE_DIR);
  const name = `${randomBytes(8).toString('hex')}-${image.width}x${image.height}.webp`;
  const temporary = join(dir, `.upload-${name}`);
  const final = join(dir, name);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(temporary, image.webp, { flag: 'wx', mode: 0o600 });
    await rename(temporary, final);
    await insertCommentImage(deps.db, {
      name,
      ...upload,
      width: image.width,
      height: image.height,
      bytes: image.webp.byteLength,
    });
    return { url: imageUrlPrefix(deps.publicUrl) + name, name };
  } catch (error) {
    for (const file of [temporary, final]) await unlink(file).catch(() => undefined);
    throw uploadWriteFailure(error, dir, deps.logger);
  }
}

/** Deletes the files of forgotten images (best effort: a file left behind is only disk). */
export async function removeImageFiles(
  deps: { dataDir: string; logger: Pick<Logger, 'warn'> },
  names: readonly string[],
): Promise<void> {
  for (const name of names) {
    if (!IMAGE_NAME.test(name)) continue;
    await unlink(join(deps.dataDir, IMAGE_DIR, name)).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      deps.logger.warn({ err: error, name }, 'Could not remove a comment image');
    });
  }
}

/** Removes image files no row names (a crash between the file and its row): housekeeping. */
export async function sweepOrphanImages(
  deps: { dataDir: string; db: Db; logger: Pick<Logger, 'info' | 'warn'> },
  options: { now?: number; graceMs?: number } = {},
): Promise<number> {
  const rows = await deps.db.selectFrom('comment_images').select('name').execute();
  const kept = new Set(rows.map((row) => row.name));
  return sweepFolder(deps.logger, join(deps.dataDir, IMAGE_DIR), kept, options);
}
