import { totpCode } from '@parley/server/testing';
import type { Page } from 'playwright-core';
import { ADMIN, journey, screenshot, useHarness } from '../harness';

// Journey 15: two-factor sign-in for staff, in Chromium. The admin sets it up in the console
// (the QR code and its key, the first code, ten recovery codes shown once), signs out, and signs
// in again: a wrong code is refused, the app's code lets them in; later a recovery code does,
// once, and the same recovery code a second time does not. The signed-in devices list names
// this browser, and the audit log records the change.

const h = useHarness();

/** What the app would show 30 seconds from now: a later step than any code spent so far. */
const nextCode = (secret: string, steps = 1) =>
  totpCode(secret, new Date(Date.now() + steps * 30_000));

/** A six-digit code that no nearby step of `secret` has (a wrong code that stays wrong). */
function wrongCode(secret: string): string {
  const near = new Set([-1, 0, 1, 2].map((steps) => nextCode(secret, steps)));
  for (let n = 0; ; n += 1) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

/** Email and password on the login page; resolves once the code step asks for a code. */
async function passwordStep(page: Page) {
  await page.goto(`${h.parleyUrl}/admin/login`);
  await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Two-factor sign-in', exact: true }).waitFor();
}

/** Types `code` into the code step and presses Verify. */
async function verify(page: Page, code: string) {
  await page.getByLabel('Authentication code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out', exact: true }).first().click();
  await page.getByRole('heading', { name: 'Sign in to Parley', exact: true }).waitFor();
}

it('sets up two-factor sign-in, then signs in with the app’s code and once with a recovery code', () =>
  journey('15-two-factor', async (pages) => {
    const tracked = await h.openConsole('/admin/security');
    pages.push(tracked);
    const { page } = tracked;

    // Set up: the QR code shows (an SVG the page's CSP allows as a data: image), with its key.
    await page.getByLabel('Your password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Set up two-factor sign-in', exact: true }).click();
    const qr = page.getByRole('img', { name: 'QR code for the authenticator app' });
    await qr.waitFor();
    await expect(qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).resolves.toBeGreaterThan(
      0,
    );
    const secret = (await page.locator('code.secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, '15-two-factor-qr');
    await page.getByLabel('Code from the app', { exact: true }).fill(totpCode(secret, new Date()));
    await page.getByRole('button', { name: 'Turn on', exact: true }).click();
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    const recovery = await list.getByRole('listitem').allTextContents();
    expect(recovery).toHaveLength(10);
    await screenshot(page, '15-two-factor-recovery-codes');
    await page.getByRole('button', { name: 'I have saved them', exact: true }).click();
    await page.getByText('On. 10 of 10 recovery codes left.').waitFor();
    // This browser, in the signed-in devices list, signed in with a code now.
    const devices = page.getByRole('table');
    await devices
      .getByRole('cell', { name: /Chrome.* on Linux \(this device\) · with code/ })
      .waitFor();

    // Signed out, the password alone is not enough: a wrong code is refused, the app's works.
    await signOut(page);
    await passwordStep(page);
    await verify(page, wrongCode(secret));
    await page.getByText('That code is not right or was used already', { exact: false }).waitFor();
    await verify(page, nextCode(secret));
    await page.getByRole('navigation', { name: 'Console', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Moderate', exact: true }).click();
    await page.getByRole('navigation', { name: 'Queues' }).waitFor();

    // The phone is lost: a recovery code signs in, once.
    await signOut(page);
    await passwordStep(page);
    await verify(page, recovery[0]!.toUpperCase());
    await page.getByRole('navigation', { name: 'Console', exact: true }).waitFor();
    await page.goto(`${h.parleyUrl}/admin/security`);
    await page.getByText('On. 9 of 10 recovery codes left.').waitFor();
    await signOut(page);
    await passwordStep(page);
    await verify(page, recovery[0]!);
    await page.getByText('That code is not right or was used already', { exact: false }).waitFor();
    await screenshot(page, '15-two-factor-refused');

    // Another recovery code still works; the audit log shows the change, by whom.
    await verify(page, recovery[1]!);
    await page.getByRole('navigation', { name: 'Console', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Audit log', exact: true }).click();
    const row = page
      .getByRole('table', { name: 'Audit log' })
      .getByRole('row')
      .filter({ hasText: 'Two-factor sign-in on' });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('twoFactorEnabled: false → true');
    await screenshot(page, '15-two-factor-audit-log');
  }));
