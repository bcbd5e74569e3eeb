import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { journey, screenshot, useHarness } from '../harness';
import { REPOSITORY_ROOT } from '../support/browser';

// Journey 20: coming over from Disqus in the console. The admin uploads a Disqus export into the
// example site (its threads were on another address), watches the import run to its report,
// finds the threads at the site's address, and downloads the site's export.

const h = useHarness();
const DISQUS = join(REPOSITORY_ROOT, 'packages/server/src/portability/fixtures/disqus.xml');

it('imports a Disqus export from the console, shows its report, and downloads the export', () =>
  journey('20-import-export', async (pages) => {
    const tracked = await h.openConsole('/admin/configure/import-export');
    pages.push(tracked);
    const { page } = tracked;
    await page.getByText('No imports yet.', { exact: true }).waitFor();
    await page.getByLabel('Format', { exact: true }).selectOption('disqus');
    await page.getByLabel('File', { exact: true }).setInputFiles(DISQUS);
    await page
      .getByLabel('Old address (optional)', { exact: true })
      .fill('https://old.news.example');
    await page.getByRole('button', { name: 'Upload and import', exact: true }).click();
    const card = page.getByRole('region', { name: 'Disqus (XML export) into Example host' });
    await card.getByText('Done', { exact: true }).waitFor({ timeout: 20_000 });
    await card.getByText(/^Imported 9 comments \(0 already here\), 2 new stories/).waitFor();
    await card.getByText('Skipped (6)', { exact: true }).click();
    await card.getByText('thread 1003 (line 36): deleted in Disqus').waitFor();
    await screenshot(page, '20-import-report');

    // The threads moved to the example site's address.
    const { story } = await h.graphql<any>(
      `query ($url: String!) { story(url: $url) { title commentCount } }`,
      { url: `${h.exampleUrl}/hello/` },
    );
    expect(story).toMatchObject({ title: 'Hello, world' });
    expect(story.commentCount).toBeGreaterThan(0);

    // The export downloads as a file.
    const downloading = page.waitForEvent('download', { timeout: 15_000 });
    await page.getByRole('button', { name: 'Download export', exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^parley-example-host-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await readFile((await download.path()) ?? '', 'utf8')) as {
      format: string;
      comments: unknown[];
    };
    expect(exported.format).toBe('parley-export');
    expect(exported.comments.length).toBeGreaterThanOrEqual(9);
  }));
