import type { FieldNode, SelectionSetNode } from '@0no-co/graphql.web';
import { PAGE_SIZE_MAX } from '@parley/contract';
import { STREAM_QUERY } from './App';
import {
  CommentThread,
  MORE_REPLIES_PAGE_SIZE,
  REPLIES_PAGE_SIZE,
  REPLIES_QUERY,
} from './ReplyList';
import {
  FEATURED_PAGE_SIZE,
  FEATURED_QUERY,
  MORE_COMMENTS_QUERY,
  TOP_LEVEL_PAGE_SIZE,
} from './Thread';

/** The `first` argument of every `replies` field under `selections`, however deep. */
function repliesSizes(set: SelectionSetNode | undefined): string[] {
  return (set?.selections ?? []).flatMap((selection) => {
    if (selection.kind !== 'Field') return [];
    const field = selection as FieldNode;
    const first = field.arguments?.find((a) => a.name.value === 'first')?.value;
    const own = field.name.value === 'replies' && first?.kind === 'IntValue' ? [first.value] : [];
    return [...own, ...repliesSizes(field.selectionSet)];
  });
}

describe("the stream's documents", () => {
  it('fetch REPLIES_PAGE_SIZE replies per level with each comment, two levels down', () => {
    const thread = CommentThread.definitions[0];
    expect(thread?.kind).toBe('FragmentDefinition');
    const sizes = repliesSizes(
      thread && 'selectionSet' in thread ? thread.selectionSet : undefined,
    );
    expect(sizes).toEqual([String(REPLIES_PAGE_SIZE), String(REPLIES_PAGE_SIZE)]);
    expect(MORE_REPLIES_PAGE_SIZE).toBeGreaterThan(REPLIES_PAGE_SIZE);
  });

  it.each([
    ['Stream', STREAM_QUERY],
    ['MoreComments', MORE_COMMENTS_QUERY],
    ['FeaturedComments', FEATURED_QUERY],
    ['Replies', REPLIES_QUERY],
  ])('%s carries the thread fragment and the comment fragment once each', (name, document) => {
    const names = document.definitions.map((d) => ('name' in d ? d.name?.value : undefined));
    expect(names).toEqual([name, 'CommentThread', 'CommentFields']);
  });
});

test('every page the stream asks for is within what the server honours', () => {
  for (const size of [
    TOP_LEVEL_PAGE_SIZE,
    FEATURED_PAGE_SIZE,
    REPLIES_PAGE_SIZE,
    MORE_REPLIES_PAGE_SIZE,
  ])
    expect(size).toBeLessThanOrEqual(PAGE_SIZE_MAX);
});
