import { nodesOf, resolveComment } from './applyLiveEvent';
import type { LiveState } from './applyLiveEvent';
import { isVisibleComment } from './CommentView';
import type { CommentData } from './CommentView';
import type { LocalComment } from './createThreadStore';

/**
 * The thread's comment count as it is now: the story's count when the page loaded (`loaded`),
 * plus the comments that arrived since — live (waiting, revealed, replies) and the reader's own
 * posts — each once and while they are visible, minus the comments of the first page (`firstPage`,
 * replies included) that were removed since (rejected live, deleted). Never below zero.
 */
export function countComments(
  loaded: number,
  firstPage: CommentData[],
  state: LiveState,
  local: readonly LocalComment[],
): number {
  const shown = (c: CommentData) => isVisibleComment(resolveComment(state, c));
  const onPage = new Set(firstPage.map((c) => c.id));
  const added = new Set<string>();
  for (const c of [...state.waiting, ...state.revealed, ...Object.values(state.replies).flat()])
    if (!onPage.has(c.id) && shown(c)) added.add(c.id);
  // A posted comment the page loaded too is in the story's count already.
  for (const { state: sent, comment } of local)
    if (sent === 'posted' && comment && !onPage.has(comment.id) && shown(comment))
      added.add(comment.id);
  let removed = 0;
  const walk = (comments: CommentData[]) => {
    for (const c of comments) {
      if (isVisibleComment(c) && !shown(c)) removed += 1;
      walk(nodesOf(c.replies));
    }
  };
  walk(firstPage);
  return Math.max(0, loaded + added.size - removed);
}
