import { createUpdateCoalescer } from './coalesceUpdates';

describe('createUpdateCoalescer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends the first event at once and folds a burst into one more at the window’s end', () => {
    const sent: string[] = [];
    const coalescer = createUpdateCoalescer<string>((event) => sent.push(event), 250);
    coalescer.push('c1', 'edit 1');
    expect(sent).toEqual(['edit 1']);
    for (let i = 2; i <= 150; i += 1) coalescer.push('c1', `edit ${i}`);
    coalescer.push('c2', 'other comment');
    expect(sent).toEqual(['edit 1', 'other comment']);
    jest.advanceTimersByTime(250);
    expect(sent).toEqual(['edit 1', 'other comment', 'edit 150']);
    // A window with nothing more sends nothing more; the next event starts a new one.
    jest.advanceTimersByTime(1000);
    coalescer.push('c1', 'later');
    expect(sent.at(-1)).toBe('later');
  });

  it('flush() sends what is pending at once (the server is closing)', () => {
    const sent: string[] = [];
    const coalescer = createUpdateCoalescer<string>((event) => sent.push(event), 250);
    coalescer.push('c1', 'a');
    coalescer.push('c1', 'b');
    coalescer.flush();
    expect(sent).toEqual(['a', 'b']);
    jest.advanceTimersByTime(1000);
    expect(sent).toEqual(['a', 'b']);
  });
});
