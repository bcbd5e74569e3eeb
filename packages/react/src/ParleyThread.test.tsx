import { act } from 'react';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { PARLEY_NAMESPACE, STREAM_PATH, createMessage } from '@parley/contract';
import type { FrameToHost } from '@parley/contract';
import { ParleyThread } from './ParleyThread';
import type { ParleyThreadProps } from './ParleyThread';

// <ParleyThread> over the real loader (createStreamEmbed) in jsdom: the frame it makes, and how it
// follows the app's props — a new story in the same frame, the theme and the token sent to it, a
// new frame only for what a frame is loaded with.
const ROOT = 'https://comments.example';
const STORY = 'https://app.example/articles/one';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let host: HTMLElement;

beforeEach(() => {
  host = document.body.appendChild(document.createElement('main'));
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
  jest.restoreAllMocks();
  delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
});

const show = (props: Partial<ParleyThreadProps> = {}) =>
  act(() => root.render(<ParleyThread rootURL={ROOT} storyURL={STORY} {...props} />));
const frames = () => [...host.querySelectorAll('iframe')];
const paramsOf = (frame: HTMLIFrameElement) => Object.fromEntries(new URL(frame.src).searchParams);
/** What the loader posted to a frame: [type, payload, target origin]. */
const posts = (frame: HTMLIFrameElement) => {
  const spy = jest.spyOn(frame.contentWindow!, 'postMessage') as unknown as jest.Mock;
  return () =>
    spy.mock.calls.map(([message, origin]) => {
      const { type, payload, ns } = message as { type: string; payload: unknown; ns: string };
      expect(ns).toBe(PARLEY_NAMESPACE);
      return [type, payload, origin];
    });
};
/** A message from the frame, as the browser delivers it. */
const fromFrame = <K extends keyof FrameToHost>(
  frame: HTMLIFrameElement,
  type: K,
  payload: FrameToHost[K],
) =>
  act(() =>
    window.dispatchEvent(
      new MessageEvent('message', {
        data: createMessage<FrameToHost, K>(type, payload),
        origin: ROOT,
        source: frame.contentWindow,
      }),
    ),
  );

/** IntersectionObserver is missing from jsdom: a stand-in the test moves. */
class FakeIntersectionObserver {
  static all: FakeIntersectionObserver[] = [];
  constructor(readonly callback: IntersectionObserverCallback) {
    FakeIntersectionObserver.all.push(this);
  }
  observe() {}
  disconnect() {}
  near() {
    this.callback(
      [{ isIntersecting: true } as IntersectionObserverEntry],
      this as unknown as IntersectionObserver,
    );
  }
}

describe('<ParleyThread>', () => {
  it('puts one frame of the story in its container, with the loader’s options', () => {
    show({ storyID: 'a-1', locale: 'es', theme: 'dark', className: 'comments', id: 'thread' });
    const container = host.querySelector('#thread')!;
    expect(container.className).toBe('comments');
    expect(frames()).toHaveLength(1);
    const frame = frames()[0]!;
    expect(frame.src.startsWith(`${ROOT}${STREAM_PATH}?`)).toBe(true);
    expect(paramsOf(frame)).toMatchObject({
      storyURL: STORY,
      storyID: 'a-1',
      locale: 'es',
      theme: 'dark',
    });
  });

  it('switches the story in the same frame when the app navigates', () => {
    show();
    const frame = frames()[0]!;
    const sent = posts(frame);
    document.title = 'The second article';
    try {
      show({ storyURL: 'https://app.example/articles/two', storyID: 'a-2' });
    } finally {
      document.title = '';
    }
    // The same frame, not a new one: nothing reloads.
    expect(frames()).toEqual([frame]);
    expect(sent()).toEqual([
      [
        'story',
        {
          storyURL: 'https://app.example/articles/two',
          storyID: 'a-2',
          storyTitle: 'The second article',
          commentID: undefined,
        },
        ROOT,
      ],
    ]);
    // The same props again send nothing.
    show({ storyURL: 'https://app.example/articles/two', storyID: 'a-2' });
    expect(sent()).toHaveLength(1);
  });

  it('opens on the story of now when the app navigated before the frame was near', () => {
    window.IntersectionObserver =
      FakeIntersectionObserver as unknown as typeof IntersectionObserver;
    FakeIntersectionObserver.all = [];
    show();
    expect(frames()).toHaveLength(0);
    show({ storyURL: 'https://app.example/articles/two' });
    act(() => FakeIntersectionObserver.all.at(-1)!.near());
    expect(frames()).toHaveLength(1);
    expect(paramsOf(frames()[0]!).storyURL).toBe('https://app.example/articles/two');
  });

  it('sends a new theme and a new token to the frame, and signs out when the token goes', () => {
    show({ theme: 'light' });
    const frame = frames()[0]!;
    const sent = posts(frame);
    show({ theme: 'dark' });
    show({ theme: 'dark', accessToken: 'sso-token' });
    show({ theme: 'dark' });
    expect(sent().map(([type, payload]) => [type, type === 'theme' ? 'dark' : payload])).toEqual([
      ['theme', 'dark'],
      ['login', { token: 'sso-token' }],
      ['logout', {}],
    ]);
    expect(frames()).toEqual([frame]);
  });

  it('loads a new frame for a new server or language, and leaves nothing when unmounted', () => {
    const handles: unknown[] = [];
    show({ onEmbed: (embed) => handles.push(embed) });
    const first = frames()[0]!;
    show({ locale: 'es', onEmbed: (embed) => handles.push(embed) });
    expect(frames()).toHaveLength(1);
    expect(frames()[0]).not.toBe(first);
    expect(paramsOf(frames()[0]!).locale).toBe('es');
    act(() => root.render(<p>Another page</p>));
    expect(frames()).toHaveLength(0);
    // The handle, then none, then the new one, then none.
    expect(handles.map((handle) => handle !== undefined)).toEqual([true, false, true, false]);
  });

  it('tells the app’s latest onEvent what the stream reports', () => {
    const first = jest.fn();
    const latest = jest.fn();
    show({ onEvent: first });
    show({ onEvent: latest });
    fromFrame(frames()[0]!, 'event', { name: 'commentPosted', data: { id: 'c-1' } });
    expect(first).not.toHaveBeenCalled();
    expect(latest).toHaveBeenCalledWith('commentPosted', { id: 'c-1' });
  });

  it('gives two threads on one page containers of their own', () => {
    act(() =>
      root.render(
        <>
          <ParleyThread rootURL={ROOT} storyURL={STORY} />
          <ParleyThread rootURL={ROOT} storyURL="https://app.example/articles/two" />
        </>,
      ),
    );
    const stories = frames().map((frame) => paramsOf(frame).storyURL);
    expect(stories).toEqual([STORY, 'https://app.example/articles/two']);
  });
});
