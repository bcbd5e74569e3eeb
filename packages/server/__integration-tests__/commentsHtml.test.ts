import { JSDOM } from 'jsdom';
import { createParleyServer } from '../src/createParleyServer';
import type { ParleyServer } from '../src/createParleyServer';
import { createComment } from '../src/db/store/comments';
import { createTestDatabase, testDialects } from '../src/db/testDatabases';
import type { TestDatabase } from '../src/db/testDatabases';
import { COMMENTS_HTML_PAGE, COMMENTS_HTML_REPLIES_EACH } from '../src/feeds/commentsHtml';
import { schemaOrgProblems } from '../src/feeds/testing/schemaOrgProblems';
import { loadConfig } from '../src/runtime/loadConfig';
import { createMemoryLogger } from '../src/runtime/testing/createTestYoga';
import { graphqlAs } from '../src/runtime/testing/graphqlAs';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';

// A story's comments as crawlable HTML, against the real server: the thread readers may see as
// nested articles, its schema.org JSON-LD valid, nothing in it able to run, kept in the read
// cache and dropped when the thread changes, paged by cursor, and every bad request coded.
const SITE = 'https://site.example';
const STORY_URL = `${SITE}/a-story`;
const TRICKY = 'Closing </script><script>alert(1)</script> and a line\u2028separator';

interface Fragment {
  status: number;
  headers: Headers;
  body: string;
  /** The fragment parsed as a host page would hold it. */
  root: Element;
  /** Its JSON-LD, parsed. */
  ld: Record<string, any> | undefined;
}

/** Each article's comment id, with its replies' (a tree of ids, as the markup nests them). */
type Tree = [string, Tree[]];
const treeOf = (parent: Element): Tree[] =>
  [...parent.children]
    .filter((child) => child.tagName === 'ARTICLE')
    .map((article) => [article.id.replace('parley-comment-', ''), treeOf(article)]);
/** The same tree, read from the JSON-LD's `comment` lists. */
const ldTreeOf = (node: Record<string, any>): Tree[] =>
  ((node['comment'] ?? []) as Record<string, any>[]).map((comment) => [
    new URL(comment['url']).searchParams.get('commentID') ?? '',
    ldTreeOf(comment),
  ]);

describe.each(testDialects())('comments as HTML on %s', (dialect) => {
  let database: TestDatabase;
  let server: ParleyServer;
  let url: string;
  let act: ReturnType<typeof graphqlAs>;
  let storyId: string;
  let authorId: string;
  const ids: Record<string, string> = {};

  const storyOf = async (storyUrl: string) =>
    (
      await act<{ story: { id: string } }>(`query ($url: String) { story(url: $url) { id } }`, {
        url: storyUrl,
      })
    ).story.id;
  const post = async (name: string, body: string, parentId?: string, story = storyId) => {
    const answer = await act<{ createComment: { comment: { id: string } } }>(
      `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`,
      { input: { storyId: story, body, ...(parentId ? { parentId } : {}) } },
    );
    ids[name] = answer.createComment.comment.id;
    // Apart in time: the fragment's order is the order of posting.
    await new Promise((resolve) => setTimeout(resolve, 5));
    return ids[name]!;
  };
  const get = async (query: string, init: RequestInit = {}): Promise<Fragment> => {
    const response = await fetch(`${url}/api/stories/comments.html?${query}`, init);
    const body = await response.text();
    const { document } = new JSDOM(`<!doctype html><body>${body}`).window;
    const ld = document.querySelector('script[type="application/ld+json"]')?.textContent;
    return {
      status: response.status,
      headers: response.headers,
      body,
      root: document.body,
      ld: ld ? JSON.parse(ld) : undefined,
    };
  };
  const of = (storyUrl: string, extra = '') =>
    `url=${encodeURIComponent(storyUrl)}${extra ? `&${extra}` : ''}`;

  beforeAll(async () => {
    database = await createTestDatabase(dialect, { sqliteFile: true });
    server = await createParleyServer({
      config: loadConfig({
        PORT: '0',
        PARLEY_DATA_DIR: database.dataDir,
        DATABASE_URL: dialect === 'postgres' ? database.url : undefined,
        LOG_LEVEL: 'silent',
      }),
      logger: createMemoryLogger().logger,
    });
    url = `http://127.0.0.1:${await server.listen()}`;
    act = graphqlAs(
      url,
      await installOverHttp(url, { site: SITE, password: 'correct horse battery' }),
    );
    storyId = await storyOf(STORY_URL);
    authorId = (await database.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
    const first = await post('first', 'The **first** one');
    const reply = await post('reply', 'A reply', first);
    await post('deep', 'A reply to the reply', reply);
    await post('tricky', TRICKY);
    const removed = await post('removed', 'Rejected later');
    await post('orphan', 'A reply to what was rejected', removed);
    await act(
      `mutation ($id: ID!) { rejectComment(input: { commentId: $id }) { comment { id } } }`,
      {
        id: removed,
      },
    );
    await createComment(database.db, {
      storyId,
      authorId,
      bodySource: 'Held',
      bodyHtml: '<p>Held</p>',
      status: 'PREMOD',
    });
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  it('holds the thread readers see as nested articles, with valid schema.org JSON-LD', async () => {
    const page = await get(of(`${STORY_URL}#comments`));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const section = page.root.firstElementChild!;
    expect([section.tagName, section.className, section.getAttribute('data-story-url')]).toEqual([
      'SECTION',
      'parley-comments',
      STORY_URL,
    ]);
    const thread: Tree[] = [
      [ids['first']!, [[ids['reply']!, [[ids['deep']!, []]]]]],
      [ids['tricky']!, []],
    ];
    // The rejected comment keeps its place for the reply readers still see, as in the frame.
    expect(treeOf(section)).toEqual([...thread, [ids['removed']!, [[ids['orphan']!, []]]]]);
    const removed = page.root.querySelector(`#parley-comment-${ids['removed']}`)!;
    expect(removed.querySelector(':scope > p')?.textContent).toBe('This comment was removed.');
    expect(removed.querySelector(':scope > header')).toBeNull();
    // Never what readers cannot see: the rejected text, the held comment.
    for (const hidden of ['Rejected later', 'Held']) expect(page.body).not.toContain(hidden);
    const first = page.root.querySelector(`#parley-comment-${ids['first']}`)!;
    expect(first.querySelector(':scope > header strong')?.textContent).toBe('admin');
    expect(first.querySelector(':scope > p')?.innerHTML).toBe('The <strong>first</strong> one');
    const link = first.querySelector<HTMLAnchorElement>(':scope > header a')!;
    expect(link.href).toBe(`${STORY_URL}?commentID=${ids['first']}`);
    expect(link.querySelector('time')?.getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);

    // Nothing in it runs: the one script is the JSON-LD, which the tricky text did not close.
    expect([...page.root.querySelectorAll('script')].map((s) => s.getAttribute('type'))).toEqual([
      'application/ld+json',
    ]);
    expect(page.root.querySelectorAll('[onerror], [onclick], iframe, style')).toHaveLength(0);
    const tricky = page.root.querySelector(`#parley-comment-${ids['tricky']}`)!;
    expect(tricky.textContent).toContain('</script><script>alert(1)</script>');

    expect(schemaOrgProblems(page.ld)).toEqual([]);
    // The removed comment is no schema.org Comment: it is left out there, with its reply.
    expect(ldTreeOf(page.ld!)).toEqual(thread);
    expect(page.ld).toMatchObject({
      '@type': 'DiscussionForumPosting',
      url: STORY_URL,
      headline: STORY_URL,
      author: { '@type': 'Organization', name: 'Example' },
      // The story's count (count.js's), the reply under the rejected comment included.
      commentCount: 5,
    });
    const texts = (page.ld!['comment'] as { text: string }[]).map((comment) => comment.text);
    expect(texts).toEqual(['The first one', TRICKY.replace('\u2028', ' ')]);
    const script = page.body.slice(page.body.indexOf('<script'));
    expect(script.match(/<\/script/g)).toEqual(['</script']);
    expect(script).not.toContain('\u2028');
  });

  it('goes out as a public document that runs nothing, with an ETag', async () => {
    const page = await get(of(STORY_URL));
    const headers = [
      'x-content-type-options',
      'content-security-policy',
      'access-control-allow-origin',
      'cache-control',
    ];
    expect(Object.fromEntries(headers.map((name) => [name, page.headers.get(name)]))).toEqual({
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'access-control-allow-origin': '*',
      'cache-control': 'public, max-age=60',
    });
    // Indexed as the article's, where it is included, not at this address.
    expect(page.headers.get('x-robots-tag')).toBe('noindex');
    const etag = page.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    const held = await get(of(STORY_URL), { headers: { 'if-none-match': etag } });
    expect([held.status, held.body]).toEqual([304, '']);
    const head = await get(of(STORY_URL), { method: 'HEAD' });
    expect([head.status, head.body]).toEqual([200, '']);
  });

  it('is kept in the read cache and dropped when the thread changes', async () => {
    const story = await storyOf(`${SITE}/cached`);
    const before = await get(of(`${SITE}/cached`));
    expect(treeOf(before.root.firstElementChild!)).toEqual([]);
    // Written behind the server's back (no event): the kept fragment still answers.
    const quiet = await createComment(database.db, {
      storyId: story,
      authorId,
      bodySource: 'Quiet',
      bodyHtml: '<p>Quiet</p>',
    });
    expect((await get(of(`${SITE}/cached`))).body).toBe(before.body);
    // Posted through the API: the story's kept reads are dropped, and both show.
    const loud = await post('loud', 'Loud', undefined, story);
    const after = await get(of(`${SITE}/cached`));
    expect(treeOf(after.root.firstElementChild!)).toEqual([
      [quiet.comment.id, []],
      [loud, []],
    ]);
  });

  it('pages the top-level comments by cursor, oldest first, linking the next page', async () => {
    const paged = `${SITE}/paged`;
    const story = await storyOf(paged);
    const made: string[] = [];
    for (let i = 0; i <= COMMENTS_HTML_PAGE; i++) {
      const { comment } = await createComment(database.db, {
        storyId: story,
        authorId,
        bodySource: `n${i}`,
        bodyHtml: `<p>n${i}</p>`,
      });
      made.push(comment.id);
      // Apart in time, so the order of posting is the order (ties would go by id).
      await new Promise((resolve) => setTimeout(resolve, 2));
      if (i === 0) {
        // A reply travels with its top-level comment, not as a page entry.
        await createComment(database.db, {
          storyId: story,
          authorId,
          parentId: comment.id,
          bodySource: 'r',
          bodyHtml: '<p>r</p>',
        });
      }
    }
    const first = await get(of(paged));
    const firstIds = treeOf(first.root.firstElementChild!).map(([id]) => id);
    expect(firstIds).toEqual(made.slice(0, COMMENTS_HTML_PAGE));
    const next = first.root.querySelector<HTMLAnchorElement>('nav a[rel="next"]')!;
    expect(new URL(next.href).pathname).toBe('/api/stories/comments.html');
    expect(first.ld!['commentCount']).toBe(COMMENTS_HTML_PAGE + 2);
    const second = await get(new URL(next.href).search.slice(1));
    expect(treeOf(second.root.firstElementChild!)).toEqual([[made.at(-1), []]]);
    expect(second.root.querySelector('nav')).toBeNull();
    expect(schemaOrgProblems(second.ld)).toEqual([]);
  });

  it('shows a comment’s first 20 replies, and links to it in the article for the rest', async () => {
    const busy = `${SITE}/busy`;
    const story = await storyOf(busy);
    const { comment: root } = await createComment(database.db, {
      storyId: story,
      authorId,
      bodySource: 'root',
      bodyHtml: '<p>root</p>',
    });
    for (let i = 0; i <= COMMENTS_HTML_REPLIES_EACH; i++) {
      await createComment(database.db, {
        storyId: story,
        authorId,
        parentId: root.id,
        bodySource: `r${i}`,
        bodyHtml: `<p>r${i}</p>`,
      });
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const page = await get(of(busy));
    const article = page.root.querySelector(`#parley-comment-${root.id}`)!;
    const replies = [...article.querySelectorAll(':scope > article > p')].map((p) => p.textContent);
    expect(replies).toEqual(Array.from({ length: COMMENTS_HTML_REPLIES_EACH }, (_, i) => `r${i}`));
    const more = article.querySelector<HTMLAnchorElement>(':scope > p > a')!;
    expect([more.textContent, more.href]).toEqual([
      'Continue this thread',
      `${busy}?commentID=${root.id}`,
    ]);
  });

  it('speaks the include’s language (`&locale=`), else the site’s, Arabic right to left', async () => {
    const story = `${SITE}/arabic`;
    const id = await storyOf(story);
    // Through the store: the API's limit on comments is spent by the tests before.
    const make = async (body: string, extra: { parentId?: string; status?: 'REJECTED' } = {}) =>
      (
        await createComment(database.db, {
          storyId: id,
          authorId,
          bodySource: body,
          bodyHtml: `<p>${body}</p>`,
          ...extra,
        })
      ).comment.id;
    const kept = await make('مرحبا');
    const gone = await make('Rejected', { status: 'REJECTED' });
    await make('رد', { parentId: gone });
    const arabic = await get(of(story, 'locale=ar'));
    const section = arabic.root.firstElementChild!;
    expect([section.getAttribute('lang'), section.getAttribute('dir')]).toEqual(['ar', 'rtl']);
    expect(arabic.root.querySelector(`#parley-comment-${gone} > p`)?.textContent).toBe(
      'تمت إزالة هذا التعليق.',
    );
    expect(treeOf(section).map(([id]) => id)).toContain(kept);
    // Each language kept apart in the read cache: English again after Arabic.
    const english = await get(of(story));
    expect(english.root.firstElementChild!.getAttribute('lang')).toBe('en');
    expect(english.root.querySelector(`#parley-comment-${gone} > p`)?.textContent).toBe(
      'This comment was removed.',
    );
    // As the frame: the page's language after the option (and the site's setting, empty here).
    const langOf = async (extra: string) =>
      (await get(of(story, extra))).root.firstElementChild!.getAttribute('lang');
    expect([await langOf('lang=he'), await langOf('locale=fr&lang=he')]).toEqual(['he', 'fr']);
    // A tag without text goes by its language, else to the site's setting.
    expect(
      (await get(of(story, 'locale=ar-EG'))).root.firstElementChild!.getAttribute('lang'),
    ).toBe('ar');
    expect((await get(of(story, 'locale=sv'))).root.firstElementChild!.getAttribute('lang')).toBe(
      'en',
    );
  });

  it('keeps no answer for a story nobody opened: once opened, its comments show', async () => {
    const fresh = `${SITE}/opened-later`;
    expect(treeOf((await get(of(fresh))).root.firstElementChild!)).toEqual([]);
    const story = await storyOf(fresh);
    const id = await post('fresh', 'The first word', undefined, story);
    expect(treeOf((await get(of(fresh))).root.firstElementChild!)).toEqual([[id, []]]);
  });

  it('answers what it cannot serve with a coded error, and never creates a story', async () => {
    const refusal = async (query: string) => {
      const page = await get(query);
      return [page.status, page.headers.get('content-type'), page.body.split(':')[0]];
    };
    const text = 'text/plain; charset=utf-8';
    expect(await refusal('')).toEqual([400, text, 'INVALID_INPUT']);
    expect(await refusal('url=javascript%3Aalert(1)')).toEqual([400, text, 'INVALID_INPUT']);
    expect(await refusal(of(STORY_URL, 'after=not-a-cursor'))).toEqual([
      400,
      text,
      'INVALID_INPUT',
    ]);
    // A story nobody opened: an empty container, so an include never breaks the host's page.
    const never = await get(of(`${SITE}/never`));
    expect([never.status, never.body]).toEqual([
      200,
      `<section class="parley-comments" lang="en" dir="ltr" data-story-url="${SITE}/never"></section>`,
    ]);
    const stories = await database.db
      .selectFrom('stories')
      .select('id')
      .where('url', '=', `${SITE}/never`)
      .execute();
    expect(stories).toEqual([]);
    await act(
      `mutation { updateSettings(input: { anonymousReading: false }) { settings { anonymousReading } } }`,
    );
    try {
      expect(await refusal(of(STORY_URL))).toEqual([401, text, 'UNAUTHENTICATED']);
    } finally {
      await act(
        `mutation { updateSettings(input: { anonymousReading: true }) { settings { anonymousReading } } }`,
      );
    }
  });

  it('holds the JSON-LD to rules that a broken one breaks (the checker can fail)', () => {
    expect(
      schemaOrgProblems({
        '@context': 'https://schema.org',
        '@type': 'DiscussionForumPosting',
        headline: 'h',
        text: 't',
        url: '/relative',
        datePublished: '2026-11-27',
        author: { '@type': 'Person' },
        commentCount: 0,
        comment: [
          { '@type': 'Review', text: 'x' },
          { '@type': 'Comment', rating: 5 },
        ],
      }),
    ).toEqual([
      'root.author: has no name',
      'root: datePublished is not an ISO 8601 date-time with a time zone',
      'root: url is not an absolute http(s) URL',
      'root.comment[0]: @type "Review" is not Comment',
      'root.comment[1]: Comment has no property rating',
      'root.comment[1].author: is not an object',
      'root.comment[1]: datePublished is not an ISO 8601 date-time with a time zone',
      'root.comment[1]: has no text',
      'root.comment[1]: url is not an absolute http(s) URL',
      'root: commentCount 0 does not cover the 1 comments listed',
    ]);
  });
});
