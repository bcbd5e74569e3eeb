import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtClientRoutes } from '../src/clientBuilds';
import { createParleyServer } from '../src/createParleyServer';
import type { ParleyServer } from '../src/createParleyServer';
import { createComment } from '../src/db/store/comments';
import { findOrCreateStory, findStoryByUrl } from '../src/db/store/stories';
import { loadConfig } from '../src/runtime/loadConfig';
import { createMemoryLogger } from '../src/runtime/testing/createTestYoga';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';
import { renderComment } from '../src/markdown/renderComment';

// /embed/stream with the thread on the page (the stream's server build, from `npm run build`):
// the first page's comments are in the HTML the browser receives, with the answer the frame
// hydrates from, so it asks nothing before showing them.
const SITE = 'https://site.example';
const STORY = `${SITE}/articles/rendered`;
const frameUrl = (base: string, story: string) =>
  `${base}/embed/stream?storyURL=${encodeURIComponent(story)}&origin=${encodeURIComponent(SITE)}&theme=dark&locale=es`;

describe('the stream page, rendered on the server', () => {
  let dir: string;
  let server: ParleyServer;
  let url: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-stream-page-'));
    server = await createParleyServer({
      config: loadConfig({ PORT: '0', PARLEY_DATA_DIR: dir, LOG_LEVEL: 'silent' }),
      logger: createMemoryLogger().logger,
      staticRoutes: builtClientRoutes(),
    });
    url = `http://127.0.0.1:${await server.listen()}`;
    await installOverHttp(url, { site: SITE, password: 'correct horse battery' });
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates the story on a first visit, as the frame would', async () => {
    const first = await (await fetch(frameUrl(url, `${SITE}/articles/new`))).text();
    expect(first).toContain('id="parley-data"');
    expect(await findStoryByUrl(server.deps.db, `${SITE}/articles/new`)).toBeDefined();
  });

  it('sends the first page’s comments in the page, ready to hydrate', async () => {
    // Written straight into storage, before any read (no event would drop a cached answer).
    const site = await server.deps.db.selectFrom('sites').select('id').executeTakeFirstOrThrow();
    const { story } = await findOrCreateStory(server.deps.db, {
      siteId: site.id,
      url: STORY,
      title: 'Rendered',
    });
    const users = await server.deps.db.selectFrom('users').select('id').execute();
    for (let i = 0; i < 3; i++) {
      await createComment(server.deps.db, {
        storyId: story.id,
        authorId: users[0]!.id,
        bodySource: `Rendered **${i}**`,
        bodyHtml: renderComment(`Rendered **${i}**`),
        createdAt: new Date(Date.now() - (3 - i) * 60_000).toISOString(),
      });
    }

    const response = await fetch(frameUrl(url, STORY), { headers: { 'accept-encoding': 'br' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-security-policy')).toContain('frame-ancestors');
    const html = await response.text(); // fetch decodes the Brotli body
    // The newest first, as the frame sorts; in the reader's language and theme.
    const bodies = [...html.matchAll(/<strong>(\d)<\/strong>/g)].map((m) => m[1]);
    expect(bodies).toEqual(['2', '1', '0']);
    expect(html).toMatch(/^<!doctype html><html lang="es" data-theme="dark"/i);
    expect(html).toContain('<style>');
    expect(html).toContain("document.getElementById('parley-root').inert=true");
    const data = JSON.parse(
      /<script type="application\/json" id="parley-data">(.*?)<\/script>/s.exec(html)![1]!,
    ) as { story: { comments: { edges: unknown[] } }; viewer: unknown };
    expect(data.story.comments.edges).toHaveLength(3);
    expect(data.viewer).toBeNull();

    // A browser that takes Brotli gets it, and a revalidation of the same page a 304.
    const raw = await fetch(frameUrl(url, STORY), {
      headers: { 'accept-encoding': 'br' },
    }).then(async (r) => ({
      encoding: r.headers.get('content-encoding'),
      etag: r.headers.get('etag'),
    }));
    expect(raw.encoding).toBe('br');
    const again = await fetch(frameUrl(url, STORY), {
      headers: { 'if-none-match': raw.etag! },
    });
    expect(again.status).toBe(304);
  });

  it('sets the host’s font and accent from the loader’s parameters, checked as the frame checks them', async () => {
    const page = (font: string) =>
      fetch(
        `${frameUrl(url, STORY)}&fontFamily=${encodeURIComponent(font)}&accentColor=%23c00`,
      ).then((r) => r.text());
    expect(await page('"Iowan Old Style", Georgia, serif')).toContain(
      'style="color-scheme:dark;--parley-font:&quot;Iowan Old Style&quot;, Georgia, serif;--parley-accent:#c00"',
    );
    // What could smuggle CSS in is left out, as applyTheme leaves it out.
    expect(await page('x;background:url(https://evil.example/)')).toContain(
      'style="color-scheme:dark;--parley-accent:#c00"',
    );
  });

  it('falls back to the static page when the story cannot be shown (not a permitted origin)', async () => {
    const response = await fetch(frameUrl(url, 'https://elsewhere.example/a'));
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).not.toContain('parley-data');
    expect(html).toContain('<main id="parley-root"></main>');
    expect(await findStoryByUrl(server.deps.db, 'https://elsewhere.example/a')).toBeUndefined();
  });
});
