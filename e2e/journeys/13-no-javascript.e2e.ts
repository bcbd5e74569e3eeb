import { STREAM_FRAME, journey, track, useHarness } from '../harness';
import { describeViolations, failingViolations, runAxe } from '../support/axe';

// Journey 13: a reader whose browser runs no JavaScript. The loader cannot run either, so this is
// the frame a site's `<noscript><iframe src="…/embed/stream?storyURL=…">` shows: the server
// renders the thread, older comments are a plain link to the next page, and the comment box
// says that posting needs JavaScript.

const h = useHarness();
const path = '/articles/no-javascript';
/** More than one page (20): the second page holds the five oldest. */
const SEEDED = 25;

it('reads the thread and pages through it with JavaScript disabled', () =>
  journey('13-no-javascript', async (pages) => {
    await h.seedComments(
      path,
      Array.from({ length: SEEDED }, (_, i) => `Comment number ${i + 1} without scripts`),
    );
    const context = await h.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    pages.push({ page, context, log: track(context) });
    const frameUrl =
      `${h.parleyUrl}/embed/stream?storyURL=${encodeURIComponent(h.storyUrl(path))}` +
      `&origin=${encodeURIComponent(new URL(h.storyUrl(path)).origin)}`;
    await page.goto(frameUrl);

    const bodies = () =>
      page
        .locator('article')
        .evaluateAll((articles) =>
          articles.map((a) => /Comment number (\d+)/.exec(a.textContent ?? '')?.[1]),
        );
    // Newest first: 25 down to 6.
    expect(await bodies()).toEqual(Array.from({ length: 20 }, (_, i) => String(SEEDED - i)));
    await page.getByText('Posting a comment needs JavaScript.', { exact: true }).waitFor();
    expect(await page.locator('.parley-composer').isVisible()).toBe(false);
    // Nor the controls that need scripts: signing in, sorting, replying, reacting.
    for (const control of ['.parley-authbar', '.parley-sort', '.parley-actions']) {
      expect([control, await page.locator(control).first().isVisible()]).toEqual([control, false]);
    }
    // The rendered HTML is as accessible as the hydrated frame (accessibility.e2e checks that):
    // axe needs scripts, so it runs on the same HTML, its own scripts taken out, in a page that
    // has them.
    const html = (await (await fetch(frameUrl)).text()).replace(/<script[\s\S]*?<\/script>/g, '');
    const checker = await h.browser.newContext();
    try {
      const checked = await checker.newPage();
      await checked.setContent(html);
      const violations = failingViolations({
        name: 'no JavaScript',
        url: frameUrl,
        violations: await runAxe(checked),
      });
      expect(describeViolations(violations)).toBe('');
    } finally {
      await checker.close();
    }

    await page.getByRole('link', { name: 'More comments', exact: true }).click();
    await page.waitForURL(/after=/);
    expect(await bodies()).toEqual(['5', '4', '3', '2', '1']);
    // The last page: nothing older to link to.
    expect(await page.getByRole('link', { name: 'More comments' }).count()).toBe(0);
  }));

it('continues a deep thread on a page of its own, and comes back, with JavaScript disabled', () =>
  journey('13-no-javascript-deep', async (pages) => {
    const deep = '/articles/no-javascript-deep';
    // Level 0 to 5: the first page shows levels 0–2, and "Continue this thread" the rest.
    await h.seedComments(
      deep,
      Array.from({ length: 6 }, (_, i) => `Level ${i} without scripts`),
      { chain: true },
    );
    const context = await h.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    pages.push({ page, context, log: track(context) });
    await page.goto(
      `${h.parleyUrl}/embed/stream?storyURL=${encodeURIComponent(h.storyUrl(deep))}` +
        `&origin=${encodeURIComponent(new URL(h.storyUrl(deep)).origin)}`,
    );
    const levels = () =>
      page
        .locator('article')
        .evaluateAll((articles) =>
          articles.map((a) => /Level (\d)/.exec(a.textContent ?? '')?.[1]),
        );
    expect(await levels()).toEqual(['0', '1', '2']);
    // The button needs scripts: hidden; its link stands in for it.
    expect(await page.locator('button[data-continue]').isVisible()).toBe(false);
    await page.getByRole('link', { name: 'Continue this thread', exact: true }).click();
    await page.waitForURL(/thread=/);
    expect(await levels()).toEqual(['2', '3', '4']);
    await page.getByRole('link', { name: 'Continue this thread', exact: true }).click();
    await page.getByText('Level 5 without scripts').waitFor();
    expect(await levels()).toEqual(['4', '5']);
    await page.getByRole('link', { name: 'All comments', exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has('thread'));
    expect(await levels()).toEqual(['0', '1', '2']);
  }));

it('reads the comments on the article itself, as HTML its server included; with scripts the frame takes their place', () =>
  journey('13-no-javascript-included', async (pages) => {
    const article = '/articles/included-comments';
    await h.seedComments(article, ['First, in the article’s own HTML', 'A reply to it'], {
      chain: true,
    });
    // No JavaScript (a crawler that runs none, a reader who turned it off): the host page, not
    // Parley's frame, holds the thread.
    const context = await h.browser.newContext({ javaScriptEnabled: false });
    const plain = await context.newPage();
    pages.push({ page: plain, context, log: track(context) });
    await plain.goto(h.storyUrl(article));
    const included = plain.locator('#parley-thread > section.parley-comments');
    await included.getByText('First, in the article’s own HTML').waitFor();
    // Threaded: the reply is an article inside the first one.
    await included.locator('article article').getByText('A reply to it').waitFor();
    const ld = JSON.parse(
      (await included.locator('script[type="application/ld+json"]').textContent()) ?? '{}',
    );
    expect(ld['@type']).toBe('DiscussionForumPosting');
    expect(ld.comment[0].comment[0].text).toBe('A reply to it');
    expect(await plain.locator('iframe').count()).toBe(0);

    // With scripts: the live frame, and the included HTML gone (one thread, not two).
    const live = await h.open(article);
    pages.push(live);
    const frame = live.page.frameLocator(STREAM_FRAME);
    await frame.getByText('First, in the article’s own HTML').waitFor();
    expect(await live.page.locator('#parley-thread > section.parley-comments').count()).toBe(0);
    expect(await live.page.getByText('A reply to it').count()).toBe(0);
  }));
