import { journey, signUpThroughPopup, useHarness, streamFrame } from '../harness';
import { newAccount, storedWithText } from '../support/commenter';

// Journey 8: a signed-in reader loses the connection, posts, and gets it back: the
// comment waits (the stream says so), then is sent exactly once.

/** What the stream says about a queued comment (messages/en/thread.ts, composer.ts). */
const QUEUED_IN_THREAD = 'Will be sent when you are back online';
const QUEUED_IN_COMPOSER =
  'You are offline. Your comment is saved and will be posted when you are back.';

const h = useHarness();

describe('journey 8: offline', () => {
  it('queues a comment posted offline and sends it once when back online', () =>
    journey('08-offline', async (pages) => {
      const path = '/articles/offline';
      const reader = await h.open(path);
      pages.push(reader);
      const { page, context } = reader;
      const frame = streamFrame(page);

      // The outbox is a chunk the stream fetches at idle once a reader is signed in; a reader who
      // goes offline before it ever arrived cannot queue (the text stays in the box with an
      // error). This journey is about the queue, so it waits for the chunk.
      const outboxLoaded = page.waitForResponse((r) =>
        /\/stream-createOutbox-[\w-]+\.js$/.test(r.url()),
      );
      const account = newAccount('offline');
      await signUpThroughPopup(page, account);
      await frame.getByText(`Signed in as ${account.username}`, { exact: true }).waitFor();
      expect((await outboxLoaded).ok()).toBe(true);

      await context.setOffline(true);
      // The stream noticed (navigator.onLine / the `offline` event).
      await frame
        .getByText('You are offline. Your comments will be sent when you are back.')
        .waitFor();

      const text = `Written on a train ${Date.now()}`;
      await frame.getByRole('textbox', { name: 'Write a comment', exact: true }).fill(text);
      await frame.getByRole('button', { name: 'Post', exact: true }).click();

      // Shown at once, marked as waiting; the composer says the same.
      const queued = frame.getByRole('article').filter({ hasText: text });
      await queued.getByText(QUEUED_IN_THREAD, { exact: true }).waitFor();
      await frame.getByText(QUEUED_IN_COMPOSER, { exact: true }).waitFor();
      expect(await frame.getByRole('textbox', { name: 'Write a comment' }).inputValue()).toBe('');
      // Nothing reached the server.
      expect(await storedWithText(h, path, text)).toEqual([]);

      await context.setOffline(false);
      // Sent: the server's copy (with its actions) replaces the queued one.
      const posted = frame
        .getByRole('article')
        .filter({ hasText: text })
        .filter({ has: frame.getByRole('button', { name: 'Reply', exact: true }) });
      await posted.waitFor();
      await frame.getByText(QUEUED_IN_COMPOSER).waitFor({ state: 'detached' });
      await queued.getByText(QUEUED_IN_THREAD).waitFor({ state: 'detached' });

      // Exactly once: both the `online` event and the reconnected socket flush the queue. Let
      // both have run (the live connection is back), then count.
      await frame.getByText('You are offline', { exact: false }).waitFor({ state: 'detached' });
      await frame.getByText('Live updates paused, reconnecting…').waitFor({ state: 'detached' });
      expect(await frame.getByRole('article').filter({ hasText: text }).count()).toBe(1);
      const stored = await storedWithText(h, path, text);
      expect(stored.map((c) => c.author?.username)).toEqual([account.username]);

      // No duplicate after a reload either (nothing was left in the queue to send again).
      await page.reload();
      await frame.getByText(`Signed in as ${account.username}`, { exact: true }).waitFor();
      await posted.waitFor();
      expect(await frame.getByRole('article').filter({ hasText: text }).count()).toBe(1);
      await frame.getByText('1 comment', { exact: true }).waitFor();
      expect(await storedWithText(h, path, text)).toHaveLength(1);
    }));
});
