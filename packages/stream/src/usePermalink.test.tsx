import { scrollIntoViewOnceSized } from './usePermalink';

// The stream's frame is sized by the host (the loader sets the height the frame reports), so a
// permalinked comment rendered before that happened must be scrolled to again once it has.

/** A frame window of `innerHeight` whose content is `contentHeight` tall. */
function frameOf(innerHeight: number, contentHeight: number) {
  const win = window;
  Object.defineProperty(win, 'innerHeight', { configurable: true, value: innerHeight });
  jest
    .spyOn(win.document.documentElement, 'getBoundingClientRect')
    .mockReturnValue({ height: contentHeight } as DOMRect);
  const element = win.document.createElement('article');
  element.scrollIntoView = jest.fn();
  win.document.body.append(element);
  const resize = (height: number) => {
    Object.defineProperty(win, 'innerHeight', { configurable: true, value: height });
    win.dispatchEvent(new Event('resize'));
  };
  return { win, element, resize };
}

const innerHeight = window.innerHeight;
afterEach(() => {
  jest.restoreAllMocks();
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: innerHeight });
  document.body.replaceChildren();
});

test('scrolls once when the frame already fits its content', () => {
  const { win, element, resize } = frameOf(3000, 3000);
  const stop = scrollIntoViewOnceSized(win, element);
  expect(element.scrollIntoView).toHaveBeenCalledTimes(1);
  expect(element.scrollIntoView).toHaveBeenCalledWith({ block: 'center' });
  resize(3100);
  expect(element.scrollIntoView).toHaveBeenCalledTimes(1);
  stop();
});

test('scrolls again once the host has grown the frame to fit, and only then', () => {
  // The loader's iframe starts 150 px tall; the thread is 3000 px.
  const { win, element, resize } = frameOf(150, 2999.5);
  scrollIntoViewOnceSized(win, element);
  expect(element.scrollIntoView).toHaveBeenCalledTimes(1);
  // A height report of an earlier, shorter state: still too short.
  resize(800);
  expect(element.scrollIntoView).toHaveBeenCalledTimes(1);
  // Sized to the content (rounded up, as the frame reports it): the host page can scroll now.
  resize(3000);
  expect(element.scrollIntoView).toHaveBeenCalledTimes(2);
  // Once: later resizes (images, live comments) do not pull the reader back.
  resize(3200);
  expect(element.scrollIntoView).toHaveBeenCalledTimes(2);
});

test('the cleanup stops waiting (another comment marked, the thread gone)', () => {
  const { win, element, resize } = frameOf(150, 3000);
  const stop = scrollIntoViewOnceSized(win, element);
  stop();
  resize(3000);
  expect(element.scrollIntoView).toHaveBeenCalledTimes(1);
});
