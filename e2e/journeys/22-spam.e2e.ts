import { UNDO_WINDOW_MS } from '@parley/admin/moderate/defaults';
import { journey, screenshot, signUpThroughPopup, useHarness, streamFrame } from '../harness';

// Journey 22: the local spam filter. A brand-new account posts spam (phrases, links): the
// stream says it awaits review, the console's Pending queue shows it as "Likely spam" with its
// score, and the moderator's "Spam" button rejects it as spam (which teaches the filter).

/** The stream's note on a held comment (packages/stream/src/messages/en/thread.ts). */
const HELD = 'Your comment will appear after review';

const h = useHarness();

describe('journey 22: spam', () => {
  it('holds a new account’s spam as likely spam, and the console rejects it as spam', () =>
    journey('22-spam', async (pages) => {
      const path = '/articles/spam';
      const writer = await h.open(path);
      pages.push(writer);
      const frame = streamFrame(writer.page);
      await frame.getByText('No comments yet. Start the conversation!').waitFor();
      await signUpThroughPopup(writer.page, {
        email: 'spam-writer@e2e.parley.test',
        username: 'spamwriter',
        password: 'correct horse battery',
      });
      await frame.getByRole('button', { name: 'Sign out', exact: true }).waitFor();

      const text = `Make money from home! Free spins at https://spins.com and https://spins.com/bonus ${Date.now()}`;
      await frame.getByRole('textbox', { name: 'Write a comment', exact: true }).fill(text);
      await frame.getByRole('button', { name: 'Post', exact: true }).click();
      const mine = frame.getByRole('article').filter({ hasText: 'Free spins' });
      await mine.filter({ hasText: HELD }).waitFor();
      await frame.getByText('0 comments', { exact: true }).waitFor();

      const moderator = await h.openConsole('/admin/moderate/pending');
      pages.push(moderator);
      const console_ = moderator.page;
      const card = console_.getByRole('article').filter({ hasText: 'Free spins' });
      await card.waitFor();
      const reason = card.getByText(/^Likely spam \(score 0\.9\d\)$/);
      await reason.waitFor();
      moderator.log.push(`(test) the card says: ${await reason.textContent()}`);
      await screenshot(console_, '22-spam-card');

      await card.getByRole('button', { name: 'Spam', exact: true }).click();
      await card.waitFor({ state: 'detached' });
      await console_
        .getByRole('status')
        .filter({ hasText: 'Rejected as spam spamwriter’s comment' })
        .waitFor();
      // Sent when the undo window closes: then it is in Rejected.
      await console_.waitForTimeout(UNDO_WINDOW_MS + 500);
      await console_.goto(`${h.parleyUrl}/admin/moderate/rejected`);
      await console_.getByRole('article').filter({ hasText: 'Free spins' }).waitFor();
    }));
});
