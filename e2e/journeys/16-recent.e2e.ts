import { atomProblems } from '../../packages/server/src/feeds/testing/atomProblems';
import { journey, screenshot, streamFrame, useHarness } from '../harness';

// Journey 16: the latest-comments script. The example site's article list loads
// `<parley>/recent.js`, which lists the site's latest comments, each linking to the comment in
// its article; there the thread links the story's Atom feed. A file of its own: a fresh server,
// so no list cached by another journey's visit.

const h = useHarness();

it('lists the site’s latest comments, each opening its article at the comment', () =>
  journey('16-recent', async (pages) => {
    await h.seedComments('/articles/second', ['First of two', 'Second of two']);
    await h.seedComments('/articles/third', ['The only one']);
    const list = await h.open('/list');
    pages.push(list);
    const items = list.page.locator('.parley-recent .parley-recent-item');
    await items.first().waitFor();
    await expect(items.locator('.parley-recent-text').allTextContents()).resolves.toEqual([
      'The only one',
      'Second of two',
      'First of two',
    ]);
    await expect(items.first().locator('.parley-recent-author').textContent()).resolves.toBe(
      'seeder',
    );
    await expect(items.first().locator('.parley-recent-story').textContent()).resolves.toBe(
      '/articles/third',
    );
    // One request for the list, by its trusted document.
    expect(
      list.log.filter((line) => line.includes('GraphQL → ') && line.includes('Recent')),
    ).toHaveLength(1);
    await screenshot(list.page, '16-recent-list');
    // Its link opens the article with the comment marked.
    await items.nth(1).locator('.parley-recent-text').click();
    await list.page.waitForURL(/\/articles\/second\?commentID=/);
    await streamFrame(list.page)
      .locator('article[aria-current="true"]')
      .filter({ hasText: 'Second of two' })
      .waitFor();
    // The thread links its story's Atom feed: valid, and holding the story's comments.
    const feedLink = streamFrame(list.page).getByRole('link', {
      name: 'Follow these comments in a feed reader (Atom)',
    });
    const href = await feedLink.evaluate((a) => (a as HTMLAnchorElement).href);
    const feed = await list.page.request.get(href);
    expect(feed.headers()['content-type']).toBe('application/atom+xml; charset=utf-8');
    const xml = await feed.text();
    expect(atomProblems(xml)).toEqual([]);
    expect(xml).toContain('Second of two');
    expect(xml).not.toContain('The only one');
  }));
