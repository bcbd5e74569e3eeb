import { renderHook } from '@testing-library/react';
import { TransportError } from '@parley/transport';
import { useFieldErrorText } from './errorText';

const refused = (extensions: Record<string, unknown>) =>
  new TransportError('INVALID_INPUT', 'The server’s words.', {
    field: 'url',
    extensions: { code: 'INVALID_INPUT', field: 'url', ...extensions },
  });

describe('useFieldErrorText', () => {
  it('words a problem the server found in the console’s language, with its figures', () => {
    const { result } = renderHook(() => useFieldErrorText());
    expect(result.current(refused({ problem: 'TOO_LONG', max: 2000 }))).toBe(
      'Use at most 2,000 characters.',
    );
    expect(
      result.current(refused({ problem: 'ORIGIN_INVALID', value: 'https://a.example/x' })),
    ).toBe(
      '“https://a.example/x” is not an origin; write it like https://www.example.com (no path).',
    );
  });

  it('falls back to the server’s message for a problem it has no words for, or none', () => {
    const { result } = renderHook(() => useFieldErrorText());
    expect(result.current(refused({ problem: 'FROM_A_NEWER_SERVER' }))).toBe('The server’s words.');
    expect(result.current(refused({}))).toBe('The server’s words.');
  });
});
