import { createStreamEmbed } from './createStreamEmbed';
import type { StreamEmbed, StreamEmbedOptions } from './createStreamEmbed';
import { PARLEY_NAMESPACE, STREAM_PATH, createMessage } from '@parley/contract';
import type { FrameToHost, HostToFrame } from '@parley/contract';

const ROOT = 'https://comments.example';

let embed: StreamEmbed | undefined;

const container = () => document.getElementById('parley-thread')!;
const frame = () => container().querySelector('iframe')!;
const create = (options: Partial<StreamEmbedOptions> = {}) =>
  (embed = createStreamEmbed({ rootURL: ROOT, ...options }));

/** A message from the frame, as the browser delivers it (source and origin by default ours). */
function fromFrame<K extends keyof FrameToHost>(
  type: K,
  payload: FrameToHost[K],
  init: MessageEventInit = {},
) {
  window.dispatchEvent(
    new MessageEvent('message', {
      data: createMessage<FrameToHost, K>(type, payload),
      origin: ROOT,
      source: frame().contentWindow,
      ...init,
    }),
  );
}

/** A message the loader sends to the frame. */
const toFrame = <K extends keyof HostToFrame>(type: K, payload: HostToFrame[K]) =>
  createMessage<HostToFrame, K>(type, payload);

/** What the loader posted to the frame: [message, targetOrigin] pairs. */
function postsTo(iframe: HTMLIFrameElement) {
  return jest.spyOn(iframe.contentWindow!, 'postMessage') as unknown as jest.Mock<
    void,
    [unknown, string]
  >;
}

/** IntersectionObserver is missing from jsdom: a controllable stand-in. */
class FakeIntersectionObserver {
  static last: FakeIntersectionObserver | undefined;
  observed: Element[] = [];
  disconnected = false;
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options?: IntersectionObserverInit,
  ) {
    FakeIntersectionObserver.last = this;
  }
  observe(element: Element) {
    this.observed.push(element);
  }
  disconnect() {
    this.disconnected = true;
  }
  intersect(isIntersecting: boolean) {
    this.callback(
      [{ isIntersecting, target: this.observed[0] } as IntersectionObserverEntry],
      this as unknown as IntersectionObserver,
    );
  }
}

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '<div id="parley-thread"></div>';
  history.replaceState(null, '', '/articles/one?page=2#top');
});

afterEach(() => {
  embed?.remove();
  embed = undefined;
  jest.restoreAllMocks();
  delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
  delete (window as { matchMedia?: unknown }).matchMedia;
});

describe('the iframe', () => {
  it('is one titled, borderless frame on the stream page with the story parameters, its server preconnected', () => {
    document.head.innerHTML = '<link rel="canonical" href="https://news.example/articles/one">';
    const element = container();
    element.dataset.storyId = 'story-1';
    element.dataset.locale = 'es';
    element.dataset.customCssUrl = 'https://news.example/parley.css';
    create();

    expect(element.querySelectorAll('iframe')).toHaveLength(1);
    const iframe = frame();
    expect(iframe.title).toBe('Comments');
    // Made when its container nears the screen, so not lazy itself (it would wait for a layout).
    expect(iframe.hasAttribute('loading')).toBe(false);
    const preconnect = document.head.querySelector<HTMLLinkElement>('link[rel="preconnect"]');
    expect(preconnect?.href).toBe(`${new URL(ROOT).origin}/`);
    expect(iframe.style.width).toBe('100%');
    expect(iframe.style.borderWidth || iframe.style.border).toMatch(/^0/);
    const src = new URL(iframe.src);
    expect(src.origin + src.pathname).toBe(ROOT + STREAM_PATH);
    expect(Object.fromEntries(src.searchParams)).toEqual({
      storyURL: 'https://news.example/articles/one',
      storyID: 'story-1',
      origin: location.origin,
      theme: 'light',
      locale: 'es',
      customCSSURL: 'https://news.example/parley.css',
    });
  });

  it('uses the page URL without its hash and its commentID as the story, and opens that comment', () => {
    history.replaceState(null, '', '/articles/one?page=2&commentID=c-42#top');
    create();
    const params = new URL(frame().src).searchParams;
    expect(params.get('storyURL')).toBe(`${location.origin}/articles/one?page=2`);
    expect(params.get('commentID')).toBe('c-42');
  });

  it("passes the page's language, which the frame takes when no locale option or site setting names one", () => {
    document.documentElement.lang = 'pt-PT';
    try {
      create();
      const params = new URL(frame().src).searchParams;
      expect(params.get('lang')).toBe('pt-PT');
      expect(params.has('locale')).toBe(false);
    } finally {
      document.documentElement.lang = '';
    }
  });

  it('passes the page title, so a story created on first use is named', () => {
    document.title = 'Budget day';
    try {
      create();
      expect(new URL(frame().src).searchParams.get('storyTitle')).toBe('Budget day');
    } finally {
      document.title = '';
    }
  });

  it('lets code options win over data attributes, and a rootURL with a path keep it', () => {
    container().dataset.storyUrl = 'https://news.example/from-data';
    container().dataset.theme = 'dark';
    create({ rootURL: `${ROOT}/parley/`, storyURL: 'https://news.example/from-code' });
    const src = new URL(frame().src);
    expect(src.pathname).toBe(`/parley${STREAM_PATH}`);
    expect(src.searchParams.get('storyURL')).toBe('https://news.example/from-code');
    expect(src.searchParams.get('theme')).toBe('dark');
  });
});

describe('setStory', () => {
  it('sends another story to the same frame, at the server’s origin', () => {
    create();
    const iframe = frame();
    const posted = postsTo(iframe);
    embed!.setStory({ storyURL: 'https://news.example/two', storyID: 'two', storyTitle: 'Two' });
    expect(posted.mock.calls).toEqual([
      [
        toFrame('story', {
          storyURL: 'https://news.example/two',
          storyID: 'two',
          storyTitle: 'Two',
        }),
        ROOT,
      ],
    ]);
    expect(container().querySelectorAll('iframe')).toHaveLength(1);
    expect(frame()).toBe(iframe);
  });

  it('loads the frame on a story set before it was made', () => {
    window.IntersectionObserver =
      FakeIntersectionObserver as unknown as typeof IntersectionObserver;
    create({ storyURL: 'https://news.example/one', storyID: 'one' });
    embed!.setStory({ storyURL: 'https://news.example/two' });
    FakeIntersectionObserver.last!.intersect(true);
    const params = new URL(frame().src).searchParams;
    // The new story's parameters, none of the last one's.
    expect([params.get('storyURL'), params.get('storyID')]).toEqual([
      'https://news.example/two',
      null,
    ]);
    // Already loaded on it: `ready` does not send it again.
    const posted = postsTo(frame());
    fromFrame('ready', {});
    expect(posted.mock.calls.map(([message]) => (message as { type: string }).type)).toEqual([
      'theme',
    ]);
  });

  it('sends a story set while the frame was loading again when it is ready, and on a reload', () => {
    create();
    const posted = postsTo(frame());
    // Still loading: the frame does not listen yet, and the browser drops what is posted.
    embed!.setStory({ storyURL: 'https://news.example/two' });
    fromFrame('ready', {});
    fromFrame('ready', {});
    const stories = posted.mock.calls
      .map(([message]) => message as { type: string; payload: unknown })
      .filter((message) => message.type === 'story');
    expect(stories.map((message) => message.payload)).toEqual([
      { storyURL: 'https://news.example/two' },
      { storyURL: 'https://news.example/two' },
      { storyURL: 'https://news.example/two' },
    ]);
  });
});

describe('the comments as HTML a host included', () => {
  it('stay until the frame renders, then the frame takes their place', () => {
    container().innerHTML =
      '<section class="parley-comments"><article id="parley-comment-1"><p>Hi</p></article>' +
      '<script type="application/ld+json">{}</script></section>';
    window.IntersectionObserver =
      FakeIntersectionObserver as unknown as typeof IntersectionObserver;
    create();
    // Crawlers and readers without JavaScript keep them while the reader is far above.
    expect(container().querySelector('.parley-comments article')).not.toBeNull();
    FakeIntersectionObserver.last!.intersect(true);
    // One thread on the page, never two.
    expect([...container().children].map((child) => child.tagName)).toEqual(['IFRAME']);
  });
});

describe('messages from the frame', () => {
  it('set the frame height', () => {
    create();
    fromFrame('height', { height: 640 });
    expect(frame().style.height).toBe('640px');
  });

  it('are ignored from another window, another origin, or in a bad shape', () => {
    create();
    fromFrame('height', { height: 100 });
    const other = document.body.appendChild(document.createElement('iframe'));

    fromFrame('height', { height: 200 }, { source: other.contentWindow });
    fromFrame('height', { height: 200 }, { source: window });
    fromFrame('height', { height: 200 }, { source: null });
    fromFrame('height', { height: 200 }, { origin: 'https://evil.example' });
    fromFrame('height', { height: 200 }, { origin: location.origin });
    fromFrame('height', { height: '200' as unknown as number });
    fromFrame('height', { height: -5 });
    for (const data of [
      { ns: 'parley:0', type: 'height', payload: { height: 200 } },
      { ns: PARLEY_NAMESPACE, type: 'resize', payload: { height: 200 } },
      { ns: PARLEY_NAMESPACE, type: 'height' },
      'height:200',
      null,
    ]) {
      fromFrame('height', { height: 0 }, { data });
    }
    expect(frame().style.height).toBe('100px');
  });

  it("'ready' gets the resolved theme, the host's font, the accent color and the SSO token", () => {
    container().style.fontFamily = 'Georgia, serif';
    create({ theme: 'dark', accentColor: '#c00', accessToken: 'sso-token' });
    const posted = postsTo(frame());
    fromFrame('ready', {});
    expect(posted.mock.calls).toEqual([
      [
        toFrame('theme', {
          theme: 'dark',
          fontFamily: 'Georgia, serif',
          accentColor: '#c00',
        }),
        ROOT,
      ],
      [toFrame('login', { token: 'sso-token' }), ROOT],
    ]);
  });

  it("'ready' names the frame in the thread's language, and a frame that says none keeps \"Comments\"", () => {
    create();
    expect(frame().title).toBe('Comments');
    fromFrame('ready', {});
    expect(frame().title).toBe('Comments');
    fromFrame('ready', { title: 'التعليقات' });
    expect(frame().title).toBe('التعليقات');
  });

  it("'ready' sends no login without a token", () => {
    create();
    const posted = postsTo(frame());
    fromFrame('ready', {});
    expect(posted.mock.calls.map(([message]) => (message as { type: string }).type)).toEqual([
      'theme',
    ]);
  });

  it("'tokenExpired' asks refreshAccessToken and signs in with its answer", async () => {
    const refreshAccessToken = jest.fn(async () => 'fresh-token');
    create({ accessToken: 'old', refreshAccessToken });
    const posted = postsTo(frame());
    fromFrame('tokenExpired', {});
    await new Promise((resolve) => setTimeout(resolve));
    expect(refreshAccessToken).toHaveBeenCalledTimes(1);
    expect(posted).toHaveBeenLastCalledWith(toFrame('login', { token: 'fresh-token' }), ROOT);
  });

  it('does not send back the same expired token refreshAccessToken returns (no login loop)', async () => {
    const refreshAccessToken = jest.fn(async () => 'old');
    create({ accessToken: 'old', refreshAccessToken });
    const posted = postsTo(frame());
    fromFrame('tokenExpired', {});
    await new Promise((resolve) => setTimeout(resolve));
    expect(refreshAccessToken).toHaveBeenCalledTimes(1);
    expect(posted).not.toHaveBeenCalled();
  });

  it("'event' reaches onEvent and on() listeners until off()", () => {
    const onEvent = jest.fn();
    const listener = jest.fn();
    create({ onEvent });
    embed!.on('posted', listener);
    fromFrame('event', { name: 'posted', data: { id: 'c1' } });
    embed!.off('posted', listener);
    fromFrame('event', { name: 'posted', data: { id: 'c2' } });
    expect(onEvent.mock.calls).toEqual([
      ['posted', { id: 'c1' }],
      ['posted', { id: 'c2' }],
    ]);
    expect(listener.mock.calls).toEqual([[{ id: 'c1' }]]);
  });
});

describe('permalinks', () => {
  it("'permalink' puts the comment in the host URL, and back/forward show it again", () => {
    create();
    const pushState = jest.spyOn(history, 'pushState');
    fromFrame('permalink', { commentId: 'c-7' });
    expect(location.search).toBe('?page=2&commentID=c-7');
    expect(location.hash).toBe('#top');
    fromFrame('permalink', { commentId: 'c-7' });
    expect(pushState).toHaveBeenCalledTimes(1);
    fromFrame('permalink', { commentId: null });
    expect(location.search).toBe('?page=2');

    const posted = postsTo(frame());
    history.replaceState(null, '', '/articles/one?commentID=c-3');
    window.dispatchEvent(new PopStateEvent('popstate'));
    history.replaceState(null, '', '/articles/one');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(posted.mock.calls).toEqual([
      [toFrame('showComment', { commentId: 'c-3' }), ROOT],
      [toFrame('showComment', { commentId: null }), ROOT],
    ]);
  });
});

describe('sign-in and theme from the host', () => {
  it('login() and logout() reach the frame', () => {
    create();
    const posted = postsTo(frame());
    embed!.login('t1');
    embed!.logout();
    expect(posted.mock.calls).toEqual([
      [toFrame('login', { token: 't1' }), ROOT],
      [toFrame('logout', {}), ROOT],
    ]);
    // After logout, a reloaded frame is not signed in again.
    posted.mockClear();
    fromFrame('ready', {});
    expect(posted.mock.calls.map(([message]) => (message as { type: string }).type)).toEqual([
      'theme',
    ]);
  });

  it("'auto' follows the host's color scheme, and setTheme() switches at run time", () => {
    const scheme = new EventTarget() as EventTarget & { matches: boolean };
    scheme.matches = true;
    const matchMedia = jest.fn(() => scheme);
    (window as { matchMedia?: unknown }).matchMedia = matchMedia;
    create({ theme: 'auto' });
    expect(matchMedia).toHaveBeenCalledWith('(prefers-color-scheme:dark)');
    expect(new URL(frame().src).searchParams.get('theme')).toBe('dark');

    const posted = postsTo(frame());
    const themes = () =>
      posted.mock.calls.map(
        ([message]) => (message as { payload: { theme: string } }).payload.theme,
      );
    scheme.matches = false;
    scheme.dispatchEvent(new Event('change'));
    embed!.setTheme('dark');
    scheme.dispatchEvent(new Event('change'));
    expect(themes()).toEqual(['light', 'dark']);
  });
});

describe('remove()', () => {
  it('takes away the iframe, and a later message, back/forward or scheme change does nothing', () => {
    const scheme = Object.assign(new EventTarget(), { matches: false });
    (window as { matchMedia?: unknown }).matchMedia = () => scheme;
    const onEvent = jest.fn();
    create({ theme: 'auto', onEvent });
    const iframe = frame();
    const posted = postsTo(iframe);
    const pushState = jest.spyOn(history, 'pushState');

    embed!.remove();
    expect(container().querySelector('iframe')).toBeNull();
    for (const [type, payload] of [
      ['event', { name: 'posted' }],
      ['permalink', { commentId: 'c1' }],
      ['ready', {}],
    ] as const) {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: createMessage<FrameToHost, typeof type>(type, payload),
          origin: ROOT,
          source: iframe.contentWindow,
        }),
      );
    }
    window.dispatchEvent(new PopStateEvent('popstate'));
    scheme.dispatchEvent(new Event('change'));
    embed!.render();
    expect(onEvent).not.toHaveBeenCalled();
    expect(pushState).not.toHaveBeenCalled();
    expect(posted).not.toHaveBeenCalled();
    expect(container().querySelector('iframe')).toBeNull();
  });

  it('removes every listener it added and disconnects its observer', () => {
    (window as { IntersectionObserver?: unknown }).IntersectionObserver = FakeIntersectionObserver;
    const scheme = Object.assign(new EventTarget(), { matches: false });
    (window as { matchMedia?: unknown }).matchMedia = () => scheme;
    const targets = [window, scheme];
    const added = targets.map((target) => jest.spyOn(target, 'addEventListener'));
    const removed = targets.map((target) => jest.spyOn(target, 'removeEventListener'));
    create({ theme: 'auto' });
    const observer = FakeIntersectionObserver.last!;
    expect(observer.disconnected).toBe(false);

    embed!.remove();
    expect(observer.disconnected).toBe(true);
    targets.forEach((_, index) => {
      expect(added[index]!.mock.calls.length).toBeGreaterThan(0);
      expect(removed[index]!.mock.calls).toEqual(added[index]!.mock.calls);
    });
  });

  it('happens to the first embed when a second is created on the same container', () => {
    const first = create({ storyURL: 'https://news.example/first' })!;
    const firstListener = jest.fn();
    first.on('posted', firstListener);
    const firstFrame = frame();
    const second = create({ storyURL: 'https://news.example/second' })!;
    const secondListener = jest.fn();
    second.on('posted', secondListener);

    expect(container().querySelectorAll('iframe')).toHaveLength(1);
    expect(firstFrame.isConnected).toBe(false);
    expect(new URL(frame().src).searchParams.get('storyURL')).toBe('https://news.example/second');
    fromFrame('event', { name: 'posted' });
    expect(firstListener).not.toHaveBeenCalled();
    expect(secondListener).toHaveBeenCalledTimes(1);
  });
});

describe('autoRender', () => {
  beforeEach(() => {
    (window as { IntersectionObserver?: unknown }).IntersectionObserver = FakeIntersectionObserver;
    FakeIntersectionObserver.last = undefined;
  });

  it('waits until the container nears the viewport', () => {
    create();
    const observer = FakeIntersectionObserver.last!;
    expect(observer.observed).toEqual([container()]);
    expect(observer.options?.rootMargin).toMatch(/px$/);
    expect(container().querySelector('iframe')).toBeNull();
    observer.intersect(false);
    expect(container().querySelector('iframe')).toBeNull();
    observer.intersect(true);
    expect(container().querySelectorAll('iframe')).toHaveLength(1);
    expect(observer.disconnected).toBe(true);
  });

  it('renders at once for a permalink', () => {
    create({ commentID: 'c-1' });
    expect(container().querySelectorAll('iframe')).toHaveLength(1);
  });

  it('can be turned off (data-auto-render="false"), leaving render() to the page', () => {
    container().dataset.autoRender = 'false';
    create();
    expect(FakeIntersectionObserver.last).toBeUndefined();
    expect(container().querySelector('iframe')).toBeNull();
    embed!.render();
    embed!.render();
    expect(container().querySelectorAll('iframe')).toHaveLength(1);
  });
});

it('says which element is missing', () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => {});
  expect(create({ id: 'comments' })).toBeUndefined();
  expect(error).toHaveBeenCalledWith(expect.stringMatching(/^\[parley\] No element #comments$/));
});
