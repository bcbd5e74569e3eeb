// Writes packages/stream/dist/stream-page-sample.html: the frame's page as the server sends it for
// a story of 25 comments (20 shown, the read bench's text), rendered by the built ssr.js from the
// built template and CSS. `npm run size` measures it with embed.js: the bytes before the thread
// is visible. Needs `npm run build`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STREAM_PAGE_FILES } from '../packages/server/src/clientBuilds';
import { loadStreamPage } from '../packages/server/src/runtime/streamPage';
import { makeComment, makeRootData } from '../packages/stream/src/testing/threadFixtures';

// The renderer and the page's parts, as the server loads them.
const loaded = await loadStreamPage(STREAM_PAGE_FILES);
if (!loaded) throw new Error('No stream build: run npm run build first.');
const { renderer, parts } = loaded;

const TOTAL = 25;
const comments = Array.from({ length: 20 }, (_, i) => {
  const n = TOTAL - 1 - i;
  return makeComment(`c${n}`, {
    body: `<p>Comment ${n}: a short remark about the bench article, with a few words.</p>\n`,
    createdAt: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
    author: {
      id: `u${n % 5}`,
      username: `reader${n % 5}`,
      avatarUrl: null,
      badges: [],
      isGuest: false,
    },
  });
});
const data = makeRootData(comments, {
  hasNextPage: true,
  story: { url: 'https://news.example/articles/bench', title: 'Bench', commentCount: TOTAL },
});
const search = `?storyURL=${encodeURIComponent(data.story.url)}&origin=https%3A%2F%2Fnews.example`;
const { html: page } = await renderer.renderStreamDocument(search, data, parts);
writeFileSync(join(STREAM_PAGE_FILES.template, '..', 'stream-page-sample.html'), page);
