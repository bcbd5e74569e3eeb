import { journey, useHarness } from '../harness';

// Journey 10: the count script. The example site's article list loads
// `<parley>/count.js`, which fills each `.parley-count` with its story's number of comments, all
// of them from one request.

const h = useHarness();

it('shows the right count next to each article on the list page', () =>
  journey('10-count', async (pages) => {
    await h.seedComments('/articles/second', ['First of two', 'Second of two']);
    await h.seedComments('/articles/third', ['The only one']);
    const list = await h.open('/list');
    pages.push(list);
    const countRequests = () =>
      list.log.filter((line) => line.includes('GraphQL → ') && line.includes('Count')).length;

    const count = (path: string) =>
      list.page.locator(`.parley-count[data-story-url="${h.storyUrl(path)}"]`);
    await expect(list.page.locator('.parley-count').count()).resolves.toBe(3);
    await count('/articles/second').filter({ hasText: /\d/ }).waitFor();
    await expect(count('/articles/second').textContent()).resolves.toBe('2 comments');
    await expect(count('/articles/third').textContent()).resolves.toBe('1 comment');
    // The first article has no story yet: no comments, not an error or an empty element.
    await expect(count('/').textContent()).resolves.toBe('0 comments');
    // One request for every count on the page.
    expect(countRequests()).toBe(1);

    // A page that changes (a single-page site) asks again with Parley.count.reload().
    await h.seedComments('/', ['Now the first has one too']);
    await list.page.evaluate(() =>
      (
        window as unknown as { Parley: { count: { reload(): Promise<void> } } }
      ).Parley.count.reload(),
    );
    await count('/').filter({ hasText: '1 comment' }).waitFor();
    await expect(count('/articles/second').textContent()).resolves.toBe('2 comments');
    expect(countRequests()).toBe(2);
  }));
