import { startTestOidcProvider, testProviderEmail } from '@parley/server/testing/oidc';
import type { TestOidcProvider } from '@parley/server/testing/oidc';
import type { Page } from 'playwright-core';
import { journey, screenshot, streamFrame, useHarness } from '../harness';
import { freePort } from '../support/browser';

// Journey 19: signing in with an OpenID Connect provider. The admin adds one in the console
// (Configure › Authentication), a genuine provider (oidc-provider) runs on this machine with the
// callback URL the console shows, and a reader signs in through it from the stream's popup:
// once consenting (an account is made, and they comment), once refusing on the provider's page
// (the popup says so, and nobody is signed in).

const h = useHarness();
const CLIENT = { id: 'parley-e2e', secret: 'e2e-client-secret-of-the-journey' };
let provider: TestOidcProvider | undefined;

afterAll(async () => {
  await provider?.close();
});

/** From the frame's "Sign in" to the provider's login page; resolves the popup. */
async function toProvider(page: Page, name: string): Promise<Page> {
  const opened = page.context().waitForEvent('page', { timeout: 10_000 });
  await streamFrame(page).getByRole('button', { name: 'Sign in', exact: true }).click();
  const popup = await opened;
  await popup.getByRole('button', { name: `Continue with ${name}`, exact: true }).click();
  await popup.locator('input[name="login"]').waitFor();
  return popup;
}

it('signs a reader in through an OpenID Connect provider, and says so when they refuse', () =>
  journey('19-provider-sign-in', async (pages) => {
    // The admin adds the provider; the console gives the callback URL to register with it.
    const providerPort = await freePort();
    const issuer = `http://127.0.0.1:${providerPort}`;
    const admin = await h.openConsole('/admin/configure/authentication');
    pages.push(admin);
    const settings = admin.page;
    await settings.getByRole('button', { name: 'Add a sign-in provider', exact: true }).click();
    await settings.getByLabel('Kind', { exact: true }).selectOption('OIDC');
    await settings.getByLabel('Name', { exact: true }).fill('Example ID');
    await settings.getByLabel('Issuer URL', { exact: true }).fill(issuer);
    await settings.getByLabel('Client ID', { exact: true }).fill(CLIENT.id);
    await settings.getByLabel('Client secret', { exact: true }).fill(CLIENT.secret);
    await settings.getByRole('button', { name: 'Add provider', exact: true }).click();
    const row = settings.getByRole('row', { name: /Continue with Example ID/ });
    await row.waitFor();
    const callbackUrl = (await row.locator('code').textContent()) ?? '';
    expect(callbackUrl).toMatch(new RegExp(`^${h.parleyUrl}/auth/providers/[^/]+/callback$`));
    await screenshot(settings, '19-provider-console');
    provider = await startTestOidcProvider({
      port: providerPort,
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      redirectUris: [callbackUrl],
    });

    // A reader: "Continue with Example ID" in the popup, the provider's login and consent, and
    // back, signed in under the name the provider gave.
    const reader = await h.open('/articles/provider-sign-in');
    pages.push(reader);
    const frame = streamFrame(reader.page);
    const opened = reader.context.waitForEvent('page', { timeout: 10_000 });
    await frame.getByRole('button', { name: 'Sign in', exact: true }).click();
    const popup = await opened;
    await popup.getByRole('button', { name: 'Continue with Example ID', exact: true }).waitFor();
    await screenshot(popup, '19-provider-popup');
    await popup.getByRole('button', { name: 'Continue with Example ID', exact: true }).click();
    await popup.locator('input[name="login"]').fill('ann');
    await popup.locator('input[name="password"]').fill('anything');
    await popup.getByRole('button', { name: 'Sign-in', exact: true }).click();
    const closed = popup.waitForEvent('close', { timeout: 15_000 });
    await popup.getByRole('button', { name: 'Continue', exact: true }).click();
    await closed;
    await frame.getByText('Signed in as ann', { exact: true }).waitFor();
    const text = `Signed in with a provider ${Date.now()}`;
    await frame.getByRole('textbox', { name: 'Write a comment', exact: true }).fill(text);
    await frame.getByRole('button', { name: 'Post', exact: true }).click();
    await frame
      .getByRole('article')
      .filter({ hasText: text })
      .filter({ hasNotText: /posting/i })
      .waitFor();
    await screenshot(reader.page, '19-provider-signed-in');
    // The account: the provider's verified address, connected to the provider.
    const { users } = await h.graphql<any>(
      `{ users(query: "ann") { edges { node { username email emailVerified } } } }`,
      {},
      h.admin.token,
    );
    expect(users.edges.map((e: any) => e.node)).toEqual([
      { username: 'ann', email: testProviderEmail('ann'), emailVerified: true },
    ]);

    // Another reader refuses on the provider's page: the popup says so; nobody is signed in.
    const refuser = await h.open('/articles/provider-sign-in');
    pages.push(refuser);
    const refusing = await toProvider(refuser.page, 'Example ID');
    await refusing.getByRole('link', { name: '[ Cancel ]', exact: true }).click();
    await refusing
      .getByRole('alert')
      .filter({ hasText: 'You did not allow the sign-in, so nothing was shared.' })
      .waitFor();
    expect(new URL(refusing.url()).pathname).toBe('/embed/auth');
    // The popup is as it was opened: the provider is there to try again.
    await refusing.getByRole('button', { name: 'Continue with Example ID', exact: true }).waitFor();
    // The code and error are not left in the popup's address.
    expect(new URL(refusing.url()).searchParams.get('error')).toBeNull();
    await screenshot(refusing, '19-provider-denied');
    await streamFrame(refuser.page).getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  }));
