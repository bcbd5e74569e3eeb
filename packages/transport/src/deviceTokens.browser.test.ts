/**
 * @jest-environment jsdom
 */
import { rememberDevice, rememberedDevice } from './signInChallenge';

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
