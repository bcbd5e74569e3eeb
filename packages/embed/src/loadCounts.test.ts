import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { COUNTS_DOCUMENT_ID } from './defaults';
import { loadCounts } from './loadCounts';
import type { ParleyGlobal } from './parleyGlobal';

const ROOT = 'https://comments.example';
const COUNTS: Record<string, number> = {
  'https://news.example/a': 0,
  'https://news.example/b': 1,
  'https://news.example/c': 12,
};

const requests: { extensions: unknown; variables: { urls: string[] } }[] = [];
const server = setupServer(
  http.post(`${ROOT}/graphql`, async ({ request }) => {
    const body = (await request.json()) as (typeof requests)[number];
    requests.push(body);
    return HttpResponse.json({
      data: { commentCounts: body.variables.urls.map((url) => COUNTS[url] ?? 0) },
    });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  requests.length = 0;
  jest.restoreAllMocks();
});
afterAll(() => server.close());

const text = (selector: string) => document.querySelector(selector)!.textContent;

beforeEach(() => {
  // Relative story URLs resolve like links: against the page's base URL.
  document.head.innerHTML = '<base href="https://news.example/">';
  document.body.innerHTML = `
    <span id="a" class="parley-count" data-story-url="https://news.example/a"></span>
    <span id="b" class="parley-count" data-story-url="https://news.example/b"></span>
    <span id="c" class="parley-count" data-story-url="/c">…</span>
    <span id="n" class="parley-count" data-story-url="https://news.example/c" data-parley-notext></span>
    <span id="none" class="parley-count">–</span>`;
});

it('fills every count from one request, with English plurals and number-only on request', async () => {
  await loadCounts({ rootURL: ROOT });
  expect(requests).toEqual([
    {
      // The trusted document's id, never the text (a production server refuses text).
      extensions: { persistedQuery: { documentId: COUNTS_DOCUMENT_ID } },
      variables: {
        urls: [
          'https://news.example/a',
          'https://news.example/b',
          'https://news.example/c',
          'https://news.example/c',
        ],
      },
    },
  ]);
  expect(text('#a')).toBe('0 comments');
  expect(text('#b')).toBe('1 comment');
  expect(text('#c')).toBe('12 comments');
  expect(text('#n')).toBe('12');
  expect(text('#none')).toBe('–');
});

it('sends nothing when the page has no counts', async () => {
  document.body.innerHTML = '<p>No links here</p>';
  await loadCounts({ rootURL: ROOT });
  expect(requests).toHaveLength(0);
});

it("logs the server's error code and leaves the text alone", async () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => {});
  server.use(
    http.post(`${ROOT}/graphql`, () =>
      HttpResponse.json({
        data: null,
        errors: [{ message: 'Too many requests', extensions: { code: 'RATE_LIMITED' } }],
      }),
    ),
  );
  await loadCounts({ rootURL: ROOT });
  expect(text('#c')).toBe('…');
  expect(error).toHaveBeenCalledWith('[parley] Could not load comment counts:', 'RATE_LIMITED');
});

it('count.js fills the page on load and Parley.count.reload() scans again', async () => {
  document.body.insertAdjacentHTML('beforeend', `<script src="${ROOT}/count.js"></script>`);
  await jest.isolateModulesAsync(async () => {
    await import('./count');
  });
  const { count } = (window as { Parley?: ParleyGlobal }).Parley!;
  await count!.reload();
  expect(text('#b')).toBe('1 comment');

  document.body.insertAdjacentHTML(
    'beforeend',
    '<span id="late" class="parley-count" data-story-url="https://news.example/c"></span>',
  );
  await count!.reload();
  expect(text('#late')).toBe('12 comments');
  // The load-time scan, the first reload and the second: one request each.
  expect(requests).toHaveLength(3);
  expect(requests[2]!.variables.urls).toHaveLength(5);
  delete (window as { Parley?: ParleyGlobal }).Parley;
});
