import { ADMIN, journey, screenshot, useHarness } from '../harness';

// Journey 24: moderator alerts. The admin asks, in the console's Alerts page, for an email for
// each comment awaiting review; a reader's comment is held; the email arrives over real SMTP; its
// Approve link opens a page that shows the comment and decides nothing until its button is
// pressed; then the comment is published.

const h = useHarness({ smtp: true });

const STORY = `query ($url: String!) { story(url: $url) { id comments(first: 5) { edges { node { id body } } } } }`;
const CREATE = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id status } } }`;

describe('journey 24: moderator alerts', () => {
  it('emails a held comment to the admin who asked, whose Approve link decides only on its page', () =>
    journey('24-moderator-alerts', async (pages) => {
      // Alerts go to confirmed addresses: the installed admin's is confirmed as a reader's would be.
      await h.server.deps.db
        .updateTable('users')
        .set({ email_verified: 1 })
        .where('email', '=', ADMIN.email)
        .execute();
      await h.graphql(
        `mutation { updateSettings(input: { premod: ALL }) { settings { premod } } }`,
        {},
        h.admin.token,
      );

      const admin = await h.openConsole('/admin/alerts');
      pages.push(admin);
      const select = admin.page.getByLabel(/^Email alerts for /);
      await select.selectOption({ label: 'Each comment as it comes' });
      await admin.page.getByText('Saved.', { exact: true }).waitFor();
      await screenshot(admin.page, '24-alerts-page');

      const path = '/articles/alerts';
      const token = await h.signUp({
        email: 'held@e2e.parley.test',
        username: 'heldwriter',
        password: 'correct horse battery',
      });
      const { story } = await h.graphql<{ story: { id: string } }>(STORY, {
        url: h.storyUrl(path),
      });
      const text = `Please review me ${Date.now()}`;
      const { createComment } = await h.graphql<{
        createComment: { comment: { id: string; status: string } };
      }>(CREATE, { input: { storyId: story.id, body: text } }, token);
      expect(createComment.comment.status).toBe('PREMOD');

      const mail = await h.inbox!.waitFor(
        (m) => m.to.includes(ADMIN.email) && m.subject.startsWith('Awaiting review on'),
      );
      expect(mail.subject).toMatch(/: a comment by heldwriter$/);
      expect(mail.text).toContain(text);
      expect(mail.text).toContain(`/admin/moderate/pending?comment=${createComment.comment.id}`);
      const approve = /Or decide from here \(you confirm on the page\): (\S+)/.exec(mail.text)?.[1];
      expect(approve).toMatch(/\/account\/moderate#token=/);

      // Opening the link (as a mail scanner would) decides nothing.
      const linkPage = await h.openUrl(approve!);
      pages.push(linkPage);
      await linkPage.page.getByRole('heading', { name: 'Approve a comment' }).waitFor();
      await linkPage.page.getByText(text).waitFor();
      const visible = async () =>
        (
          await h.graphql<{ story: { comments: { edges: { node: { body: string } }[] } } }>(STORY, {
            url: h.storyUrl(path),
          })
        ).story.comments.edges.some((e) => e.node.body.includes(text));
      expect(await visible()).toBe(false);
      await screenshot(linkPage.page, '24-approve-page');

      await linkPage.page.getByRole('button', { name: 'Approve this comment' }).click();
      await linkPage.page.getByText('Approved.', { exact: true }).waitFor();
      expect(await visible()).toBe(true);
    }));
});
