import { UNDO_WINDOW_MS } from '@parley/admin/moderate/defaults';
import { journey, screenshot, signUpThroughPopup, useHarness, streamFrame } from '../harness';

// Journey 4: an admin turns pre-moderation on for all comments in the console; a
// reader's new comment says it awaits review and stays hidden from other readers; it waits in
// Pending; approved with the keyboard, it appears live in the other reader's stream.

/** The stream's note on a held comment (packages/stream/src/messages/en/thread.ts). */
const HELD = 'Your comment will appear after review';

/** The console sends a decision when its undo window closes; then the streams follow live. */
const DECISION_SEEN_WITHIN_MS = UNDO_WINDOW_MS + 5000;

const h = useHarness();

describe('journey 4: pre-moderation', () => {
  it('holds a comment for review, lists it in Pending, and publishes it live when approved with the keyboard', () =>
    journey('04-premod', async (pages) => {
      const path = '/articles/third';

      // Configure › Moderation: all comments wait for approval.
      const admin = await h.openConsole('/admin/configure/moderation');
      pages.push(admin);
      const console_ = admin.page;
      await console_.getByRole('heading', { name: 'Moderation', exact: true }).waitFor();
      const all = console_.getByRole('radio', { name: 'All comments wait for approval' });
      await expect(
        console_.getByRole('radio', { name: /^Off: publish at once/ }).isChecked(),
      ).resolves.toBe(true);
      await all.check();
      await console_.getByRole('status').filter({ hasText: 'Unsaved changes.' }).waitFor();
      await console_.getByRole('button', { name: 'Save', exact: true }).click();
      await console_.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      const { settings } = await h.graphql<{ settings: { premod: string } }>(
        '{ settings { premod } }',
      );
      expect(settings.premod).toBe('ALL');

      // Two readers on the same story; the second only reads.
      const writer = await h.open(path);
      pages.push(writer);
      const other = await h.open(path);
      pages.push(other);
      const writerFrame = streamFrame(writer.page);
      const otherFrame = streamFrame(other.page);
      await otherFrame.getByText('No comments yet. Start the conversation!').waitFor();

      await signUpThroughPopup(writer.page, {
        email: 'premod-writer@e2e.parley.test',
        username: 'premodwriter',
        password: 'correct horse battery',
      });
      await writerFrame.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
      const text = `Held for review ${Date.now()}`;
      const box = writerFrame.getByRole('textbox', { name: 'Write a comment', exact: true });
      await box.fill(text);
      await writerFrame.getByRole('button', { name: 'Post', exact: true }).click();

      // The writer is told it awaits review; the box is free again.
      const mine = writerFrame.getByRole('article').filter({ hasText: text });
      await mine.filter({ hasText: HELD }).waitFor();
      await expect(box.inputValue()).resolves.toBe('');
      // Not published: it counts for nobody yet.
      await writerFrame.getByText('0 comments', { exact: true }).waitFor();
      await screenshot(writer.page, '04-premod-held');

      // It waits in Pending, with the count.
      await console_.goto(`${h.parleyUrl}/admin/moderate/pending`);
      const pendingCount = console_
        .getByRole('navigation', { name: 'Queues' })
        .locator('li')
        .filter({ has: console_.getByRole('link', { name: 'Pending', exact: true }) })
        .locator('.mod-count');
      const card = console_.getByRole('article').filter({ hasText: text });
      await card.waitFor();
      await expect(card.textContent()).resolves.toContain('premodwriter');
      await pendingCount.filter({ hasText: /^1 comment$/ }).waitFor();
      await expect(console_.getByRole('article').count()).resolves.toBe(1);

      // The other reader sees nothing: not live, not behind "new comments", not after a load.
      const newComments = otherFrame.getByRole('button', { name: /new comments?$/ });
      await expect(otherFrame.getByRole('article').count()).resolves.toBe(0);
      await expect(newComments.count()).resolves.toBe(0);
      const fresh = await h.open(path);
      pages.push(fresh);
      await streamFrame(fresh.page).getByText('No comments yet. Start the conversation!').waitFor();
      await expect(streamFrame(fresh.page).getByRole('article').count()).resolves.toBe(0);
      await fresh.context.close();
      pages.pop();

      // Approve with the keyboard: `j` selects (the first card already is), `a` approves.
      await console_.keyboard.press('j');
      await expect(card.getAttribute('aria-current')).resolves.toBe('true');
      await console_.keyboard.press('a');
      const approved = Date.now();
      await card.waitFor({ state: 'detached' });
      await console_
        .getByRole('status')
        .filter({ hasText: 'Approved premodwriter’s comment' })
        .waitFor();
      await console_.getByText('Nothing to review here.').waitFor();

      // Sent when the undo window closes: the other reader gets it live, without a reload.
      const theirs = otherFrame.getByRole('article').filter({ hasText: text });
      await theirs.or(newComments).first().waitFor({ timeout: DECISION_SEEN_WITHIN_MS });
      other.log.push(`(test) reached the other reader ${Date.now() - approved} ms after \`a\``);
      expect(Date.now() - approved).toBeGreaterThanOrEqual(UNDO_WINDOW_MS);
      if (!(await theirs.isVisible())) {
        await expect(newComments.textContent()).resolves.toBe('1 new comment');
        await newComments.click();
      }
      await theirs.waitFor();
      await expect(theirs.textContent()).resolves.toContain('premodwriter');
      // The count follows live too.
      await pendingCount.filter({ hasText: /^0 comments$/ }).waitFor();
      await otherFrame.getByText('1 comment', { exact: true }).waitFor();
      // The writer's note is gone: the comment is published, and counted, once.
      await mine.filter({ hasNotText: HELD }).waitFor();
      await expect(
        writerFrame.getByRole('article').filter({ hasText: text }).count(),
      ).resolves.toBe(1);
      await writerFrame.getByText('1 comment', { exact: true }).waitFor();
    }));
});
