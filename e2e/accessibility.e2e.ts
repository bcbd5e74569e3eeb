import type { Page } from 'playwright-core';
import {
  createComment,
  createUser,
  findOrCreateStory,
  renderComment,
} from '@parley/server/testing';
import {
  ADMIN,
  journey,
  signInToConsole,
  signUpThroughPopup,
  startHarness,
  streamFrame,
} from './harness';
import type { Harness, UninstalledHarness } from './harness';
import { createAxeReport, describeViolations, failingViolations } from './support/axe';
import type { AxeCheck } from './support/axe';

// Accessibility: axe-core in the stream frame (signed out, and signed in with the
// composer and a reply form open), the sign-in popup (each of its forms, also with errors shown),
// the install wizard (each step, a fresh data folder) and every console route. Zero serious or
// critical violations, asserted; moderate and minor ones are printed in a summary and written to
// test-output/e2e/accessibility.txt, not failed.

const report = createAxeReport('accessibility');

afterAll(() => {
  const path = report.write();
  console.log(`axe, screen by screen (${path}):\n${report.summary()}`);
});

/** Fails with every serious or critical violation of `checks`, screen by screen. */
function expectNoSeriousViolations(checks: readonly AxeCheck[]): void {
  const failing = checks
    .map((check) => ({ check, violations: failingViolations(check) }))
    .filter(({ violations }) => violations.length > 0);
  if (failing.length > 0) {
    throw new Error(
      `axe found serious or critical violations on ${failing.length} screen(s):\n` +
        failing
          .map(
            ({ check, violations }) =>
              `■ ${check.name} (${check.url})\n${describeViolations(violations)}`,
          )
          .join('\n'),
    );
  }
  expect(checks.length).toBeGreaterThan(0);
}

/** Waits until the console shows no "Loading…" anywhere (routes and their queries have answered). */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !/Loading/.test(document.body.innerText));
}

describe('the install wizard (a fresh data folder)', () => {
  let w: UninstalledHarness;
  beforeAll(async () => {
    w = await startHarness({ install: false });
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  it('has no serious or critical violations on any step', () =>
    journey('a11y-install', async (pages) => {
      const checks: AxeCheck[] = [];
      const wizard = await w.openUrl(`${w.parleyUrl}/install`);
      pages.push(wizard);
      const { page } = wizard;
      const step = (n: number, title: string) =>
        page.getByRole('heading', { name: `Step ${n} of 3: ${title}`, exact: true }).waitFor();
      const next = () => page.getByRole('button', { name: 'Next', exact: true }).click();

      await step(1, 'Your admin account');
      checks.push(await report.check('install wizard: step 1 (admin account)', page));
      // Next with nothing typed: every field shows its error.
      await next();
      await page.locator('.field-error').first().waitFor();
      checks.push(await report.check('install wizard: step 1 with errors', page));
      await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
      await page.getByLabel('Username', { exact: true }).fill(ADMIN.username);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await page.getByLabel('Confirm password', { exact: true }).fill(ADMIN.password);
      await next();

      await step(2, 'Your organization');
      checks.push(await report.check('install wizard: step 2 (organization)', page));
      await page.getByLabel('Organization name', { exact: true }).fill('E2E');
      await page.getByLabel('Contact email', { exact: true }).fill('team@e2e.parley.test');
      await page.getByLabel('Organization URL', { exact: true }).fill(w.exampleUrl);
      await next();

      await step(3, 'Your first site');
      checks.push(await report.check('install wizard: step 3 (first site)', page));
      await page.getByLabel('Site name', { exact: true }).fill('Example host');
      await page.getByLabel('Site URL', { exact: true }).fill(w.exampleUrl);
      await page.getByLabel('Permitted origins', { exact: true }).fill(w.exampleUrl);
      await page.getByRole('button', { name: 'Install', exact: true }).click();

      await page.getByRole('heading', { name: 'Parley is installed', exact: true }).waitFor();
      await settled(page);
      checks.push(await report.check('install wizard: done (embed snippet)', page));
      expectNoSeriousViolations(checks);
    }));
});

describe('the widget and the console (an installed Parley)', () => {
  let h: Harness;
  /** A reader who reports a comment (their token). */
  let reporter: string;
  const ARTICLE = '/articles/accessibility';
  const PENDING_TEXT = 'Held for review: see https://example.com/offer for the details';
  const REPORTED_TEXT = 'A comment somebody reported';

  beforeAll(async () => {
    h = await startHarness();
    // Comments with the formatting readers use, so their styles are checked too.
    await h.seedComments(ARTICLE, [
      'A plain first comment.',
      'Some **bold**, some _italics_, `code` and [a link](https://example.com).\n\n> A quote.',
      REPORTED_TEXT,
    ]);
    // A card in Pending (stored as held for its link, as a site that holds links would) and one
    // in Reported (a reader reports a published comment).
    const db = h.server.deps.db;
    const author = await createUser(db, {
      username: 'heldauthor',
      email: 'held@e2e.parley.test',
      emailVerified: true,
    });
    const { story } = await findOrCreateStory(db, {
      siteId: h.siteId,
      url: h.storyUrl(ARTICLE),
      title: ARTICLE,
    });
    await createComment(db, {
      storyId: story.id,
      authorId: author.id,
      bodySource: PENDING_TEXT,
      bodyHtml: renderComment(PENDING_TEXT),
      status: 'PREMOD',
      heldBecause: ['LINK'],
    });
    reporter = await h.signUp({
      email: 'reporter@e2e.parley.test',
      username: 'reporter',
      password: 'reporter-password',
    });
    const { story: stored } = await h.graphql<any>(
      `query ($url: String!) { story(url: $url) { comments(first: 10) { edges { node { id body } } } } }`,
      { url: h.storyUrl(ARTICLE) },
    );
    const reported = stored.comments.edges.find((e: any) => e.node.body.includes(REPORTED_TEXT));
    await h.graphql(
      `mutation ($input: ReportCommentInput!) { reportComment(input: $input) { comment { id } } }`,
      { input: { commentId: reported.node.id, reason: 'OFFENSIVE', details: 'Rude.' } },
      reporter,
    );
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('the stream frame: signed out, then signed in with the composer and a reply form', () =>
    journey('a11y-stream', async (pages) => {
      const checks: AxeCheck[] = [];
      const reader = await h.open(ARTICLE);
      pages.push(reader);
      const { page } = reader;
      const frameLocator = streamFrame(page);
      await frameLocator.getByRole('article').filter({ hasText: REPORTED_TEXT }).waitFor();
      await frameLocator.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      const frame = page.frame({ url: /\/embed\/stream/ });
      if (!frame) throw new Error('No stream frame on the page');
      checks.push(await report.check('stream: signed out, comments seeded', frame));

      await signUpThroughPopup(page, {
        email: 'a11y@e2e.parley.test',
        username: 'a11yreader',
        password: 'a11y-reader-password',
      });
      await frameLocator.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
      const box = frameLocator.getByRole('textbox', { name: 'Write a comment', exact: true });
      await box.fill('A draft, so the composer’s buttons are enabled.');
      checks.push(await report.check('stream: signed in, composer with a draft', frame));

      await frameLocator
        .getByRole('article')
        .filter({ hasText: 'A plain first comment.' })
        .getByRole('button', { name: 'Reply', exact: true })
        .click();
      await frameLocator.getByRole('textbox').nth(1).waitFor();
      checks.push(await report.check('stream: signed in, reply form open', frame));

      // The same, in the dark theme: the host's container says `data-theme="dark"` (set as the
      // page is parsed, before embed.js reads it); the session survives the reload.
      await reader.context.addInitScript(() => {
        new MutationObserver((_records, observer) => {
          const container = document.getElementById('parley-thread');
          if (!container) return;
          container.dataset.theme = 'dark';
          observer.disconnect();
        }).observe(document, { childList: true, subtree: true });
      });
      await page.reload();
      await frameLocator.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
      await frameLocator.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
      await frameLocator.getByRole('article').filter({ hasText: REPORTED_TEXT }).waitFor();
      const darkFrame = page.frame({ url: /\/embed\/stream/ });
      if (!darkFrame) throw new Error('No stream frame on the page after the reload');
      checks.push(await report.check('stream: dark theme, signed in', darkFrame));
      expectNoSeriousViolations(checks);
    }));

  it('the sign-in popup: each form, empty, with errors and answered', () =>
    journey('a11y-popup', async (pages) => {
      const checks: AxeCheck[] = [];
      const popup = await h.openUrl(`${h.parleyUrl}/embed/auth?mode=signin`);
      pages.push(popup);
      const { page } = popup;
      const form = page.locator('form');
      const submit = (name: string) => form.getByRole('button', { name, exact: true }).click();

      await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
      checks.push(await report.check('popup: sign in', page));
      await submit('Sign in');
      await page.getByText('Enter an email address like name@example.com.').waitFor();
      checks.push(await report.check('popup: sign in with field errors', page));
      await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
      await page.getByLabel('Password', { exact: true }).fill('not the password');
      await submit('Sign in');
      await page.getByRole('alert').first().waitFor();
      checks.push(await report.check('popup: sign in refused by the server', page));

      await page.getByRole('button', { name: 'Create an account', exact: true }).click();
      await page.getByRole('heading', { name: 'Create an account', exact: true }).waitFor();
      checks.push(await report.check('popup: sign up', page));
      await submit('Sign up');
      await page.getByText('A username has', { exact: false }).first().waitFor();
      checks.push(await report.check('popup: sign up with field errors', page));

      await page.getByRole('button', { name: 'I already have an account', exact: true }).click();
      await page.getByRole('button', { name: 'Forgot your password?', exact: true }).click();
      await page.getByRole('heading', { name: 'Reset your password', exact: true }).waitFor();
      checks.push(await report.check('popup: forgot password', page));
      await page.getByLabel('Email', { exact: true }).fill('reader@e2e.parley.test');
      await submit('Send reset link');
      await page.getByText(/a link to reset its password is on its way/).waitFor();
      checks.push(await report.check('popup: forgot password, link sent', page));

      // The popup follows the stream's theme (`theme=dark` when the host is dark).
      await page.goto(`${h.parleyUrl}/embed/auth?mode=signin&theme=dark`);
      await page.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
      await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
      await submit('Sign in');
      await page.getByText('Enter an email address like name@example.com.').waitFor();
      checks.push(await report.check('popup: dark theme, sign in with field errors', page));
      expectNoSeriousViolations(checks);
    }));

  it('every console route: login, queues with cards, community, stories, configure, dashboard, security, audit log, account pages', () =>
    journey('a11y-console', async (pages) => {
      const checks: AxeCheck[] = [];
      const consolePage = await h.openUrl(`${h.parleyUrl}/admin/login`);
      pages.push(consolePage);
      const { page } = consolePage;
      await page.setViewportSize({ width: 1280, height: 900 });
      const visit = async (name: string, path: string, ready: () => Promise<unknown>) => {
        await page.goto(`${h.parleyUrl}${path}`);
        await ready();
        await settled(page);
        checks.push(await report.check(name, page));
      };
      const heading = (name: string | RegExp) => () =>
        page.getByRole('heading', { name, level: 1 }).waitFor();

      await heading('Sign in to Parley')();
      checks.push(await report.check('console /admin/login', page));
      await page.getByRole('button', { name: 'Forgot password?', exact: true }).click();
      await page.getByRole('heading', { name: /password/i, level: 2 }).waitFor();
      checks.push(await report.check('console /admin/login, forgot password open', page));
      await signInToConsole(page, ADMIN, h.parleyUrl);

      await visit('console /admin/moderate/pending (a held card)', '/admin/moderate/pending', () =>
        page.getByText('Held for review', { exact: false }).first().waitFor(),
      );
      await visit(
        'console /admin/moderate/reported (a reported card)',
        '/admin/moderate/reported',
        () => page.getByText(REPORTED_TEXT).first().waitFor(),
      );
      for (const queue of ['unmoderated', 'approved', 'rejected']) {
        await visit(`console /admin/moderate/${queue}`, `/admin/moderate/${queue}`, () =>
          page.getByRole('link', { name: /^\w+$/, exact: false }).first().waitFor(),
        );
      }
      await visit('console /admin/community', '/admin/community', async () => {
        await heading('Community')();
        await page.getByText('reporter').first().waitFor();
      });
      await visit('console /admin/stories', '/admin/stories', async () => {
        await heading('Stories')();
        await page.getByText(ARTICLE).first().waitFor();
      });
      for (const [path, title] of [
        ['general', 'General'],
        ['moderation', 'Moderation'],
        ['organization', 'Organization and sites'],
        ['authentication', 'Authentication'],
        ['email', 'Email'],
        ['advanced', 'Advanced'],
      ] as const) {
        await visit(`console /admin/configure/${path}`, `/admin/configure/${path}`, heading(title));
      }
      await visit('console /admin/dashboard', '/admin/dashboard', heading('Dashboard'));
      await visit('console /admin/security', '/admin/security', async () => {
        await heading('Security')();
        await page.getByRole('table').waitFor();
      });
      await visit('console /admin/audit', '/admin/audit', async () => {
        await heading('Audit log')();
        await page.getByRole('table', { name: 'Audit log' }).getByRole('row').nth(1).waitFor();
      });

      // The account pages emails link to (a made-up token: the pages' forms and their answers).
      for (const path of [
        '/account/reset-password',
        '/account/confirm-email',
        '/account/download',
        '/account/unsubscribe',
      ]) {
        await visit(`account ${path}`, `${path}#token=e2e-made-up-token`, () =>
          page.locator('h1').first().waitFor(),
        );
      }
      await visit('account /account (settings)', '/account', () =>
        page.locator('h1').first().waitFor(),
      );
      expectNoSeriousViolations(checks);
    }));
});
