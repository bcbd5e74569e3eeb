import { EXAMPLE_SSO_USER } from '../../examples/host/createExampleServer';
import { journey, screenshot, streamFrame, useHarness } from '../harness';
import { postComment } from '../support/commenter';

// Journey 25: a React app (examples/react-app, @parley/react). Two articles on two client-side
// routes, the thread in the app's layout: moving between them switches the thread in the same
// frame (no page load, no new frame, the reader still signed in), and the reader posts on each.
// The counts in the app's menu come from <ParleyCount>.

const h = useHarness();

it('follows the app from route to route in one frame, and the reader posts on each', () =>
  journey('25-react-app', async (pages) => {
    await h.seedComments('/app/second', ['Already here on the second']);
    const app = await h.open('/app/');
    pages.push(app);
    const { page } = app;
    const frame = streamFrame(page);
    // The counts of both articles, from one request.
    const menu = page.locator('nav');
    await menu.filter({ hasText: 'The second article of the app (1 comment)' }).waitFor();
    await menu.filter({ hasText: 'The first article of the app (0 comments)' }).waitFor();
    expect(app.log.filter((line) => line.includes('GraphQL → POST Counts'))).toHaveLength(1);

    // The host's own sign-in, handed to the thread as a prop (accessToken).
    await page.getByRole('button', { name: 'Sign in to the app', exact: true }).click();
    await frame.getByText(`Signed in as ${EXAMPLE_SSO_USER.username}`, { exact: true }).waitFor();
    await postComment(frame, 'On the first route');

    // Marks that a page load or a new frame would lose.
    await page.evaluate(() => {
      (window as { stayed?: boolean }).stayed = true;
      (document.querySelector('iframe') as HTMLIFrameElement & { first?: boolean }).first = true;
    });
    await page.getByRole('link', { name: 'The second article of the app' }).click();
    await page.waitForURL(/\/app\/second$/);
    await frame.getByText('Already here on the second').waitFor();
    await frame.getByText(`Signed in as ${EXAMPLE_SSO_USER.username}`, { exact: true }).waitFor();
    expect(await frame.getByText('On the first route').count()).toBe(0);
    await postComment(frame, 'On the second route');
    await screenshot(page, '25-react-app-second');

    await page.goBack();
    await page.waitForURL(/\/app\/$/);
    await frame.getByText('On the first route').waitFor();
    expect(await frame.getByText('On the second route').count()).toBe(0);
    expect(
      await page.evaluate(() => ({
        stayed: (window as { stayed?: boolean }).stayed,
        frames: document.querySelectorAll('iframe').length,
        first: (document.querySelector('iframe') as HTMLIFrameElement & { first?: boolean }).first,
      })),
    ).toEqual({ stayed: true, frames: 1, first: true });

    // Each post is stored on its own story.
    const stored = async (path: string) =>
      (
        await h.graphql<{
          story: { comments: { edges: { node: { body: string } }[] } };
        }>(`query ($url: String!) { story(url: $url) { comments { edges { node { body } } } } }`, {
          url: h.storyUrl(path),
        })
      ).story.comments.edges.map((edge) => edge.node.body);
    expect(await stored('/app/')).toEqual([expect.stringContaining('On the first route')]);
    expect(await stored('/app/second')).toEqual([
      expect.stringContaining('On the second route'),
      expect.stringContaining('Already here on the second'),
    ]);
  }));
