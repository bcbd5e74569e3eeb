import { journey, screenshot, signUpThroughPopup, useHarness, streamFrame } from '../harness';
import {
  isFocused,
  newAccount,
  pressUntilFocused,
  signUpWithKeyboard,
  storedWithText,
  textOf,
} from '../support/commenter';

// Journey 2: a reader signs up through the popup, posts, replies, reacts, edits within
// the edit window (30 s by default, DEFAULT_SETTINGS.editWindowSeconds), sees "edited", and is
// still signed in after a reload. Then the same journey with the keyboard only.

const h = useHarness();

describe('journey 2: commenter', () => {
  it('signs up, posts, replies, reacts, edits, and stays signed in after a reload', () =>
    journey('02-commenter', async (pages) => {
      const path = '/articles/commenter';
      const reader = await h.open(path);
      pages.push(reader);
      const { page } = reader;
      const frame = streamFrame(page);
      const account = newAccount('mouse');

      await signUpThroughPopup(page, account, { screenshotAs: '02-commenter-popup' });
      await frame.getByText(`Signed in as ${account.username}`, { exact: true }).waitFor();

      // Post.
      const text = `My first comment ${Date.now()}`;
      await frame.getByRole('textbox', { name: 'Write a comment', exact: true }).fill(text);
      await frame.getByRole('button', { name: 'Post', exact: true }).click();
      // The server's copy, not the "Posting…" placeholder: it has the actions.
      const mine = frame
        .getByRole('article')
        .filter({ hasText: text })
        .filter({
          has: frame.getByRole('button', { name: 'Reply', exact: true }),
        });
      await mine.waitFor();

      // Reply to it.
      const replyText = `A reply to myself ${Date.now()}`;
      await mine.getByRole('button', { name: 'Reply', exact: true }).click();
      await frame.getByRole('textbox', { name: 'Write a reply', exact: true }).fill(replyText);
      await mine.getByRole('button', { name: 'Post', exact: true }).click();
      const reply = frame
        .getByRole('article')
        .filter({ hasText: replyText })
        .filter({
          has: frame.getByRole('button', { name: 'Reply', exact: true }),
        });
      await reply.waitFor();
      // Replies are nested in the parent's list, not a new top-level comment.
      await frame
        .locator('.parley-replies')
        .getByRole('article')
        .filter({ hasText: replyText })
        .waitFor();

      // React: the count goes to 1 and the button is pressed.
      await mine.getByRole('button', { name: /^Like\b/ }).click();
      const liked = mine.getByRole('button', { name: 'Liked 1', exact: true });
      await liked.waitFor();
      expect(await liked.getAttribute('aria-pressed')).toBe('true');

      // Edit within the window: the Edit button shows while editing is allowed.
      const edited = `${text} (edited)`;
      await mine.getByRole('button', { name: 'Edit', exact: true }).click();
      const editBox = frame.getByRole('textbox', { name: 'Edit your comment', exact: true });
      await editBox.fill(edited);
      await frame.getByRole('button', { name: 'Save', exact: true }).click();
      const afterEdit = frame.getByRole('article').filter({ hasText: edited }).first();
      await afterEdit.locator('.parley-edited', { hasText: 'edited' }).waitFor();
      await editBox.waitFor({ state: 'detached' });

      // The server has it all.
      const stored = await storedWithText(h, path, edited);
      expect(stored.map((c) => textOf(c.body))).toEqual([edited]);
      expect(stored).toEqual([
        expect.objectContaining({
          reactionCount: 1,
          author: { username: account.username },
          editedAt: expect.any(String),
          replies: [expect.objectContaining({ body: expect.stringContaining(replyText) })],
        }),
      ]);

      // A reload keeps the session (the frame kept its token).
      await page.reload();
      await frame.getByText(`Signed in as ${account.username}`, { exact: true }).waitFor();
      await frame.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
      const reloaded = frame.getByRole('article').filter({ hasText: edited }).first();
      await reloaded.locator('.parley-edited').waitFor();
      await reloaded.getByRole('button', { name: 'Liked 1', exact: true }).waitFor();
      await frame.getByRole('article').filter({ hasText: replyText }).waitFor();

      // Delete the comment: asked first, then its text goes and a tombstone stays above the reply.
      await reloaded.getByRole('button', { name: 'Delete', exact: true }).first().click();
      const question = frame.getByRole('group', { name: /Delete your comment\?/ });
      await question.waitFor();
      await screenshot(page, '02-commenter-delete');
      await question.getByRole('button', { name: 'Delete', exact: true }).click();
      await frame.getByText('This comment was removed.', { exact: true }).waitFor();
      await frame.getByRole('article').filter({ hasText: edited }).waitFor({ state: 'detached' });
      await frame.getByRole('article').filter({ hasText: replyText }).waitFor();
      // Then the reply: with nothing left under it, the thread has neither after a reload.
      const replyArticle = frame.getByRole('article').filter({ hasText: replyText });
      await replyArticle.getByRole('button', { name: 'Delete', exact: true }).click();
      await question.getByRole('button', { name: 'Delete', exact: true }).click();
      await replyArticle.waitFor({ state: 'detached' });
      expect(await storedWithText(h, path, edited)).toEqual([]);
      await page.reload();
      await frame.getByText(`Signed in as ${account.username}`, { exact: true }).waitFor();
      await frame.getByText('No comments yet. Start the conversation!').waitFor();
    }));

  it('does the same with the keyboard only', () =>
    journey('02-commenter-keyboard', async (pages) => {
      const path = '/articles/commenter-keyboard';
      const reader = await h.open(path);
      pages.push(reader);
      const { page } = reader;
      const frame = streamFrame(page);
      const keys = page.keyboard;
      const account = newAccount('keys');

      // Sign up: Tab into the frame to "Sign up", Enter; the popup is typed into and submitted.
      await signUpWithKeyboard(page, account);
      await frame.getByText(`Signed in as ${account.username}`, { exact: true }).waitFor();

      // Post: Tab to the box, type, Tab to Post, Enter.
      const text = `Typed with keys ${Date.now()}`;
      await pressUntilFocused(page, frame.getByRole('textbox', { name: 'Write a comment' }));
      await keys.type(text);
      await pressUntilFocused(page, frame.getByRole('button', { name: 'Post', exact: true }));
      await keys.press('Enter');
      const mine = frame
        .getByRole('article')
        .filter({ hasText: text })
        .filter({
          has: frame.getByRole('button', { name: 'Reply', exact: true }),
        });
      await mine.waitFor();

      // Reply: Tab to the comment's Reply, Enter, Tab into the reply box, type, Tab to its Post.
      const replyText = `A keyed reply ${Date.now()}`;
      await pressUntilFocused(page, mine.getByRole('button', { name: 'Reply', exact: true }));
      await keys.press('Enter');
      await pressUntilFocused(page, frame.getByRole('textbox', { name: 'Write a reply' }));
      await keys.type(replyText);
      await pressUntilFocused(page, mine.getByRole('button', { name: 'Post', exact: true }));
      await keys.press('Enter');
      await frame
        .getByRole('article')
        .filter({ hasText: replyText })
        .filter({ has: frame.getByRole('button', { name: 'Reply', exact: true }) })
        .waitFor();

      // React with Space. The focus may have moved on: Shift+Tab back up to the comment's Like.
      const like = mine.getByRole('button', { name: /^Like\b/ });
      await pressUntilFocused(page, like, { key: 'Shift+Tab' });
      await keys.press('Space');
      const liked = mine.getByRole('button', { name: 'Liked 1', exact: true });
      await liked.waitFor();
      expect(await liked.getAttribute('aria-pressed')).toBe('true');

      // Edit: Tab to Edit, Enter; the edit box takes the body's place above the actions, so
      // Shift+Tab back to it, replace the text, Tab to Save, Enter.
      const edited = `${text} (keyed edit)`;
      await pressUntilFocused(page, mine.getByRole('button', { name: 'Edit', exact: true }));
      await keys.press('Enter');
      const editBox = frame.getByRole('textbox', { name: 'Edit your comment', exact: true });
      await editBox.waitFor();
      if (!(await isFocused(editBox))) {
        await pressUntilFocused(page, editBox, { key: 'Shift+Tab' });
      }
      // Select all and type over it (the form may swap in the author's Markdown source, which
      // for plain text is the same text: the selection survives).
      await keys.press('ControlOrMeta+A');
      await keys.type(edited);
      await pressUntilFocused(page, frame.getByRole('button', { name: 'Save', exact: true }));
      await keys.press('Enter');
      const afterEdit = frame.getByRole('article').filter({ hasText: edited }).first();
      await afterEdit.locator('.parley-edited', { hasText: 'edited' }).waitFor();

      const stored = await storedWithText(h, path, edited);
      expect(stored.map((c) => textOf(c.body))).toEqual([edited]);
      expect(stored).toEqual([
        expect.objectContaining({
          reactionCount: 1,
          author: { username: account.username },
          editedAt: expect.any(String),
          replies: [expect.objectContaining({ body: expect.stringContaining(replyText) })],
        }),
      ]);

      // Reload (F5 is a key too): still signed in.
      await page.reload();
      await frame.getByText(`Signed in as ${account.username}`, { exact: true }).waitFor();
      await frame
        .getByRole('article')
        .filter({ hasText: edited })
        .locator('.parley-edited')
        .waitFor();
    }));
});
