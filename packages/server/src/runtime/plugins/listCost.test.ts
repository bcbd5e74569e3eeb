import { SITE_ORIGIN, useApi } from '../../graphql/testing/useApi';
import { MAX_LIST_COST } from './listCost';

// What the stream asks on its first render: 20 comments, 3 replies each, 3 of theirs.
const COMMENT =
  'id body createdAt editedAt status tags replyCount reactionCount viewerReacted author { id username avatarUrl badges }';
const STREAM_FIRST_RENDER = `query ($url: String, $first: Int) {
  viewer { id username }
  story(url: $url) {
    id commentCount
    comments(first: $first) {
      pageInfo { hasNextPage endCursor }
      edges { cursor node { ${COMMENT}
        replies(first: 3) { edges { node { ${COMMENT}
          replies(first: 3) { edges { node { ${COMMENT} } } }
        } } }
      } }
    }
  }
}`;

const WIDE = `query ($url: String, $first: Int) {
  story(url: $url) {
    comments(first: $first) { edges { node { id
      replies(first: $first) { edges { node { id
        replies(first: $first) { edges { node { id body } } }
      } } }
    } } }
  }
}`;

describe('list-aware query cost', () => {
  const api = useApi('sqlite');
  const url = `${SITE_ORIGIN}/cost`;

  it('accepts the stream’s first render', async () => {
    await api.install();
    const answer = await api.request(STREAM_FIRST_RENDER, { url, first: 20 });
    expect(answer.errors).toBeUndefined();
  });

  it('refuses lists of lists that ask for too many items, counting `first` from variables', async () => {
    await api.install();
    const small = await api.request(WIDE, { url, first: 5 });
    expect(small.errors).toBeUndefined();
    const wide = await api.request(WIDE, { url, first: 100 });
    expect(wide.data ?? undefined).toBeUndefined();
    expect(wide.errors?.[0]?.extensions).toEqual({ code: 'INVALID_INPUT' });
    expect(wide.errors?.[0]?.message).toContain(`limit of ${MAX_LIST_COST}`);
  });
});
