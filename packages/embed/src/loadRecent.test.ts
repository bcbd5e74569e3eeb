import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { RECENT_DOCUMENT_ID } from './defaults';
import { loadRecent } from './loadRecent';
import type { ParleyGlobal } from './parleyGlobal';

const ROOT = 'https://comments.example';

interface Asked {
  extensions: unknown;
  variables: { siteId?: string; storyURL?: string; first: number };
}
const requests: Asked[] = [];

const comment = (id: string, body: string, story = 'https://news.example/a?p=1') => ({
  id,
  body,
  createdAt: '2026-11-20T10:00:00.000Z',
  author: { username: `author-${id}` },
  story: { url: story, title: story.endsWith('b') ? null : 'Article A' },
});

const server = setupServer(
  http.post(`${ROOT}/graphql`, async ({ request }) => {
    const body = (await request.json()) as Asked;
    requests.push(body);
    const all = [
      // Markup and a script in the sanitized HTML come out as text, never as elements.
      comment('c1', '<p>Hello <strong>there</strong> <img src="x" onerror="alert(1)"></p>'),
      comment('c2', `<p>${'long '.repeat(60)}</p>`, 'https://news.example/b'),
      comment('c3', '<p>Third</p>'),
    ];
    return HttpResponse.json({ data: { recentComments: all.slice(0, body.variables.first) } });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  requests.length = 0;
  jest.restoreAllMocks();
});
afterAll(() => server.close());

beforeEach(() => {
  document.head.innerHTML = '<base href="https://news.example/">';
  document.documentElement.lang = 'en';
  document.body.innerHTML = `
    <div id="site" class="parley-recent" data-site="site-1" data-count="2">No comments yet</div>
    <div id="story" class="parley-recent" data-story-url="/a?p=1" data-count="50"></div>`;
});

const items = (selector: string) => [
  ...document.querySelectorAll<HTMLLIElement>(`${selector} .parley-recent-item`),
];

it('lists a site’s latest comments: author, date, the start of the text linking to it, the story', async () => {
  await loadRecent({ rootURL: ROOT });
  expect(requests).toEqual([
    {
      // The trusted document's id, never the text (a production server refuses text).
      extensions: { persistedQuery: { documentId: RECENT_DOCUMENT_ID } },
      variables: { siteId: 'site-1', first: 2 },
    },
    {
      extensions: { persistedQuery: { documentId: RECENT_DOCUMENT_ID } },
      // Relative story URLs read like links; data-count is capped at the server's 20.
      variables: { storyURL: 'https://news.example/a?p=1', first: 20 },
    },
  ]);
  const [first, second] = items('#site');
  expect(items('#site')).toHaveLength(2);
  // Readable without any style: the text, then who, when and where.
  expect(first!.textContent).toBe('Hello there author-c1 · Nov 20, 2026 · Article A');
  expect(first!.querySelector('.parley-recent-author')!.textContent).toBe('author-c1');
  const time = first!.querySelector('time')!;
  expect(time.dateTime).toBe('2026-11-20T10:00:00.000Z');
  expect(time.textContent).toBe('Nov 20, 2026');
  const text = first!.querySelector<HTMLAnchorElement>('a.parley-recent-text')!;
  expect(text.textContent).toBe('Hello there');
  expect(text.href).toBe('https://news.example/a?p=1&commentID=c1');
  expect(document.querySelector('#site img, #site strong')).toBeNull();
  const story = first!.querySelector<HTMLAnchorElement>('a.parley-recent-story')!;
  expect([story.textContent, story.href]).toEqual(['Article A', 'https://news.example/a?p=1']);
  // Long text is cut, with an ellipsis; a story without a title shows its URL.
  const cut = second!.querySelector('.parley-recent-text')!.textContent!;
  expect(cut).toHaveLength(160);
  expect(cut.endsWith('long…')).toBe(true);
  expect(second!.querySelector('.parley-recent-story')!.textContent).toBe('https://news.example/b');
  // A story's own list does not name the story.
  expect(items('#story')).toHaveLength(3);
  expect(document.querySelector('#story .parley-recent-story')).toBeNull();
});

it('keeps the site’s own text when there is nothing to list', async () => {
  server.use(
    http.post(`${ROOT}/graphql`, () => HttpResponse.json({ data: { recentComments: [] } })),
  );
  await loadRecent({ rootURL: ROOT });
  expect(document.querySelector('#site')!.textContent).toBe('No comments yet');
});

it("logs the server's error code and leaves the element alone", async () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => {});
  server.use(
    http.post(`${ROOT}/graphql`, () =>
      HttpResponse.json({
        data: null,
        errors: [{ message: 'There is no such site.', extensions: { code: 'NOT_FOUND' } }],
      }),
    ),
  );
  await loadRecent({ rootURL: ROOT });
  expect(document.querySelector('#site')!.textContent).toBe('No comments yet');
  expect(error).toHaveBeenCalledWith('[parley] Could not load the latest comments:', 'NOT_FOUND');
});

it('recent.js fills the page on load and Parley.recent.reload() scans again', async () => {
  document.body.insertAdjacentHTML('beforeend', `<script src="${ROOT}/recent.js"></script>`);
  await jest.isolateModulesAsync(async () => {
    await import('./recent');
  });
  const { recent } = (window as { Parley?: ParleyGlobal }).Parley!;
  await recent!.reload();
  expect(items('#site')).toHaveLength(2);
  document.body.insertAdjacentHTML(
    'beforeend',
    '<div id="late" class="parley-recent" data-site="site-1"></div>',
  );
  await recent!.reload();
  // Without data-count: 5 asked (the server here has 3).
  expect(requests.at(-1)!.variables).toEqual({ siteId: 'site-1', first: 5 });
  expect(items('#late')).toHaveLength(3);
  // Each scan asks once per list: the load-time scan's 2, then 2, then 3.
  expect(requests).toHaveLength(7);
  delete (window as { Parley?: ParleyGlobal }).Parley;
});
