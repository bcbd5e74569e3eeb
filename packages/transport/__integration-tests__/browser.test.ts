import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, REPOSITORY_ROOT } from '../../../e2e/support/browser';
import { startDemoApi, startHostPage } from './demoServer';
import type { RunningDemo } from './demoServer';

// The built transport (`npm run build`) in Debian's Chromium, on a host page whose origin differs
// from the API's, as on a real site: requests, live updates across two pages, offline storage.

const OUTPUT = join(REPOSITORY_ROOT, 'test-output');

jest.setTimeout(30_000);

let api: RunningDemo;
let host: { url: string; close: () => Promise<void> };
let browser: Browser;

beforeAll(async () => {
  api = await startDemoApi();
  host = await startHostPage(api);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await api?.close();
});

async function open(): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(host.url);
  return page;
}

it('runs queries, mutations and live updates from a page on another origin', async () => {
  const posts: { method: string; type: string | null }[] = [];
  const reader = await open();
  reader.on('request', (request) => {
    if (request.url().endsWith('/graphql')) {
      posts.push({ method: request.method(), type: request.headers()['content-type'] ?? null });
    }
  });
  await reader.locator('#counter').filter({ hasText: '0' }).waitFor();
  await reader.locator('#status[data-status="connected"]').waitFor();

  const writer = await open();
  await writer.locator('#counter').filter({ hasText: '0' }).waitFor();
  await writer.getByRole('button', { name: 'Increment' }).click();
  await writer.locator('#counter').filter({ hasText: '1' }).waitFor();
  // The reader did nothing: the new value came over its socket.
  await reader.locator('#counter').filter({ hasText: '1' }).waitFor({ timeout: 2000 });
  expect(await reader.locator('#error').textContent()).toBe('');
  expect(posts.every((p) => p.method === 'POST' && p.type === 'application/json')).toBe(true);

  mkdirSync(OUTPUT, { recursive: true });
  await reader.screenshot({ path: join(OUTPUT, 'transport-demo.png') });
  await Promise.all([reader.close(), writer.close()]);
});

it('keeps a draft in IndexedDB across a reload', async () => {
  const page = await open();
  await page.locator('#backend').filter({ hasText: 'indexeddb' }).waitFor();
  await page.getByLabel(/Draft/).fill('A comment I have not posted yet');
  await page
    .locator('#usage')
    .filter({ hasText: /^[1-9]\d* of 4980736 bytes$/ })
    .waitFor();
  await page.reload();
  await page.locator('#backend').filter({ hasText: 'indexeddb' }).waitFor();
  await expect(page.getByLabel(/Draft/).inputValue()).resolves.toBe(
    'A comment I have not posted yet',
  );
  await page.close();
});
