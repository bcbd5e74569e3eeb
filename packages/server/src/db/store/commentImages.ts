/**
 * Rows of the images readers upload into comments (uploads/commentImages.ts keeps the files):
 * who uploaded each, for which story, and the comment of theirs that uses it, once one does.
 */
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
  where: { commentId: string } | { userId: string; unusedBefore?: string },
): Promise<string[]> {
  let q = db.deleteFrom('comment_images');
  if ('commentId' in where) q = q.where('comment_id', '=', where.commentId);
  else {
    q = q.where('user_id', '=', where.userId);
    if (where.unusedBefore !== undefined) {
      q = q.where('comment_id', 'is', null).where('created_at', '<', where.unusedBefore);
    }
  }
  const rows = await q.returning('name').execute();
  return rows.map((row) => row.name);
}

/** Forgets the images a comment used (it was deleted); returns their names. */
export function deleteImagesOfComment(db: Db, commentId: string): Promise<string[]> {
  return deleteReturningNames(db, { commentId });
}

/** Forgets every image `userId` uploaded (their account is erased); returns their names. */
export function deleteImagesOfUser(db: Db, userId: string): Promise<string[]> {
  return deleteReturningNames(db, { userId });
}

/** Forgets `userId`'s uploads that no comment used since before `before`; returns their names. */
export function deleteUnusedImages(db: Db, userId: string, before: string): Promise<string[]> {
  return deleteReturningNames(db, { userId, unusedBefore: before });
}
