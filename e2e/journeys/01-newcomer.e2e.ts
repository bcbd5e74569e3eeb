import { ADMIN, journey, screenshot, useHarness, streamFrame } from '../harness';

// Journey 1: a site owner's first visit. An empty data folder, the install wizard in
// the browser, the embed snippet it hands over, and the example host page (another origin)
// showing an empty thread through that snippet.

/** The stream's text for a thread without comments (packages/stream/src/messages/en/common.ts). */
const EMPTY_THREAD = 'No comments yet. Start the conversation!';

/** The origin the wizard pre-fills when the console runs locally (the `npm start` example page). */
const PREFILLED_ORIGIN = 'http://127.0.0.1:8080';

const h = useHarness({ install: false });

describe('journey 1: newcomer', () => {
  it('installs Parley through the wizard, gets the snippet, and the example page shows an empty thread', () =>
    journey('01-newcomer', async (pages) => {
      // Before install every console address leads to the wizard.
      const owner = await h.openUrl(`${h.parleyUrl}/admin`);
      pages.push(owner);
      const { page } = owner;
      await page.getByRole('heading', { name: 'Set up Parley', exact: true }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/install');

      // Inline validation: Next with empty fields stays on step 1 and says what is wrong.
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      await page.getByText('Enter an email address like ada@example.com.').waitFor();
      await expect(
        page.getByLabel('Email', { exact: true }).getAttribute('aria-invalid'),
      ).resolves.toBe('true');
      await page.getByRole('heading', { name: 'Step 1 of 3: Your admin account' }).waitFor();

      // Step 1: the admin account.
      await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
      await page.getByLabel('Username', { exact: true }).fill(ADMIN.username);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await page.getByLabel('Confirm password', { exact: true }).fill(ADMIN.password);
      await screenshot(page, '01-newcomer-step1');
      await page.getByRole('button', { name: 'Next', exact: true }).click();

      // Step 2: the organization.
      await page.getByRole('heading', { name: 'Step 2 of 3: Your organization' }).waitFor();
      await page.getByLabel('Organization name', { exact: true }).fill('Example News');
      await page.getByLabel('Contact email', { exact: true }).fill('team@e2e.parley.test');
      await page.getByLabel('Organization URL', { exact: true }).fill(h.exampleUrl);
      await page.getByRole('button', { name: 'Next', exact: true }).click();

      // Step 3: the first site. Permitted origins come pre-filled with the local example page's
      // origin (`npm start` serves it on 8080); ours runs on another port, so the owner puts it.
      await page.getByRole('heading', { name: 'Step 3 of 3: Your first site' }).waitFor();
      const origins = page.getByLabel('Permitted origins', { exact: true });
      await expect(origins.inputValue()).resolves.toBe(PREFILLED_ORIGIN);
      await page.getByLabel('Site name', { exact: true }).fill('Example host');
      await page.getByLabel('Site URL', { exact: true }).fill(h.exampleUrl);
      await origins.fill(h.exampleUrl);
      await screenshot(page, '01-newcomer-step3');
      await page.getByRole('button', { name: 'Install', exact: true }).click();
      await page.getByRole('heading', { name: 'Parley is installed', exact: true }).waitFor();

      // The done step: the snippet to paste, pointing at this Parley, and the way on.
      const snippet = page.getByLabel('Embed snippet', { exact: true });
      await snippet.waitFor();
      await expect(snippet.inputValue()).resolves.toBe(
        `<div id="parley-thread"></div>\n<script src="${h.parleyUrl}/embed.js" async></script>`,
      );
      await page.getByRole('button', { name: 'Copy', exact: true }).waitFor();
      await expect(
        page.getByRole('link', { name: 'Open the console', exact: true }).getAttribute('href'),
      ).resolves.toBe('/admin');
      await page.getByText('You are signed in as the admin.').waitFor();

      // Installed for real: the admin the wizard created can use the API.
      const { settings } = await h.graphql<{ settings: { installed: boolean } }>(
        '{ settings { installed } }',
      );
      expect(settings.installed).toBe(true);

      // The example host page embeds that same snippet; its stream loads an empty thread.
      const reader = await h.open('/');
      pages.push(reader);
      const frame = streamFrame(reader.page);
      await frame.getByText(EMPTY_THREAD, { exact: true }).waitFor();
      await expect(frame.getByRole('article').count()).resolves.toBe(0);
      await frame.getByRole('textbox', { name: 'Write a comment', exact: true }).waitFor();
      await frame.getByRole('button', { name: 'Sign in', exact: true }).waitFor();

      // After install, the wizard is gone: /install leads to the console, signed in.
      await screenshot(page, '01-newcomer-done');
      await page.getByRole('link', { name: 'Open the console', exact: true }).click();
      await page.getByRole('navigation', { name: 'Console', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
      await page.goto(`${h.parleyUrl}/install`);
      await page.getByRole('navigation', { name: 'Console', exact: true }).waitFor();
      expect(new URL(page.url()).pathname).toMatch(/^\/admin\//);
    }));
});
