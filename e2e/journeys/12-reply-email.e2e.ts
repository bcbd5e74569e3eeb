import { journey, screenshot, signUpThroughPopup, streamFrame, useHarness } from '../harness';
import { atomProblems } from '../../packages/server/src/feeds/testing/atomProblems';
import { newAccount, postComment } from '../support/commenter';

// Journey 12: a reader who signs up with a password hears about replies. The
// bug was that password sign-ups stayed unconfirmed, and reply emails go to confirmed addresses
// only; a sign-up is now confirmed by the email sent to it: here by clicking its link (which
// finishes the sign-up in the popup still waiting); the code it also holds works too (other
// journeys type it). Parley delivers over real SMTP here, to an in-process server standing for
// the readers' mailboxes.

const h = useHarness({ smtp: true });

const STORY_ID = `query ($url: String!) { story(url: $url) { id comments(first: 5) { edges { node { id body } } } } }`;
const CREATE = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`;

describe('journey 12: reply email', () => {
  it('signs up with a password (the link from the mailbox), gets a reply by email, and its link opens the reply', () =>
    journey('12-reply-email', async (pages) => {
      const path = '/articles/reply-email';
      const author = await h.open(path);
      pages.push(author);
      const frame = streamFrame(author.page);
      const account = newAccount('author');

      await signUpThroughPopup(author.page, account, { by: 'link', screenshotAs: '12-sign-up' });
      await frame.getByText(`Signed in as ${account.username}`, { exact: true }).waitFor();
      // The confirmation travelled by SMTP, to the address typed, and to nobody else.
      const codeMail = await h.inbox!.waitFor((m) => m.to.includes(account.email));
      expect(codeMail.to).toEqual([account.email]);
      expect(codeMail.text).toMatch(/^ {4}\d{6}$/m);
      expect(codeMail.html).toContain('Confirm my email and finish signing up');

      const text = `Tell me when someone answers ${Date.now()}`;
      await postComment(frame, text);

      // Another reader answers (over the API, as any client would).
      const replier = newAccount('replier');
      const token = await h.signUp(replier);
      const { story } = await h.graphql<{
        story: { id: string; comments: { edges: { node: { id: string; body: string } }[] } };
      }>(STORY_ID, { url: h.storyUrl(path) });
      const parent = story.comments.edges.find((e) => e.node.body.includes(text))!.node;
      const answer = `Here is your answer ${Date.now()}`;
      const { createComment } = await h.graphql<{ createComment: { comment: { id: string } } }>(
        CREATE,
        { input: { storyId: story.id, parentId: parent.id, body: answer } },
        token,
      );

      // The author's mailbox: the reply, quoted, with a link to it on the host page.
      const replyMail = await h.inbox!.waitFor(
        (m) => m.to.includes(account.email) && m.subject.includes('replied to your comment'),
      );
      expect(replyMail.subject).toBe(`${replier.username} replied to your comment`);
      expect(replyMail.text).toContain(`> ${answer}`);
      const link = /Read and answer: (\S+)/.exec(replyMail.text)?.[1];
      expect(link).toBe(`${h.storyUrl(path)}?commentID=${createComment.comment.id}`);
      // Its HTML part (email/templates.ts) links the same reply.
      expect(replyMail.html).toContain(`href="${link}"`);

      // The author's private feed of replies, made in the profile tab, holds the answer too.
      await frame.getByRole('tab', { name: 'My profile' }).click();
      const feedSection = frame.getByRole('region', { name: 'Replies feed' });
      await feedSection.getByRole('button', { name: 'Make my feed link' }).click();
      await feedSection.getByText('Your feed link is ready.').waitFor();
      const feedUrl = await feedSection.getByLabel('Your feed link').inputValue();
      expect(feedUrl).toMatch(/\/feeds\/replies\/[\w-]+\.atom$/);
      const feed = await author.page.request.get(feedUrl);
      expect(feed.status()).toBe(200);
      expect(feed.headers()['cache-control']).toBe('private, max-age=60');
      const xml = await feed.text();
      expect(atomProblems(xml)).toEqual([]);
      expect(xml).toContain(`commentID=${createComment.comment.id}`);
      expect(xml).toContain(answer);
      await screenshot(author.page, '12-reply-email-feed-link');

      // The link opens the article with the reply marked in the thread.
      const reader = await h.open(link!.slice(h.exampleUrl.length));
      pages.push(reader);
      const marked = streamFrame(reader.page).locator('article[aria-current="true"]');
      await marked.waitFor();
      await expect(marked.textContent()).resolves.toContain(answer);
      await screenshot(reader.page, '12-reply-email-permalink');
    }));
});
