// The story's first-page query against the real server on the embedded database (SQLite in a
// temp folder), over HTTP on 127.0.0.1: what every widget load asks first. Bounded: a fixed number
// of requests per case. Run: npm run bench
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createParleyServer, loadConfig } from '@parley/server';
import { createComment, renderComment } from '@parley/server/testing';
import { seedStory } from './support/seedStory';

const SITE = 'https://site.example';
const FIRST_PAGE = `query FirstPage($url: String!) {
  story(url: $url) {
    id title status commentCount
    comments(first: 20) {
      edges { cursor node {
        id body createdAt editedAt replyCount reactionCount viewerReacted tags
        author { id username avatarUrl badges }
        replies(first: 3) { edges { node { id body createdAt author { id username } } } pageInfo { hasNextPage endCursor } }
      } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
const config = loadConfig({ PORT: '0', PARLEY_DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
const server = await createParleyServer({ config });
const { db } = server.deps;

// A story with 200 top-level comments by 50 authors, a third of them with 3 replies.
const { storyId, authorIds: authors } = await seedStory(server.deps, {
  siteUrl: SITE,
  storyUrl: `${SITE}/article`,
  readers: 49,
  comments: 0,
  body: () => '',
});
for (let i = 0; i < 200; i++) {
  const body = `Comment ${i} with **some** Markdown and a link https://example.com/${i}`;
  const { comment } = await createComment(db, {
    storyId,
    authorId: authors[i % authors.length]!,
    bodySource: body,
    bodyHtml: renderComment(body),
  });
  if (i % 3 === 0) {
    for (let r = 0; r < 3; r++) {
      await createComment(db, {
        storyId,
        authorId: authors[(i + r + 1) % authors.length]!,
        parentId: comment.id,
        bodySource: `Reply ${r}`,
        bodyHtml: renderComment(`Reply ${r}`),
      });
    }
  }
}

const url = `http://127.0.0.1:${await server.listen()}/graphql`;
const body = JSON.stringify({ query: FIRST_PAGE, variables: { url: `${SITE}/article` } });
const once = async () => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const json = (await response.json()) as { errors?: unknown };
  if (json.errors) throw new Error(JSON.stringify(json.errors));
};

async function measure(name: string, count: number, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) {
        const t0 = performance.now();
        await once();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const p = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  console.log(
    `${name.padEnd(40)} ${String(count).padStart(5)} req  ${(count / seconds).toFixed(0).padStart(6)} req/s` +
      `  p50 ${p(0.5).toFixed(1)} ms  p99 ${p(0.99).toFixed(1)} ms`,
  );
}

console.log(
  `node ${process.version}; SQLite; story with 200 comments (67 with 3 replies), 50 authors`,
);
console.log('first page: 20 comments with authors, counts and 3 replies each\n');
await measure('warm-up', 100, 4);
await measure('first page, 1 client', 500, 1);
await measure('first page, 10 concurrent clients', 2000, 10);
await server.close();
rmSync(dataDir, { recursive: true, force: true });
