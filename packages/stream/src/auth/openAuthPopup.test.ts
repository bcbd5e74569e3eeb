import { createMessage, PARLEY_NAMESPACE } from '@parley/contract';
import type { PopupToFrame } from '@parley/contract';
import { createTestEnv } from '../testing/createTestEnv';
import { POPUP_CLOSED_POLL_MS } from './defaults';
import { openAuthPopup } from './openAuthPopup';

const tokenMessage = (token: string) => createMessage<PopupToFrame, 'token'>('token', { token });

/** Delivers a message to the frame's window as if `source` had posted it from `origin`. */
function post(data: unknown, source: unknown, origin = window.location.origin) {
  const event = new MessageEvent('message', { data, origin });
  // jsdom only accepts real windows as `source`; the popup here is a stand-in object.
  Object.defineProperty(event, 'source', { value: source });
  window.dispatchEvent(event);
}

function setUp() {
  const env = createTestEnv();
  const popup = { closed: false, focus: jest.fn() };
  const open = jest.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
  return { env, popup, open };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

test('opens /embed/auth on our origin, centred, with the mode, locale, theme and story', () => {
  const { env, open } = setUp();
  openAuthPopup(env, 'signup');
  const [url, name, features] = open.mock.calls[0]!;
  // The story names its site, whose sign-in providers the popup offers.
  expect(url).toBe(
    `${window.location.origin}/embed/auth?mode=signup&locale=en&theme=light&story=${encodeURIComponent('http://host.test/article')}`,
  );
  expect(name).toBe('parley-auth');
  expect(features).toMatch(/^popup,width=400,height=600,left=-?\d+,top=-?\d+$/);
});

test('takes a token only from the popup it opened, at our own origin, in the right shape', () => {
  const { env, popup } = setUp();
  openAuthPopup(env, 'signin');

  post(tokenMessage('from-another-window'), window);
  post(tokenMessage('from-another-origin'), popup, 'http://host.test');
  post({ ns: PARLEY_NAMESPACE, type: 'token', payload: { token: 42 } }, popup);
  post({ ns: 'other:1', type: 'token', payload: { token: 'wrong-namespace' } }, popup);
  post({ type: 'token', token: 'no-envelope' }, popup);
  expect(env.session.getToken()).toBeNull();
  expect(env.bridge.sent).toEqual([]);

  post(tokenMessage('good'), popup);
  expect(env.session.getToken()).toBe('good');
  expect(env.bridge.sent).toEqual([{ type: 'event', payload: { name: 'signedIn' } }]);

  // Done: the listener and the poll are gone; a later message changes nothing.
  expect(jest.getTimerCount()).toBe(0);
  post(tokenMessage('later'), popup);
  expect(env.session.getToken()).toBe('good');
});

test('stops waiting once the popup is closed without signing in', () => {
  const { env, popup } = setUp();
  const removed = jest.spyOn(window, 'removeEventListener');
  openAuthPopup(env, 'signin');
  jest.advanceTimersByTime(POPUP_CLOSED_POLL_MS * 3);
  expect(jest.getTimerCount()).toBe(1);

  popup.closed = true;
  jest.advanceTimersByTime(POPUP_CLOSED_POLL_MS * 2);
  expect(jest.getTimerCount()).toBe(0);
  expect(removed).toHaveBeenCalledWith('message', expect.any(Function));
  post(tokenMessage('too-late'), popup);
  expect(env.session.getToken()).toBeNull();
});

test('still takes the token the popup posted just before it closed', () => {
  const { env, popup } = setUp();
  openAuthPopup(env, 'signin');
  popup.closed = true;
  jest.advanceTimersByTime(POPUP_CLOSED_POLL_MS);
  post(tokenMessage('posted-then-closed'), popup);
  expect(env.session.getToken()).toBe('posted-then-closed');
});

test('opening again replaces the earlier wait, and the returned function stops it', () => {
  const { env, popup } = setUp();
  const signIn = jest.spyOn(env.session, 'signIn');
  openAuthPopup(env, 'signin');
  const stop = openAuthPopup(env, 'signup');
  expect(jest.getTimerCount()).toBe(1);
  post(tokenMessage('once'), popup);
  expect(signIn).toHaveBeenCalledTimes(1);

  openAuthPopup(env, 'signin');
  openAuthPopup(env, 'signin')();
  stop();
  expect(jest.getTimerCount()).toBe(0);
});

test('a blocked popup leaves no listener or timer', () => {
  const env = createTestEnv();
  jest.spyOn(window, 'open').mockReturnValue(null);
  const added = jest.spyOn(window, 'addEventListener');
  openAuthPopup(env, 'signin');
  expect(added).not.toHaveBeenCalled();
  expect(jest.getTimerCount()).toBe(0);
});
