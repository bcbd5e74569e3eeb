import { startReadmeReceiver } from '../../packages/server/src/webhooks/testing/readmeReceiver';
import type { ReadmeReceiver } from '../../packages/server/src/webhooks/testing/readmeReceiver';
import { journey, screenshot, useHarness } from '../harness';

// Journey 23: webhooks. The admin lets endpoints be on this machine (Configure → Advanced), adds
// one in Configure → Webhooks for new comments, gives its secret to a receiver built from the
// README's verification sample, sends a test event, and sees a reader's comment delivered, signed,
// in the endpoint's log.

const h = useHarness();
let receiver: ReadmeReceiver;
beforeAll(async () => {
  receiver = await startReadmeReceiver();
});
afterAll(async () => {
  await receiver.close();
});

describe('journey 23: webhooks', () => {
  it('adds an endpoint in the console, tests it, and delivers a new comment to it, signed', () =>
    journey('23-webhooks', async (pages) => {
      const admin = await h.openConsole('/admin/configure/advanced');
      pages.push(admin);
      const console_ = admin.page;
      await console_.getByLabel('Allow webhooks to private addresses').check();
      await console_.getByRole('button', { name: 'Save', exact: true }).click();
      await console_.getByText('Saved.', { exact: true }).waitFor();

      await console_.getByRole('link', { name: 'Webhooks', exact: true }).click();
      await console_.getByText('No webhooks yet.').waitFor();
      await console_.getByLabel('Endpoint URL').fill(receiver.url);
      await console_.getByLabel(/^Description/).fill('Newsroom bot');
      await console_.getByLabel(/^comment\.created/).check();
      await console_.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = (await console_.getByTestId('webhook-secret').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_/);
      await receiver.set({ secret });
      await console_.getByRole('button', { name: 'I have saved it' }).click();

      const endpoint = console_.getByRole('region', { name: receiver.url });
      await endpoint.getByRole('button', { name: 'Send test event' }).click();
      await console_.getByText(/^Delivered: the endpoint answered 204 in \d+ ms\.$/).waitFor();
      expect((await receiver.waitFor(1))[0]).toMatchObject({ verified: true });

      // A reader's comment reaches it, signed.
      const token = await h.signUp({
        email: 'hooked@e2e.parley.test',
        username: 'hooked',
        password: 'correct horse battery',
      });
      const story = await h.graphql<{ story: { id: string } }>(
        `query ($url: String!) { story(url: $url) { id } }`,
        { url: h.storyUrl('/articles/webhooks') },
        token,
      );
      await h.graphql(
        `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`,
        { input: { storyId: story.story.id, body: 'Hello, hooks.' } },
        token,
      );
      const [, comment] = await receiver.waitFor(2);
      expect(comment).toMatchObject({ verified: true, tampered: false });
      expect(JSON.parse(comment!.body)).toMatchObject({
        type: 'comment.created',
        data: { comment: { bodySource: 'Hello, hooks.', author: { username: 'hooked' } } },
      });

      await console_.reload();
      const row = console_
        .getByRole('region', { name: receiver.url })
        .getByRole('row')
        .filter({ hasText: 'comment.created' });
      await row.getByText('Delivered').waitFor();
      await row.getByText(/^204 in \d+ ms$/).click();
      await row.getByText('Hello, hooks.', { exact: false }).first().waitFor();
      await screenshot(console_, '23-webhooks-log');
    }));
});
