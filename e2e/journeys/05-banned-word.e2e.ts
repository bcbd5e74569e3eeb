import { journey, screenshot, signUpThroughPopup, useHarness, streamFrame } from '../harness';
import { newAccount, storedComments } from '../support/commenter';

// Journey 5: an admin bans a word; a reader's comment containing it is refused with a
// clear message, the text stays in the box for them to fix, and nothing is stored.

/** What the stream says (messages/en/errors.ts, `error.BANNED_WORD`). */
const BANNED_WORD_TEXT =
  'Your comment contains a word this community does not allow. Please edit it and post again.';

const h = useHarness();

describe('journey 5: banned word', () => {
  it('refuses a comment with a banned word, keeps the text, stores nothing', () =>
    journey('05-banned-word', async (pages) => {
      const path = '/articles/banned-word';
      const { updateSettings } = await h.graphql<{
        updateSettings: { settings: { bannedWords: string[] } };
      }>(
        `mutation ($input: UpdateSettingsInput!) {
          updateSettings(input: $input) { settings { bannedWords } }
        }`,
        { input: { bannedWords: ['frobnicate'] } },
        h.admin.token,
      );
      expect(updateSettings.settings.bannedWords).toEqual(['frobnicate']);

      const reader = await h.open(path);
      pages.push(reader);
      const frame = streamFrame(reader.page);
      const account = newAccount('banned');
      await signUpThroughPopup(reader.page, account);
      await frame.getByText(`Signed in as ${account.username}`, { exact: true }).waitFor();

      // Whole word, any case: the matcher is case-insensitive.
      const text = `Please do not Frobnicate the widgets ${Date.now()}`;
      const box = frame.getByRole('textbox', { name: 'Write a comment', exact: true });
      await box.fill(text);
      await frame.getByRole('button', { name: 'Post', exact: true }).click();

      // The refusal, said where the reader is looking: an alert under the box.
      const alert = frame.getByRole('alert').filter({ hasText: BANNED_WORD_TEXT });
      await alert.waitFor();
      expect((await alert.textContent())?.trim()).toBe(BANNED_WORD_TEXT);
      // The text is back in the box (nothing lost), marked invalid for screen readers.
      expect(await box.inputValue()).toBe(text);
      expect(await box.getAttribute('aria-invalid')).toBe('true');
      // No comment in the thread: the optimistic "Posting…" copy went away with the refusal.
      expect(await frame.getByRole('article').count()).toBe(0);
      await frame.getByText('No comments yet. Start the conversation!').waitFor();

      // Nothing stored.
      const stored = await storedComments(h, path);
      expect(stored).toEqual({ commentCount: 0, comments: [] });

      // What the reader saw (the journey's own screenshot is taken after the reload below).
      await screenshot(reader.page, '05-banned-word-refused');

      // And a reload shows no comment either.
      await reader.page.reload();
      await frame.getByText('No comments yet. Start the conversation!').waitFor();
      expect(await frame.getByRole('article').count()).toBe(0);
    }));
});
