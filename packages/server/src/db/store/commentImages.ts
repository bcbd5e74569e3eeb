/**
 * Rows of the images readers upload into comments (uploads/commentImages.ts keeps the files):
 * who uploaded each, for which story, and the comment of theirs that uses it, once one does.
 */
import { inTransaction } from '../inTransaction';
import type { Db } from '../inTransaction';

/** A new upload's row. */
export interface NewCommentImage {
  name: string;
  userId: string;
  storyId: string;
  width: number;
  height: number;
  bytes: number;
  createdAt: string;
}

/** Records an uploaded image, used by no comment yet. */
export async function insertCommentImage(db: Db, image: NewCommentImage): Promise<void> {
  await db
    .insertInto('comment_images')
    .values({
      name: image.name,
      user_id: image.userId,
      story_id: image.storyId,
      comment_id: null,
      width: image.width,
      height: image.height,
      bytes: image.bytes,
      created_at: image.createdAt,
    })
    .execute();
}

/** The sizes of `userId`'s uploads among `names` (someone else's are not theirs to show). */
export async function imageSizes(
  db: Db,
  userId: string,
  names: readonly string[],
): Promise<{ name: string; width: number; height: number }[]> {
  if (names.length === 0) return [];
  return db
    .selectFrom('comment_images')
    .select(['name', 'width', 'height'])
    .where('user_id', '=', userId)
    .where('name', 'in', names)
    .execute();
}

/**
 * Marks `userId`'s uploads among `names` as used by `commentId` (an image someone else uploaded
 * stays theirs: only its uploader's comments keep it). Returns how many it marked.
 */
export async function attachCommentImages(
  db: Db,
  userId: string,
  commentId: string,
  names: readonly string[],
): Promise<number> {
  if (names.length === 0) return 0;
  const result = await db
    .updateTable('comment_images')
    .set({ comment_id: commentId })
    .where('user_id', '=', userId)
    .where('name', 'in', names)
    .where('comment_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes the rows `where` selects and returns their names, for the caller to delete the files. */
async function deleteReturningNames(
  db: Db,
  where: { userId?: string; unusedBefore?: string },
): Promise<string[]> {
  let q = db.deleteFrom('comment_images');
  if (where.userId !== undefined) q = q.where('user_id', '=', where.userId);
  if (where.unusedBefore !== undefined) {
    q = q.where('comment_id', 'is', null).where('created_at', '<', where.unusedBefore);
  }
  const rows = await q.returning('name').execute();
  return rows.map((row) => row.name);
}

/**
 * The images a deleted comment used go with it — unless another comment of its author still
 * shows one (the same upload in a reply), which then keeps it. Returns the names forgotten, for
 * the caller to delete the files.
 */
export function releaseImagesOfComment(
  db: Db,
  commentId: string,
  authorId: string,
): Promise<string[]> {
  return inTransaction(db, async (trx) => {
    const images = await trx
      .selectFrom('comment_images')
      .select('name')
      .where('comment_id', '=', commentId)
      .execute();
    const gone: string[] = [];
    for (const { name } of images) {
      const keeper = await trx
        .selectFrom('comments')
        .select('id')
        .where('author_id', '=', authorId)
        .where('id', '!=', commentId)
        .where('deleted_at', 'is', null)
        // Names are hex, digits, `-`, `x` and `.`: nothing LIKE reads as a wildcard.
        .where('body_source', 'like', `%${name}%`)
        .limit(1)
        .executeTakeFirst();
      if (keeper) {
        await trx
          .updateTable('comment_images')
          .set({ comment_id: keeper.id })
          .where('name', '=', name)
          .execute();
      } else {
        await trx.deleteFrom('comment_images').where('name', '=', name).execute();
        gone.push(name);
      }
    }
    return gone;
  });
}

/** Forgets every image `userId` uploaded (their account is erased); returns their names. */
export function deleteImagesOfUser(db: Db, userId: string): Promise<string[]> {
  return deleteReturningNames(db, { userId });
}

/**
 * Forgets the uploads no comment used that were made before `before` — `userId`'s, or everyone's
 * (the daily housekeeping); returns their names.
 */
export function deleteUnusedImages(db: Db, before: string, userId?: string): Promise<string[]> {
  return deleteReturningNames(db, { userId, unusedBefore: before });
}

/** How many of `userId`'s uploads no comment uses yet. */
export async function countUnusedImages(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('comment_images')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('comment_id', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
