import {
  FRAME_TO_HOST,
  HOST_TO_FRAME,
  PARLEY_NAMESPACE,
  POPUP_TO_FRAME,
  createMessage,
  readMessage,
} from './protocol';
import type { FrameToHost } from './protocol';

const envelope = (type: string, payload?: unknown) => ({ ns: PARLEY_NAMESPACE, type, payload });

it('reads each direction’s valid messages back', () => {
  const height = createMessage<FrameToHost, 'height'>('height', { height: 320 });
  expect(readMessage(FRAME_TO_HOST, height)).toBe(height);
  expect(readMessage(HOST_TO_FRAME, envelope('showComment', { commentId: null }))).toBeDefined();
  expect(readMessage(POPUP_TO_FRAME, envelope('token', { token: 'abc' }))).toBeDefined();
});

it.each([
  ['a string', 'parley:1 height'],
  ['null', null],
  ['another namespace', { ns: 'other', type: 'height', payload: { height: 1 } }],
  ['a newer version', { ns: 'parley:2', type: 'height', payload: { height: 1 } }],
  ['an unknown type', envelope('resize', { height: 1 })],
  ['an inherited name as type', envelope('toString', {})],
  ['a non-string type', { ns: PARLEY_NAMESPACE, type: ['height'], payload: { height: 1 } }],
  ['no payload', envelope('ready')],
  ['a string payload', envelope('ready', 'yes')],
  ['a height that is not a number', envelope('height', { height: '10' })],
  ['a negative height', envelope('height', { height: -1 })],
  ['a permalink without an id', envelope('permalink', {})],
  ['an event without a name', envelope('event', { data: 1 })],
])('ignores %s', (_, data) => {
  expect(readMessage(FRAME_TO_HOST, data)).toBeUndefined();
});

it('checks the host’s and the popup’s payloads too', () => {
  expect(readMessage(HOST_TO_FRAME, envelope('theme', { theme: 'auto' }))).toBeUndefined();
  expect(readMessage(HOST_TO_FRAME, envelope('login', { token: '' }))).toBeUndefined();
  expect(readMessage(POPUP_TO_FRAME, envelope('token', { token: 5 }))).toBeUndefined();
});
