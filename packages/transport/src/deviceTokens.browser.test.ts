/**
 * @jest-environment jsdom
 */
import { CombinedError } from '@urql/core';
import { rememberDevice, rememberedDevice, signInWithDevice } from './signInChallenge';

describe('device tokens', () => {
  beforeEach(() => localStorage.clear());

  it('are kept per email, whatever its case, and survive a bad entry', () => {
    expect(rememberedDevice('ada@example.com')).toBeUndefined();
    rememberDevice(' Ada@Example.com ', 'device-1');
    rememberDevice('bob@example.com', null);
    expect(rememberedDevice('ada@example.com')).toBe('device-1');
    expect(rememberedDevice('bob@example.com')).toBeUndefined();
    localStorage.setItem('parley.devices', '{not json');
    expect(rememberedDevice('ada@example.com')).toBeUndefined();
  });
});

describe('signInWithDevice', () => {
  beforeEach(() => localStorage.clear());

  it('sends the remembered device token, and remembers the one the answer carries', async () => {
    rememberDevice('ada@example.com', 'old-device');
    const sent: unknown[] = [];
    const result = await signInWithDevice(
      { email: ' Ada@Example.com ', password: ' pass phrase ' },
      async (input) => {
        sent.push(input);
        return { data: { signIn: { deviceToken: 'new-device' } } } as never;
      },
    );
    expect(sent).toEqual([
      { email: 'Ada@Example.com', password: ' pass phrase ', deviceToken: 'old-device' },
    ]);
    expect(result.data?.signIn.deviceToken).toBe('new-device');
    expect(rememberedDevice('ada@example.com')).toBe('new-device');
  });

  it('remembers nothing when the sign-in failed', async () => {
    const error = new CombinedError({
      graphQLErrors: [{ message: 'no', extensions: { code: 'INVALID_CREDENTIALS' } }],
    });
    const result = await signInWithDevice(
      { email: 'bob@example.com', password: 'x' },
      async () => ({ error }) as never,
    );
    expect(result.error).toBe(error);
    expect(rememberedDevice('bob@example.com')).toBeUndefined();
  });
});
