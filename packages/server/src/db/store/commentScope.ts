/** Which comments a clean-up covers: some, by id, or every one of an author. */
import type { Db } from '../inTransaction';

/** Comments by id, or every comment by an author (an erased account). */
export type CommentScope = { commentIds: readonly string[] } | { authorId: string };

/** True for a scope of no comments (an empty id list): nothing to write. */
export function isEmptyScope(scope: CommentScope): boolean {
  return 'commentIds' in scope && scope.commentIds.length === 0;
}

/** The scope's comment ids, as the right side of `comment_id in …`: the list, or a subquery. */
export function commentIdsOf(db: Db, scope: CommentScope) {
  return 'commentIds' in scope
    ? [...scope.commentIds]
    : db.selectFrom('comments').select('id').where('author_id', '=', scope.authorId);
}
