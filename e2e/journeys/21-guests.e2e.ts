import { journey, screenshot, streamFrame, useHarness } from '../harness';

// Journey 21: the admin lets guests comment (Configure › Authentication); a reader with no account
// writes a comment, gives a name and an email in the guest form, and it is posted as theirs,
// waiting for a moderator; the email's link confirms the address; the admin approves the comment
// from Pending, where it is held "written by a guest", and any reader sees it with a Guest badge;
// from Community's guests the admin bans the guest's network, which stops their next post, and
// lifts the ban, after which it goes through.

const h = useHarness({ smtp: true });

describe('journey 21: guest comments', () => {
  it('posts as a guest, confirms the email, is approved, and is stopped by a network ban', () =>
    journey('21-guests', async (pages) => {
      const path = '/articles/guests';
      const admin = await h.openConsole('/admin/configure/authentication');
      pages.push(admin);
      const console_ = admin.page;
      await console_.getByLabel('Guest comments', { exact: true }).check();
      await console_.getByRole('button', { name: 'Save', exact: true }).click();
      await console_.getByText('Saved.', { exact: true }).waitFor();

      const guest = await h.open(path);
      pages.push(guest);
      const frame = streamFrame(guest.page);
      const text = 'Hello from someone without an account';
      await frame.getByRole('textbox', { name: 'Write a comment', exact: true }).fill(text);
      await frame.getByRole('button', { name: 'Post', exact: true }).click();
      const form = frame.getByRole('form', { name: /Post as a guest/ });
      await form.getByLabel('Your name', { exact: true }).fill('Sam Guest');
      await form
        .getByLabel('Email (optional, for replies)', { exact: true })
        .fill('sam@e2e.parley.test');
      await screenshot(guest.page, '21-guest-form');
      await form.getByRole('button', { name: 'Post as guest', exact: true }).click();
      // The stream is now the guest's, and the draft went out as theirs, held for review.
      await frame.getByText('Commenting as Sam Guest (guest)', { exact: true }).waitFor();
      const mine = frame.getByRole('article').filter({ hasText: text });
      await mine.filter({ hasText: 'Your comment will appear after review' }).waitFor();
      await expect(
        frame.getByRole('textbox', { name: 'Write a comment', exact: true }).inputValue(),
      ).resolves.toBe('');
      await expect(frame.getByRole('tab', { name: 'Profile' }).count()).resolves.toBe(0);
      await screenshot(guest.page, '21-guest-held');

      // The confirmation link, from the guest's mailbox.
      const mail = await h.inbox!.waitFor(
        (m) => m.to.includes('sam@e2e.parley.test') && m.text.includes('/account/confirm-email#'),
      );
      const link = /https?:\/\/\S+\/account\/confirm-email#token=[\w-]+/.exec(mail.text)![0];
      const confirm = await h.openUrl(link);
      pages.push(confirm);
      await confirm.page
        .getByRole('button', { name: 'Confirm my email address', exact: true })
        .click();
      await confirm.page.getByText(/is confirmed\.$/).waitFor();

      // Pending holds it, saying why; the admin approves it.
      await console_.goto(`${h.parleyUrl}/admin/moderate/pending`);
      const card = console_.getByRole('article').filter({ hasText: text });
      await card.filter({ hasText: 'Written by a guest' }).waitFor();
      await card.getByRole('button', { name: /^Approve/ }).click();
      await card.waitFor({ state: 'detached' });

      // Any reader sees it, marked as a guest's.
      const reader = await h.open(path);
      pages.push(reader);
      const readerFrame = streamFrame(reader.page);
      const published = readerFrame.getByRole('article').filter({ hasText: text });
      // The decision goes out when the console's undo window closes: live, behind "new comments".
      const newComments = readerFrame.getByRole('button', { name: /new comments?$/ });
      await published.or(newComments).first().waitFor({ timeout: 15_000 });
      if (!(await published.isVisible())) await newComments.click();
      await published
        .filter({ hasText: 'Sam Guest' })
        .locator('.parley-badge', { hasText: 'Guest' })
        .waitFor();
      await screenshot(reader.page, '21-guest-badge');

      // Community › guests: their comments and address, and a ban of their network.
      await console_.goto(`${h.parleyUrl}/admin/community`);
      await console_.getByLabel('Kind', { exact: true }).selectOption('GUESTS');
      const row = console_.getByRole('row').filter({ hasText: 'Sam Guest' });
      await row.getByRole('button', { name: 'Comments of Sam Guest', exact: true }).click();
      const drawer = console_.getByRole('dialog', { name: 'Sam Guest' });
      await drawer.getByText(text).waitFor();
      const range = drawer.getByLabel('Address or range', { exact: true });
      await expect(range.inputValue()).resolves.toMatch(/^(127\.0\.0\.0\/24|::\/64)$/);
      const banned = await range.inputValue();
      await drawer.getByRole('button', { name: 'Ban network', exact: true }).click();
      await drawer
        .getByText(new RegExp(`^Banned ${banned.replace(/[./]/g, '\\$&')} until `))
        .waitFor();
      await screenshot(console_, '21-guest-drawer');

      // The guest's next post is refused, with the reason, and kept in the box.
      const again = 'A second thought';
      const box = frame.getByRole('textbox', { name: 'Write a comment', exact: true });
      await box.fill(again);
      await frame.getByRole('button', { name: 'Post', exact: true }).click();
      await frame
        .getByText('Posting from your network is paused by the moderators.', { exact: true })
        .waitFor();
      await expect(box.inputValue()).resolves.toBe(again);

      // Lifted from Community's list of banned networks, the same post goes through.
      await drawer.getByRole('button', { name: /^Close/ }).click();
      await console_
        .getByRole('button', { name: `Lift the ban of ${banned}`, exact: true })
        .click();
      await console_
        .getByRole('rowheader', { name: banned })
        .locator('..')
        .getByText(/^Lifted /)
        .waitFor();
      await frame.getByRole('button', { name: 'Post', exact: true }).click();
      await frame
        .getByRole('article')
        .filter({ hasText: again })
        .filter({ hasText: 'Your comment will appear after review' })
        .waitFor();
    }));
});
