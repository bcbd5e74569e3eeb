import { UNDO_WINDOW_MS } from '@parley/admin/moderate/defaults';
import {
  ADMIN,
  installThroughWizard,
  journey,
  screenshot,
  signInToConsole,
  useHarness,
} from '../harness';
import type { Page } from 'playwright-core';

// The console's real-browser test: from an empty data folder, the install wizard in
// the browser; then, with pre-moderation on and a comment waiting, a moderator approves it with
// the keyboard and sees it leave the Pending queue — and a second moderator's console follows
// live, without a reload.

const h = useHarness({ install: false });

/** The count shown beside a queue's link ("3 comments" to a screen reader). */
const queueCount = (page: Page, queue: string) =>
  page
    .getByRole('navigation', { name: 'Queues' })
    .locator('li')
    .filter({ has: page.getByRole('link', { name: queue, exact: true }) })
    .locator('.mod-count');

/** Posts a comment on the example page `path` as a new commenter, over the public API. */
async function postAsCommenter(path: string, username: string, body: string) {
  const token = await h.signUp({
    email: `${username}@e2e.parley.test`,
    username,
    password: 'correct horse battery',
  });
  const { story } = await h.graphql<{ story: { id: string } }>(
    'query ($url: String!) { story(url: $url, title: "Console test") { id } }',
    { url: h.storyUrl(path) },
    token,
  );
  const { createComment } = await h.graphql<{ createComment: { comment: { status: string } } }>(
    'mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { status } } }',
    { input: { storyId: story.id, body } },
    token,
  );
  return createComment.comment.status;
}

describe('console', () => {
  it('installs through the wizard, then a keyboard approval takes a comment out of Pending, live', () =>
    journey('console', async (pages) => {
      // The wizard, from an empty data folder; its done step signs the admin in.
      const owner = await h.openUrl(`${h.parleyUrl}/install`);
      pages.push(owner);
      const page = owner.page;
      await installThroughWizard(page, { siteUrl: h.exampleUrl });
      await page.getByRole('link', { name: 'Open the console', exact: true }).click();
      await page.getByRole('navigation', { name: 'Console', exact: true }).waitFor();

      // Configure › Moderation: all comments wait for approval.
      await page.getByRole('link', { name: 'Configure', exact: true }).click();
      await page.getByRole('link', { name: 'Moderation', exact: true }).click();
      await page.getByRole('radio', { name: 'All comments wait for approval' }).check();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

      // Moderate opens on Pending now (pre-moderation is on), empty.
      await page.getByRole('link', { name: 'Moderate', exact: true }).click();
      await page
        .getByRole('link', { name: 'Pending', exact: true })
        .and(page.locator('[aria-current="page"]'))
        .waitFor();
      await page.getByText('Nothing to review here.').waitFor();
      await queueCount(page, 'Pending')
        .filter({ hasText: /^0 comments$/ })
        .waitFor();

      // A second moderator (the same admin, another browser) watches Pending too.
      const watcher = await h.openUrl(`${h.parleyUrl}/admin/login`);
      pages.push(watcher);
      await signInToConsole(watcher.page, ADMIN);
      await watcher.page
        .getByRole('link', { name: 'Pending', exact: true })
        .and(watcher.page.locator('[aria-current="page"]'))
        .waitFor();

      // A commenter posts; it is held, and arrives in both consoles live (behind "1 new" where
      // a list is open, so nothing jumps under the moderator's cursor).
      const text = `Please approve me ${Date.now()}`;
      await expect(postAsCommenter('/', 'heldcommenter', text)).resolves.toBe('PREMOD');
      await queueCount(page, 'Pending')
        .filter({ hasText: /^1 comment$/ })
        .waitFor();
      await queueCount(watcher.page, 'Pending')
        .filter({ hasText: /^1 comment$/ })
        .waitFor();
      const card = page.getByRole('article').filter({ hasText: text });
      const arrived = page.getByRole('button', { name: '1 new', exact: true });
      await card.or(arrived).first().waitFor();
      if (await arrived.isVisible()) await arrived.click();
      await card.waitFor();
      await expect(card.textContent()).resolves.toContain('heldcommenter');
      const watched = watcher.page.getByRole('article').filter({ hasText: text });
      const watcherArrived = watcher.page.getByRole('button', { name: '1 new', exact: true });
      await watched.or(watcherArrived).first().waitFor();
      if (await watcherArrived.isVisible()) await watcherArrived.click();
      await watched.waitFor();
      await screenshot(page, 'console-pending');

      // Keyboard only: `j` selects the card, `a` approves it.
      await page.keyboard.press('j');
      await expect(card.getAttribute('aria-current')).resolves.toBe('true');
      await page.keyboard.press('a');
      const approved = Date.now();
      await card.waitFor({ state: 'detached' });
      await page
        .getByRole('status')
        .filter({ hasText: 'Approved heldcommenter’s comment' })
        .waitFor();
      await page.getByText('Nothing to review here.').waitFor();

      // Sent when the undo window closes: the counts drop in both consoles, and the other
      // moderator's card says someone else handled it — all without a reload.
      const sentWithin = { timeout: UNDO_WINDOW_MS + 5000 };
      await queueCount(page, 'Pending')
        .filter({ hasText: /^0 comments$/ })
        .waitFor(sentWithin);
      expect(Date.now() - approved).toBeGreaterThanOrEqual(UNDO_WINDOW_MS);
      await queueCount(page, 'Approved')
        .filter({ hasText: /^1 comment$/ })
        .waitFor();
      await queueCount(watcher.page, 'Pending')
        .filter({ hasText: /^0 comments$/ })
        .waitFor();
      await watched.getByText('Already handled by another moderator.').waitFor();
      await expect(watched.getByRole('button', { name: 'Approve' }).count()).resolves.toBe(0);

      // And it is published: readers get it.
      const { story } = await h.graphql<any>(
        'query ($url: String!) { story(url: $url) { comments(first: 5) { edges { node { body } } } } }',
        { url: h.storyUrl('/') },
      );
      expect(story.comments.edges.map((e: any) => e.node.body).join()).toContain(text);

      // Configure › API tokens: a token for a script, its secret shown once, then revoked.
      await page.getByRole('link', { name: 'Configure', exact: true }).click();
      await page.getByRole('link', { name: 'API tokens', exact: true }).click();
      await page.getByText('No API tokens yet.').waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Counts script');
      await page.getByRole('button', { name: 'Create token', exact: true }).click();
      const secret = await page.getByTestId('api-token-secret').textContent();
      expect(secret).toMatch(/^parley_pat_/);
      await page.getByRole('rowheader', { name: 'Counts script' }).waitFor();
      await screenshot(page, 'console-api-token');
      const counts = () =>
        fetch(`${h.parleyUrl}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
          body: JSON.stringify({ query: '{ moderationCounts { approved } }' }),
        });
      const read = await counts();
      expect(await read.json()).toEqual({ data: { moderationCounts: { approved: 1 } } });
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Revoke Counts script' }).click();
      await page.getByText(/^Revoked /).waitFor();
      expect((await counts()).status).toBe(401);
    }));
});
