import { lazily } from './lazily';

describe('lazily', () => {
  it('loads once, on first use, and shares the result', async () => {
    const load = jest.fn(async () => ({ ready: true }));
    const lazy = lazily(load);
    expect([lazy.started, lazy.value, load.mock.calls.length]).toEqual([false, undefined, 0]);
    const [a, b] = await Promise.all([lazy.get(), lazy.get()]);
    expect(a).toBe(b);
    expect(lazy.value).toBe(a);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('forgets a failed load, so the next use tries again', async () => {
    const load = jest
      .fn<Promise<string>, []>()
      .mockRejectedValueOnce(new Error('chunk lost'))
      .mockResolvedValueOnce('loaded');
    const lazy = lazily(load);
    await expect(lazy.get()).rejects.toThrow('chunk lost');
    expect(lazy.started).toBe(false);
    await expect(lazy.get()).resolves.toBe('loaded');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
