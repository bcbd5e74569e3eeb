import type { Locator, Page } from 'playwright-core';
import { join } from 'node:path';
import { E2E_OUTPUT, journey, startHarness, streamFrame } from '../harness';
import type { Harness } from '../harness';
import { openPage, storedComments, textOf } from '../support/commenter';

// Journey 7: a link with `?commentID=` opens the page scrolled to that comment, marked.
//
// The loader sizes the iframe to its content (it never scrolls on its own), so "scrolled into
// view" means the HOST page scrolled: the check is the comment's box against the host's viewport.

/** Comments seeded on the story: more than the first page (TOP_LEVEL_PAGE_SIZE, 20). */
const SEEDED = 30;

/** A viewport of a laptop's height, so the thread runs well below the first screen. */
const VIEWPORT = { width: 900, height: 700 };

let h: Harness;
const path = '/articles/permalink';
let ids: Map<string, string>;

const body = (i: number) => `Seeded comment number ${i} of the permalink story`;

beforeAll(async () => {
  h = await startHarness();
  // Oldest first: number 1 is the oldest, number 30 the newest (the first shown).
  await h.seedComments(
    path,
    Array.from({ length: SEEDED }, (_, i) => body(i + 1)),
  );
  const { comments } = await storedComments(h, path);
  expect(comments).toHaveLength(SEEDED);
  ids = new Map(comments.map((c) => [textOf(c.body), c.id]));
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const idOf = (i: number): string => {
  const id = ids.get(body(i));
  if (!id) throw new Error(`No seeded comment ${i}`);
  return id;
};

/** Saves what the reader sees (the viewport, not the full page) as `<name>-viewport.png`. */
async function viewportShot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(E2E_OUTPUT, `${name}-viewport.png`) });
}

/** The host page's viewport and scroll, and where `target` is drawn in it. */
async function placement(page: Page, target: Locator) {
  const box = await target.boundingBox();
  const host = await page.evaluate(() => ({
    scrollY: Math.round(window.scrollY),
    innerHeight: window.innerHeight,
    iframeHeight: Math.round(
      document.querySelector('iframe[src*="/embed/stream"]')?.getBoundingClientRect().height ?? 0,
    ),
  }));
  return { box, ...host };
}

/**
 * Waits, frame by frame, until `target` is wholly inside the host page's viewport; fails with
 * where it is instead after `timeoutMs`.
 */
async function waitUntilInView(page: Page, target: Locator, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await placement(page, target);
    const { box } = now;
    if (box && box.y >= 0 && box.y + box.height <= now.innerHeight) return;
    if (Date.now() > deadline) {
      throw new Error(
        `The permalinked comment is not in the host page's viewport: ${JSON.stringify(now)}`,
      );
    }
    await page.evaluate(() => new Promise(requestAnimationFrame));
  }
}

describe('journey 7: permalink', () => {
  it('scrolls to an old comment that is not on the first page, and marks it', () =>
    journey('07-permalink', async (pages) => {
      const n = 3;
      const reader = await openPage(h, `${path}?commentID=${idOf(n)}`, {
        contextOptions: { viewport: VIEWPORT },
      });
      pages.push(reader);
      const { page } = reader;
      const frame = streamFrame(page);

      // The first page is the 20 newest: number 3 is not among them, and is loaded on its own.
      await frame
        .getByRole('article')
        .filter({ hasText: body(SEEDED) })
        .waitFor();
      const marked = frame.locator('article[aria-current="true"]');
      await marked.waitFor();
      await expect(marked.textContent()).resolves.toContain(body(n));
      expect(await marked.count()).toBe(1);
      expect(await marked.getAttribute('class')).toContain('parley-current');
      expect(await marked.getAttribute('id')).toBe(`parley-c-${idOf(n)}`);

      await waitUntilInView(page, marked);
      reader.log.push(`(test) placement: ${JSON.stringify(await placement(page, marked))}`);
      await viewportShot(page, '07-permalink');
      // The story is the article, not the permalink: the thread is the whole story's.
      await frame.getByText(`${SEEDED} comments`, { exact: true }).waitFor();
    }));

  it('scrolls down to a comment far down the first page, and marks it', () =>
    journey('07-permalink-in-page', async (pages) => {
      // The 20 newest are numbers 30 down to 11: number 12 is the 19th, far below the fold.
      const n = 12;
      const reader = await openPage(h, `${path}?commentID=${idOf(n)}`, {
        contextOptions: { viewport: VIEWPORT },
      });
      pages.push(reader);
      const { page } = reader;
      const frame = streamFrame(page);

      const marked = frame.locator('article[aria-current="true"]');
      await marked.waitFor();
      await expect(marked.textContent()).resolves.toContain(body(n));
      expect(await marked.count()).toBe(1);
      // Only once: in its place in the list, not also above it.
      expect(
        await frame
          .getByRole('article')
          .filter({ hasText: body(n) })
          .count(),
      ).toBe(1);

      await waitUntilInView(page, marked);
      reader.log.push(`(test) placement: ${JSON.stringify(await placement(page, marked))}`);
      await viewportShot(page, '07-permalink-in-page');
    }));
});
