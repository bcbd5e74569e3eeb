import type { Page } from 'playwright-core';
import {
  ADMIN,
  journey,
  screenshot,
  signUpThroughPopup,
  streamFrame,
  switchOnInGeneral,
  useHarness,
} from '../harness';

// Journey 17: the admin turns on up and down votes in the console; a reader votes a comment down
// and another up, the votes stay after a reload, and the Best sort ranks by them; a moderator
// pins a comment from the stream's Moderate menu, and it rises above the reader's thread live.

const h = useHarness();

/** Signs in through the stream's popup with a password, as a returning reader does. */
async function signInThroughPopup(page: Page, account: { email: string; password: string }) {
  const opened = page.context().waitForEvent('page', { timeout: 10_000 });
  await streamFrame(page).getByRole('button', { name: 'Sign in', exact: true }).click();
  const popup = await opened;
  await popup.waitForLoadState('domcontentloaded');
  await popup.getByLabel('Email', { exact: true }).fill(account.email);
  await popup.getByLabel('Password', { exact: true }).fill(account.password);
  const closed = popup.waitForEvent('close', { timeout: 10_000 });
  await popup
    .locator('form')
    .filter({ has: popup.getByLabel('Password', { exact: true }) })
    .getByRole('button', { name: 'Sign in', exact: true })
    .click();
  await closed;
}

describe('journey 17: votes and pins', () => {
  it('votes up and down with a score, sorts by Best, and pins a comment live', () =>
    journey('17-votes-pins', async (pages) => {
      const path = '/articles/votes';
      await h.seedComments(path, ['Oldest take', 'Middle take', 'Newest take']);

      pages.push(await switchOnInGeneral(h, 'Up and down votes'));

      const reader = await h.open(path);
      pages.push(reader);
      const frame = streamFrame(reader.page);
      await signUpThroughPopup(reader.page, {
        email: 'voter@e2e.parley.test',
        username: 'voter',
        password: 'correct horse battery',
      });
      await frame.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
      const article = (text: string) => frame.getByRole('article').filter({ hasText: text });
      const score = (text: string, value: string) =>
        article(text)
          .locator('.parley-react > span')
          .filter({ hasText: new RegExp(`^${value}$`) });
      const pressed = (text: string, name: string) =>
        article(text).locator(`button[aria-pressed="true"][aria-label="${name}"]`);

      await article('Middle take').getByRole('button', { name: 'Vote down', exact: true }).click();
      await pressed('Middle take', 'Vote down').waitFor();
      await score('Middle take', '-1').waitFor();
      await article('Oldest take').getByRole('button', { name: 'Vote up', exact: true }).click();
      await pressed('Oldest take', 'Vote up').waitFor();
      await score('Oldest take', '1').waitFor();

      // The votes are the server's: a reload shows them as cast.
      await reader.page.reload();
      await pressed('Middle take', 'Vote down').waitFor();
      await score('Middle take', '-1').waitFor();
      await score('Oldest take', '1').waitFor();

      // Best: the one voted up, then the one nobody voted on, then the one voted down.
      await frame.getByRole('combobox', { name: 'Sort by', exact: true }).selectOption('BEST');
      const order = async () =>
        (await frame.getByRole('article').allTextContents()).map((text) =>
          ['Oldest take', 'Middle take', 'Newest take'].find((body) => text.includes(body)),
        );
      await frame.getByRole('article').first().filter({ hasText: 'Oldest take' }).waitFor();
      await expect(order()).resolves.toEqual(['Oldest take', 'Newest take', 'Middle take']);

      // A moderator, signed in to the stream, pins the middle one.
      const moderator = await h.open(path);
      pages.push(moderator);
      await signInThroughPopup(moderator.page, ADMIN);
      const staff = streamFrame(moderator.page);
      const target = staff.getByRole('article').filter({ hasText: 'Middle take' });
      await target.getByRole('button', { name: 'Moderate', exact: true }).click();
      await staff.getByRole('menuitem', { name: 'Pin to the top', exact: true }).click();
      await staff.getByText('Comment pinned above the thread.', { exact: true }).waitFor();
      await staff.getByRole('article').first().filter({ hasText: 'Pinned' }).waitFor();

      // The reader's thread follows without a reload: the pinned comment leads, marked.
      const first = frame.getByRole('article').first();
      await first.filter({ hasText: 'Middle take' }).filter({ hasText: 'Pinned' }).waitFor();
      await screenshot(reader.page, '17-votes-pins');
      await expect(order()).resolves.toEqual(['Middle take', 'Oldest take', 'Newest take']);
    }));
});
