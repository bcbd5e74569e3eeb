import { act } from 'react';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { ParleyCount } from './ParleyCount';

// <ParleyCount>: the count of each story, every count of one commit from one request (as
// count.js), the server's limit of URLs a request kept, and a failure that shows nothing.
const ROOT = 'https://comments.example';
const url = (n: number) => `https://app.example/articles/${n}`;

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let host: HTMLElement;
beforeEach(() => {
  host = document.body.appendChild(document.createElement('ul'));
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
  jest.restoreAllMocks();
});

/** Answers `commentCounts` with `count(url)` for each URL asked; records each request's URLs. */
function serve(count: (storyUrl: string) => number) {
  const asked: string[][] = [];
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    expect(String(input)).toBe(`${ROOT}/graphql`);
    const { variables } = JSON.parse(String(init?.body)) as { variables: { urls: string[] } };
    asked.push(variables.urls);
    return Response.json({ data: { commentCounts: variables.urls.map(count) } });
  });
  return asked;
}

const texts = () => [...host.querySelectorAll('li')].map((li) => li.textContent);

it('shows each story’s count, all of them from one request', async () => {
  const asked = serve((storyUrl) => Number(storyUrl.at(-1)));
  await act(async () =>
    root.render(
      <>
        <li>
          <ParleyCount rootURL={ROOT} storyURL={url(2)} />
        </li>
        <li>
          <ParleyCount rootURL={ROOT} storyURL={url(1)} />
        </li>
        <li>
          <ParleyCount rootURL={ROOT} storyURL={url(0)}>
            {(count) => `(${count})`}
          </ParleyCount>
        </li>
        <li>
          <ParleyCount rootURL={ROOT} storyURL={url(2)} />
        </li>
      </>,
    ),
  );
  expect(texts()).toEqual(['2 comments', '1 comment', '(0)', '2 comments']);
  // One request, each URL once.
  expect(asked).toEqual([[url(2), url(1), url(0)]]);
});

it("says it in the page's language, or the locale prop's, with that language's plural forms", async () => {
  serve((storyUrl) => Number(storyUrl.at(-1)));
  document.documentElement.lang = 'ru';
  try {
    await act(async () =>
      root.render(
        <>
          <li>
            <ParleyCount rootURL={ROOT} storyURL={url(2)} />
          </li>
          <li>
            <ParleyCount rootURL={ROOT} storyURL={url(5)} />
          </li>
          <li>
            <ParleyCount rootURL={ROOT} storyURL={url(1)} locale="de" />
          </li>
        </>,
      ),
    );
    expect(texts()).toEqual(['2 комментария', '5 комментариев', '1 Kommentar']);
  } finally {
    document.documentElement.lang = '';
  }
});

it('reads a relative story URL against the page, and a server with its trailing slash', async () => {
  const asked = serve(() => 4);
  await act(async () =>
    root.render(
      <li>
        <ParleyCount rootURL={`${ROOT}/`} storyURL="/articles/relative" />
      </li>,
    ),
  );
  expect(texts()).toEqual(['4 comments']);
  expect(asked).toEqual([[new URL('/articles/relative', document.baseURI).href]]);
});

it('asks at most 100 URLs a request, the server’s limit', async () => {
  const asked = serve(() => 3);
  await act(async () =>
    root.render(
      <>
        {Array.from({ length: 150 }, (_, i) => (
          <li key={i}>
            <ParleyCount rootURL={ROOT} storyURL={`${url(0)}-${i}`} />
          </li>
        ))}
      </>,
    ),
  );
  expect(asked.map((urls) => urls.length)).toEqual([100, 50]);
  expect(new Set(texts())).toEqual(new Set(['3 comments']));
});

it('shows nothing, and says why in the console, when the count cannot be had', async () => {
  jest
    .spyOn(globalThis, 'fetch')
    .mockResolvedValue(
      Response.json({ errors: [{ extensions: { code: 'RATE_LIMITED' } }] }, { status: 200 }),
    );
  const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
  await act(async () =>
    root.render(
      <li>
        <ParleyCount rootURL={ROOT} storyURL={url(1)} />
      </li>,
    ),
  );
  expect(texts()).toEqual(['']);
  expect(logged).toHaveBeenCalledWith('[parley] Could not load the comment count:', 'RATE_LIMITED');
});
