import { journey, useHarness, streamFrame } from '../harness';
import { EXAMPLE_SSO_USER } from '../../examples/host/createExampleServer';

// Journey 6: single sign-on. The example host's `/sso` page signs a token for its own
// reader with the site's SSO key; the stream signs that reader in without Parley's popup. An
// expired token is refused with a clear message; a host that can refresh it gets signed in anyway.

/** What the stream's auth bar says once the host's reader is signed in. */
const SIGNED_IN_AS = `Signed in as ${EXAMPLE_SSO_USER.username}`;

/** What the stream says when the host's token has expired (messages/en/auth.ts). */
const SSO_EXPIRED = /Your site’s sign-in has expired/;

const h = useHarness();

/** The comments of the story of `path`, oldest first, as the server answers anyone. */
async function storedComments(path: string): Promise<{ body: string; author: string }[]> {
  const { story } = await h.graphql<any>(
    `query ($url: String!) {
      story(url: $url) { comments(first: 10) { edges { node { body author { username } } } } }
    }`,
    { url: h.storyUrl(path) },
  );
  return (story?.comments.edges ?? []).map((e: any) => ({
    body: e.node.body,
    author: e.node.author.username,
  }));
}

it('signs the host’s own reader in from the SSO page, without the popup, and they comment', () =>
  journey('06-sso', async (pages) => {
    const sso = await h.open('/sso');
    pages.push(sso);
    const frame = streamFrame(sso.page);

    await frame.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    // Under the host's name, not a Parley account's.
    await frame.locator('.parley-authbar').getByText(SIGNED_IN_AS).waitFor();
    await expect(frame.getByRole('button', { name: 'Sign in', exact: true }).count()).resolves.toBe(
      0,
    );
    await expect(frame.getByText(SSO_EXPIRED).count()).resolves.toBe(0);
    // No popup ever opened: the host's token was the whole sign-in.
    expect(sso.context.pages()).toHaveLength(1);

    // Signed in for real: a comment posted now is stored under the host's reader.
    const text = `Posted through the host's sign-in ${Date.now()}`;
    await frame.getByRole('textbox', { name: 'Write a comment', exact: true }).fill(text);
    await frame.getByRole('button', { name: 'Post', exact: true }).click();
    await frame
      .getByRole('article')
      .filter({ hasText: text })
      .filter({ hasNotText: /posting/i })
      .waitFor();
    const stored = await storedComments('/sso');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ author: EXAMPLE_SSO_USER.username });
    expect(stored[0]?.body).toContain(text);
  }));

it('says so when the host passes an expired SSO token, and stays signed out', () =>
  journey('06-sso-expired', async (pages) => {
    const sso = await h.open('/sso?expired=1');
    pages.push(sso);
    const frame = streamFrame(sso.page);

    // The message is in the frame (the host page's own notice is outside it).
    await frame.getByText(SSO_EXPIRED).waitFor();
    // Not signed in as anyone: the Sign in button, no Sign out, the host's reader not named in
    // the auth bar (the first journey's comment, by them, is on this story: it may show below).
    await frame.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await expect(
      frame.getByRole('button', { name: 'Sign out', exact: true }).count(),
    ).resolves.toBe(0);
    await expect(
      frame.locator('.parley-authbar').getByText(EXAMPLE_SSO_USER.username).count(),
    ).resolves.toBe(0);
    // Nothing was fetched to refresh it: this host has no refreshAccessToken.
    const fetched = await sso.page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname),
    );
    expect(fetched).not.toContain('/sso/token');
  }));

it('signs in with a fresh token from refreshAccessToken when the first one has expired', () =>
  journey('06-sso-refresh', async (pages) => {
    const sso = await h.open('/sso?expired=1&refresh=1');
    pages.push(sso);
    const frame = streamFrame(sso.page);

    await frame.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    await frame.locator('.parley-authbar').getByText(SIGNED_IN_AS).waitFor();
    // Refreshed quietly: no expiry message left behind, no popup.
    await expect(frame.getByText(SSO_EXPIRED).count()).resolves.toBe(0);
    expect(sso.context.pages()).toHaveLength(1);
    // The frame refused the expired token and told the host, which fetched a fresh one.
    const fetched = await sso.page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname),
    );
    expect(fetched).toContain('/sso/token');
  }));
