import type { Frame, Page } from 'playwright-core';
import { journey, useHarness, streamFrame } from '../harness';
import { openPage, streamFrameOf } from '../support/commenter';

// Journey 11: the host page switches to dark at run time and the stream follows without
// reloading: its root gets data-theme="dark" and its background turns dark.
//
// Two ways a host does it (packages/embed/README.md): the embed handle's `setTheme('dark')`, and
// `data-theme="auto"`, which follows the reader's `prefers-color-scheme` live.

/** The stream's backgrounds (packages/stream/src/styles/0-base.css, --parley-bg). */
const LIGHT_BG = 'rgb(255, 255, 255)';
const DARK_BG = 'rgb(20, 20, 22)';

const h = useHarness();

/** The frame's theme attribute and its root's painted background. */
function frameTheme(frame: Frame): Promise<{ theme?: string; background: string }> {
  return frame.evaluate(() => ({
    theme: document.documentElement.dataset.theme,
    background: getComputedStyle(document.documentElement).backgroundColor,
  }));
}

/**
 * Marks the frame's document, so that a reload (a new document) would be seen: the mark is gone.
 * Returns the check.
 */
async function markDocument(frame: Frame): Promise<() => Promise<boolean>> {
  await frame.evaluate(() => {
    (window as unknown as { e2eMark: number }).e2eMark = 1;
  });
  return () => frame.evaluate(() => (window as unknown as { e2eMark?: number }).e2eMark === 1);
}

/** Waits for the stream to be drawn (its composer), then returns its Frame, light. */
async function lightStream(page: Page): Promise<Frame> {
  await streamFrame(page).getByRole('textbox', { name: 'Write a comment', exact: true }).waitFor();
  const frame = await streamFrameOf(page);
  expect(await frameTheme(frame)).toEqual({ theme: 'light', background: LIGHT_BG });
  return frame;
}

/**
 * What a host page's own theme switch does: its colors, and the thread's through the embed handle.
 * The handle of the embed that embed.js created on its own is kept on the container
 * (createStreamEmbed.ts, `el.parleyEmbed`); a page that creates the embed itself holds the same
 * object from `Parley.createStreamEmbed()`. False when there is no handle.
 */
function switchHost(page: Page, theme: 'light' | 'dark'): Promise<boolean> {
  return page.evaluate((theme) => {
    const container = document.getElementById('parley-thread') as
      (HTMLElement & { parleyEmbed?: { setTheme(theme: string): void } }) | null;
    if (!container?.parleyEmbed) return false;
    const dark = theme === 'dark';
    document.documentElement.style.background = dark ? '#111' : '';
    document.body.style.color = dark ? '#eee' : '';
    container.parleyEmbed.setTheme(theme);
    return true;
  }, theme);
}

describe('journey 11: theme', () => {
  it('follows setTheme("dark") from the host without reloading', () =>
    journey('11-theme', async (pages) => {
      const reader = await h.open('/articles/theme');
      pages.push(reader);
      const { page } = reader;
      const frame = await lightStream(page);
      const sameDocument = await markDocument(frame);
      const framesBefore = page.frames().length;

      // The page's own script switches itself and the thread to dark.
      expect(await switchHost(page, 'dark')).toBe(true);

      await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await frame.waitForFunction(
        (dark) => getComputedStyle(document.documentElement).backgroundColor === dark,
        DARK_BG,
      );
      expect(await frameTheme(frame)).toEqual({ theme: 'dark', background: DARK_BG });
      // Followed, not reloaded: the same document, the same single frame.
      expect(await sameDocument()).toBe(true);
      expect(page.frames()).toHaveLength(framesBefore);
      // The text turned light too (readable on the dark background).
      const color = await frame.evaluate(() => getComputedStyle(document.body).color);
      expect(color).toBe('rgb(236, 236, 241)');

      // And back, and dark again for the screenshot.
      await switchHost(page, 'light');
      await frame.waitForFunction(() => document.documentElement.dataset.theme === 'light');
      expect(await frameTheme(frame)).toEqual({ theme: 'light', background: LIGHT_BG });
      await switchHost(page, 'dark');
      await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    }));

  it('follows the reader’s color scheme live with data-theme="auto"', () =>
    journey('11-theme-auto', async (pages) => {
      const path = '/articles/theme-auto';
      // The host page as its owner would write it for `auto`: `<div id="parley-thread"
      // data-theme="auto">`. The example page has no such attribute; an init script adds it when
      // the document is parsed, before embed.js reads it (it embeds after DOMContentLoaded).
      // (Rewriting the HTML with a route instead makes Chromium treat the page as public and
      // block its requests to the loopback Parley server: Private Network Access.)
      const reader = await openPage(h, path, {
        contextOptions: { colorScheme: 'light' },
        initScript: `if (location.origin === ${JSON.stringify(h.exampleUrl)}) {
          document.addEventListener('DOMContentLoaded', () =>
            document.getElementById('parley-thread')?.setAttribute('data-theme', 'auto'));
        }`,
      });
      pages.push(reader);
      const { page } = reader;
      expect(await page.locator('#parley-thread').getAttribute('data-theme')).toBe('auto');
      const frame = await lightStream(page);
      const sameDocument = await markDocument(frame);

      // The reader's system switches to dark while the page is open.
      await page.emulateMedia({ colorScheme: 'dark' });
      await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await frame.waitForFunction(
        (dark) => getComputedStyle(document.documentElement).backgroundColor === dark,
        DARK_BG,
      );
      expect(await sameDocument()).toBe(true);
    }));
});
