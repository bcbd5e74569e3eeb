import { journey, screenshot, signUpThroughPopup, streamFrame, useHarness } from '../harness';
import { newAccount, postComment } from '../support/commenter';

// Journey 12: a reader who signs up with a password hears about replies. The
// bug was that password sign-ups stayed unconfirmed, and reply emails go to confirmed addresses
// only; a sign-up is now confirmed by the code emailed to it. Parley delivers over real SMTP here,
// to an in-process server standing for the readers' mailboxes.

const h = useHarness({ smtp: true });

const STORY_ID = `query ($url: String!) { story(url: $url) { id comments(first: 5) { edges { node { id body } } } } }`;
const CREATE = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`;

describe('journey 12: reply email', () => {
  it('signs up with a password (the code from the mailbox), gets a reply by email, and its link opens the reply', () =>
    journey('12-reply-email', async (pages) => {
      const path = '/articles/reply-email';
      const author = await h.open(path);
      pages.push(author);
      const frame = streamFrame(author.page);
      const account = newAccount('author');

      await signUpThroughPopup(author.page, account);
      await frame.getByText(`Signed in as ${account.username}`, { exact: true }).waitFor();
      // The code travelled by SMTP, to the address typed, and to nobody else.
      const codeMail = await h.inbox!.waitFor((m) => m.to.includes(account.email));
      expect(codeMail.to).toEqual([account.email]);
      expect(codeMail.text).toMatch(/^ {4}\d{6}$/m);

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

      // The link opens the article with the reply marked in the thread.
      const reader = await h.open(link!.slice(h.exampleUrl.length));
      pages.push(reader);
      const marked = streamFrame(reader.page).locator('article[aria-current="true"]');
      await marked.waitFor();
      await expect(marked.textContent()).resolves.toContain(answer);
      await screenshot(reader.page, '12-reply-email-permalink');
    }));
});
