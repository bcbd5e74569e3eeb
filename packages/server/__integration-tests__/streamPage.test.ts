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
import { hashSource } from '../src/runtime/documentSecurity';
import { graphqlAt } from '../src/runtime/testing/postingClients';

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
    expect(html).toMatch(/^<!doctype html><html lang="es" dir="ltr" data-theme="dark"/i);
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

  it('allows by hash only the inline code it wrote: markup planted in a comment is not', async () => {
    // Straight into storage, past the sanitizer: what the CSP must stop if it ever got through.
    const site = await server.deps.db.selectFrom('sites').select('id').executeTakeFirstOrThrow();
    const { story } = await findOrCreateStory(server.deps.db, {
      siteId: site.id,
      url: `${SITE}/articles/planted`,
      title: 'Planted',
    });
    const [user] = await server.deps.db.selectFrom('users').select('id').execute();
    const planted = {
      script: 'window.planted=1',
      style: 'main{display:none}',
      attribute: 'color:red',
    };
    await createComment(server.deps.db, {
      storyId: story.id,
      authorId: user!.id,
      bodySource: 'planted',
      bodyHtml: `<p style="${planted.attribute}">x<script>${planted.script}</script><style>${planted.style}</style><img src="x" onerror="window.planted=2"></p>`,
      createdAt: new Date().toISOString(),
    });
    const response = await fetch(
      `${frameUrl(url, `${SITE}/articles/planted`)}&fontFamily=${encodeURIComponent('"Iowan Old Style", serif')}`,
    );
    const html = await response.text();
    expect(html).toContain(`<script>${planted.script}</script>`);
    const csp = response.headers.get('content-security-policy')!;
    const directive = (name: string) =>
      csp
        .split('; ')
        .find((d) => d.startsWith(`${name} `))!
        .split(' ')
        .slice(1);
    expect(csp).not.toContain('unsafe-inline');

    // The page's own inline code, as the browser reads it, each allowed by its hash.
    const own = html.replace(/<main id="parley-root">[\s\S]*<\/main>/, '');
    const scripts = [...own.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    const styles = [...own.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    const rootStyle = /<html [^>]*style="([^"]*)"/.exec(html)![1]!.replace(/&quot;/g, '"');
    expect(scripts).toHaveLength(2);
    expect(styles).toHaveLength(2);
    expect(directive('script-src')).toEqual(["'self'", ...scripts.map(hashSource)]);
    expect(directive('style-src')).toEqual(["'self'", ...styles.map(hashSource)]);
    expect(directive('style-src-attr')).toEqual(["'unsafe-hashes'", hashSource(rootStyle)]);
    // Nothing of the comment's.
    expect(csp).not.toContain(hashSource(planted.script));
    expect(csp).not.toContain(hashSource(planted.style));
    expect(csp).not.toContain(hashSource(planted.attribute));
    expect(directive('default-src')).toEqual(["'none'"]);
    expect(directive('frame-ancestors')).toEqual(["'self'", expect.any(String), SITE]);
  });

  it("renders in the option's language, else the site's setting, else the page's (right to left for Arabic)", async () => {
    const signIn = await graphqlAt(
      url,
      'mutation { signIn(input: { email: "admin@example.com", password: "correct horse battery" }) { token } }',
    );
    const asAdmin = { authorization: `Bearer ${signIn.data.signIn.token as string}` };
    const setLocale = (locale: string) =>
      graphqlAt(
        url,
        'mutation ($input: UpdateSettingsInput!) { updateSettings(input: $input) { settings { locale } } }',
        { input: { locale } },
        asAdmin,
      );
    const page = (query: string) =>
      fetch(
        `${url}/embed/stream?storyURL=${encodeURIComponent(STORY)}&origin=${encodeURIComponent(SITE)}${query}`,
      ).then((r) => r.text());
    const opening = (html: string) =>
      /^<!doctype html><html lang="([^"]*)" dir="([^"]*)"/i.exec(html)?.slice(1);

    // The default setting is empty: each page's own language (the loader's `lang`).
    const arabic = await page('&lang=ar');
    expect(opening(arabic)).toEqual(['ar', 'rtl']);
    expect(arabic).toContain('كتابة تعليق'); // the composer's label
    // The text only a page without JavaScript shows, in the page's language too.
    expect(arabic).toContain('<noscript><p class="parley-notice">');
    expect(arabic).not.toContain('Posting a comment needs JavaScript.');
    // Its catalog loads beside the script (modulepreload), kept a year under its hashed folder.
    const catalog = /"(\/embed\/assets\/catalogs-[0-9a-f]{10}\/ar\.js)"/.exec(arabic)?.[1];
    expect(catalog).toBeDefined();
    const chunk = await fetch(`${url}${catalog}`);
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await chunk.text()).toContain('كتابة تعليق');
    const english = await page('&lang=xx');
    expect(opening(english)).toEqual(['en', 'ltr']);
    expect(english).not.toContain('/catalogs-');

    expect((await setLocale('fr')).errors).toBeUndefined();
    try {
      const french = await page('&lang=ar');
      expect(opening(french)).toEqual(['fr', 'ltr']);
      expect(french).toContain('Écrire un commentaire');
      // The option comes before the setting.
      expect(opening(await page('&lang=ar&locale=he'))).toEqual(['he', 'rtl']);
    } finally {
      await setLocale('');
    }
  });

  it('allows the custom stylesheet’s origin on the stream’s pages, and only there', async () => {
    const signIn = await graphqlAt(
      url,
      'mutation { signIn(input: { email: "admin@example.com", password: "correct horse battery" }) { token } }',
    );
    const asAdmin = { authorization: `Bearer ${signIn.data.signIn.token as string}` };
    const setCustomCss = (address: string) =>
      graphqlAt(
        url,
        'mutation ($input: UpdateSettingsInput!) { updateSettings(input: $input) { settings { customCssUrl } } }',
        { input: { customCssUrl: address } },
        asAdmin,
      );
    const saved = await setCustomCss('https://cdn.example/theme.css');
    expect(saved.errors).toBeUndefined();
    try {
      const rendered = await fetch(frameUrl(url, STORY));
      expect(rendered.headers.get('content-security-policy')).toMatch(
        /style-src 'self'[^;]* https:\/\/cdn\.example;/,
      );
      // The static page (a story that cannot be rendered) too; the console not.
      const fallback = await fetch(
        `${url}/embed/stream?storyURL=${encodeURIComponent('https://elsewhere.example/a')}`,
      );
      expect(fallback.headers.get('content-security-policy')).toContain(
        "style-src 'self' https://cdn.example;",
      );
      const console = await fetch(`${url}/admin`);
      expect(console.headers.get('content-security-policy')).toContain("style-src 'self';");
    } finally {
      await setCustomCss('');
    }
  });

  it('falls back to the static page when the story cannot be shown (not a permitted origin)', async () => {
    const response = await fetch(frameUrl(url, 'https://elsewhere.example/a'));
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).not.toContain('parley-data');
    expect(html).toContain('<main id="parley-root"></main>');
    expect(await findStoryByUrl(server.deps.db, 'https://elsewhere.example/a')).toBeUndefined();
  });

  it('names only files with a hash in their name, which go out a year-immutable, precompressed', async () => {
    const page = await (await fetch(frameUrl(url, STORY))).text();
    const popup = await (await fetch(`${url}/embed/auth`)).text();
    const admin = await (await fetch(`${url}/admin`)).text();
    // In attributes, and in the rendered page's loader (which adds the script after the paint).
    const named = [page, popup, admin].flatMap((html) =>
      [...html.matchAll(/(?:href|src|data-panels)="(\/[^"]+\.(?:js|css))"|"(\/[^"]+\.js)"/g)].map(
        (m) => (m[1] ?? m[2])!,
      ),
    );
    // The stream's script, its panels' stylesheet and the storage chunk it reads the token with
    // (preloaded); the popup's script and stylesheets; the console's.
    expect(named).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/embed\/assets\/stream-[\w-]{8}\.js$/),
        expect.stringMatching(/^\/embed\/assets\/panels-[\w-]{8}\.css$/),
        expect.stringMatching(/^\/embed\/assets\/chunks\/stream-createStorage-[\w-]{8}\.js$/),
        expect.stringMatching(/^\/embed\/assets\/auth-[\w-]{8}\.js$/),
        expect.stringMatching(/^\/embed\/assets\/auth-[\w-]{8}\.css$/),
        expect.stringMatching(/^\/admin\/assets\/main-[\w-]{8}\.js$/),
        expect.stringMatching(/^\/admin\/assets\/admin-[\w-]{8}\.css$/),
      ]),
    );
    // The rendered page adds its script and that chunk once the thread is painted.
    expect(page).not.toMatch(/<script type="module"/);
    expect(page).toMatch(
      /"\/embed\/assets\/chunks\/stream-createStorage-[\w-]{8}\.js".*rel:'modulepreload'.*type:'module',src:"\/embed\/assets\/stream-[\w-]{8}\.js".*requestAnimationFrame.*setTimeout\(\(\)=>go\(\),100\)/,
    );
    for (const path of new Set(named)) {
      const response = await fetch(url + path, { headers: { 'accept-encoding': 'br, gzip' } });
      expect([path, response.status]).toEqual([path, 200]);
      expect([path, response.headers.get('cache-control')]).toEqual([
        path,
        'public, max-age=31536000, immutable',
      ]);
      expect([path, response.headers.get('content-encoding')]).toEqual([path, 'br']);
      expect(response.headers.get('vary')).toBe('Accept-Encoding');
    }
    // The loader keeps its fixed name, and with it a short life and an ETag.
    const embed = await fetch(`${url}/embed.js`);
    expect(embed.headers.get('cache-control')).toBe('public, max-age=300');
    expect(embed.headers.get('etag')).toBeTruthy();
  });

  describe('permalinks, the site’s sort and deep threads', () => {
    const DEEP = `${SITE}/articles/deep`;
    const ids: string[] = [];
    const page = async (extra: string) => {
      const html = await (await fetch(`${frameUrl(url, DEEP)}${extra}`)).text();
      const data = JSON.parse(
        /<script type="application\/json" id="parley-data">(.*?)<\/script>/s.exec(html)![1]!,
      ) as {
        permalink?: { id: string };
        story: { comments: { edges: { node: { id: string } }[] } };
      };
      return { html, data, top: data.story.comments.edges.map((e) => e.node.id) };
    };
    beforeAll(async () => {
      const site = await server.deps.db.selectFrom('sites').select('id').executeTakeFirstOrThrow();
      const { story } = await findOrCreateStory(server.deps.db, {
        siteId: site.id,
        url: DEEP,
        title: 'Deep',
      });
      const [user] = await server.deps.db.selectFrom('users').select('id').execute();
      // 22 top-level comments (the first page shows 20), then a chain of replies five deep
      // under the newest: levels 0–2 are on the page, level 3 waits behind "Continue".
      const add = async (n: number, parentId: string | null) => {
        const { comment } = await createComment(server.deps.db, {
          storyId: story.id,
          authorId: user!.id,
          parentId,
          bodySource: `Deep ${n}`,
          bodyHtml: renderComment(`Deep ${n}`),
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
        });
        ids[n] = comment.id;
      };
      for (let n = 0; n < 22; n++) await add(n, null);
      for (let n = 22; n < 27; n++) await add(n, ids[n === 22 ? 21 : n - 1]!);
    });

    it('orders the first page by the loader’s sort, and pages in it', async () => {
      const oldest = await page('&sort=CREATED_AT_ASC');
      expect(oldest.top.slice(0, 3)).toEqual([ids[0], ids[1], ids[2]]);
      expect(oldest.top).toHaveLength(20);
      const next = /<a class="parley-more" href="\?([^"]+)">Más comentarios<\/a>/.exec(oldest.html);
      const second = await page(`&${next![1]!.replace(/&amp;/g, '&')}`);
      expect(second.top).toEqual([ids[20], ids[21]]);
      // An unknown sort is the default one.
      expect((await page('&sort=DROP')).top[0]).toBe(ids[21]);
    });

    it('marks a permalinked comment on the page, and shows one that is not above the thread', async () => {
      const onPage = await page(`&commentID=${ids[23]}`);
      expect(onPage.html).toContain(`id="parley-c-${ids[23]}"`);
      expect(onPage.html).toContain(
        `id="parley-c-${ids[23]}" class="parley-comment parley-current"`,
      );
      expect(onPage.html).not.toContain('parley-focus');
      expect(onPage.data.permalink).toBeUndefined();

      // The oldest is on the second page: the page shows it above the thread, as the frame would
      // after asking for it, and hands it to the frame so it does not ask.
      const offPage = await page(`&commentID=${ids[0]}`);
      expect(offPage.html).toContain('class="parley-focus"');
      expect(offPage.html).toContain(`id="parley-c-${ids[0]}"`);
      expect(offPage.data.permalink?.id).toBe(ids[0]);
      // A comment that does not exist leaves the thread as it is; so does one of another story.
      const missing = await page('&commentID=no-such-comment');
      expect(missing.html).not.toContain('parley-focus');
      expect(missing.top).toHaveLength(20);
      const site = await server.deps.db.selectFrom('sites').select('id').executeTakeFirstOrThrow();
      const { story: other } = await findOrCreateStory(server.deps.db, {
        siteId: site.id,
        url: `${SITE}/articles/other`,
        title: 'Other',
      });
      const [user] = await server.deps.db.selectFrom('users').select('id').execute();
      const { comment: foreign } = await createComment(server.deps.db, {
        storyId: other.id,
        authorId: user!.id,
        bodySource: 'Elsewhere',
        bodyHtml: renderComment('Elsewhere'),
      });
      for (const param of ['commentID', 'thread']) {
        const elsewhere = await page(`&${param}=${foreign.id}`);
        expect([param, elsewhere.html.includes('Elsewhere')]).toEqual([param, false]);
        expect(elsewhere.top).toHaveLength(20);
      }
    });

    it('links "Continue this thread" for readers without JavaScript, to a page of that comment', async () => {
      // 21 is at level 0, 22 at 1, 23 at 2: the replies of 23 wait behind "Continue".
      const continueLink = (html: string, id: string) =>
        new RegExp(
          `<button data-continue="${id}"[^>]*>Seguir este hilo</button><noscript><a class="parley-link" href="\\?([^"]+)">Seguir este hilo</a></noscript>`,
        ).exec(html)?.[1];
      const first = await page('');
      for (const n of [21, 22, 23]) expect(first.html).toContain(`id="parley-c-${ids[n]}"`);
      expect(first.html).not.toContain(`id="parley-c-${ids[24]}"`);
      const query = continueLink(first.html, ids[23]!)!.replace(/&amp;/g, '&');
      expect(new URLSearchParams(query).get('thread')).toBe(ids[23]);
      // That page: 23 and its replies, two levels, then "Continue" again; nothing else.
      const continued = await (await fetch(`${url}/embed/stream?${query}`)).text();
      for (const n of [23, 24, 25]) expect(continued).toContain(`id="parley-c-${ids[n]}"`);
      expect(continued).not.toContain(`id="parley-c-${ids[26]}"`);
      expect(continueLink(continued, ids[25]!)).toBeDefined();
      expect(continued).not.toContain(`id="parley-c-${ids[21]}"`);
      // And back to the whole thread.
      const back = /<a class="parley-more" href="\?([^"]+)">Todos los comentarios<\/a>/.exec(
        continued,
      );
      expect(new URLSearchParams(back![1]!.replace(/&amp;/g, '&')).get('thread')).toBeNull();
    });
  });
});
