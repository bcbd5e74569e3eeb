import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { journey, screenshot, streamFrame, useHarness } from '../harness';
import { newAccount, streamFrameOf } from '../support/commenter';

// Journey 26: the thread in the reader's language. The example site's pages say their language
// (`?lang=` writes `<html lang>`, as a site's own template would); with no `locale` option and the
// site's setting left at "each page's own", the frame, its sign-in popup and count.js follow it.
// Arabic and Hebrew lay out right to left: the frame's and the popup's documents are `dir="rtl"`,
// and replies are indented from the right (the styles' logical properties). Screenshots of each
// are in test-output/e2e/26-*.png. A reader who signs up from an Arabic page gets their emails in
// Arabic, right to left (delivered over SMTP to an in-process inbox, then opened in the browser).

const h = useHarness({ smtp: true });

/** The text of `key` in `locale` (locales/<locale>/*.json), as translators wrote it. */
function catalog(locale: string): (key: string) => string {
  const dir = join(__dirname, '..', '..', 'locales', locale);
  const messages: Record<string, string> = Object.assign(
    {},
    ...readdirSync(dir).map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8'))),
  );
  return (key) => {
    const text = messages[key];
    if (text === undefined) throw new Error(`${locale} has no message ${key}`);
    return text;
  };
}

it('shows the thread in Arabic, right to left, on a page that says it is Arabic', () =>
  journey('26-arabic', async (pages) => {
    const ar = catalog('ar');
    await h.seedComments('/articles/arabic', ['مرحبا بالجميع', 'أهلا وسهلا'], { chain: true });
    const article = await h.open('/articles/arabic?lang=ar');
    pages.push(article);
    const frame = streamFrame(article.page);
    await frame.getByRole('textbox', { name: ar('composer.label'), exact: true }).waitFor();
    await frame.getByRole('button', { name: ar('auth.signIn'), exact: true }).waitFor();
    const inside = await streamFrameOf(article.page);
    const layout = await inside.evaluate(() => {
      const reply = document.querySelector('.parley-replies')!.getBoundingClientRect();
      const thread = document.querySelector('.parley-comment')!.getBoundingClientRect();
      return {
        lang: document.documentElement.lang,
        dir: document.documentElement.dir,
        direction: getComputedStyle(document.documentElement).direction,
        // Indented from the right: the reply's right edge is inside the comment's, its left not.
        rightIndent: Math.round(thread.right - reply.right),
        leftIndent: Math.round(reply.left - thread.left),
      };
    });
    expect(layout).toMatchObject({ lang: 'ar', dir: 'rtl', direction: 'rtl' });
    // The iframe's name, for screen readers, in the thread's language too.
    expect(await article.page.locator('iframe').first().getAttribute('title')).toBe(
      ar('stream.label'),
    );
    expect(layout.rightIndent).toBeGreaterThan(10);
    expect(layout.leftIndent).toBeLessThanOrEqual(0);
    await screenshot(article.page, '26-arabic-stream');
  }));

it('opens the sign-in popup in Hebrew, right to left, from a Hebrew page', () =>
  journey('26-hebrew', async (pages) => {
    const he = catalog('he');
    const article = await h.open('/articles/hebrew?lang=he');
    pages.push(article);
    const opened = article.page.context().waitForEvent('page', { timeout: 10_000 });
    await streamFrame(article.page)
      .getByRole('button', { name: he('auth.signIn'), exact: true })
      .click();
    const popup = await opened;
    await popup.getByLabel(he('auth.email'), { exact: true }).waitFor();
    expect(
      await popup.evaluate(() => ({
        lang: document.documentElement.lang,
        dir: document.documentElement.dir,
        direction: getComputedStyle(document.body).direction,
      })),
    ).toEqual({ lang: 'he', dir: 'rtl', direction: 'rtl' });
    await screenshot(popup, '26-hebrew-popup');
    const frame = await streamFrameOf(article.page);
    expect(await frame.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await screenshot(article.page, '26-hebrew-stream');
  }));

it("counts comments in the list page's language (count.js), plural forms and all", () =>
  journey('26-counts', async (pages) => {
    await h.seedComments('/articles/second', ['Un', 'Deux']);
    await h.seedComments('/articles/third', ['Seul']);
    const list = await h.open('/list?lang=pl');
    pages.push(list);
    const count = (path: string) =>
      list.page.locator(`.parley-count[data-story-url="${h.storyUrl(path)}"]`);
    await count('/articles/second').filter({ hasText: /\d/ }).waitFor();
    // Polish: 1 komentarz, 2 komentarze (few), 0 komentarzy (many).
    await expect(count('/articles/second').textContent()).resolves.toBe('2 komentarze');
    await expect(count('/articles/third').textContent()).resolves.toBe('1 komentarz');
    await expect(count('/').textContent()).resolves.toBe('0 komentarzy');
  }));

it("switches the console's language from its header, right to left for Arabic, and keeps it", () =>
  journey('26-console', async (pages) => {
    const ar = catalog('ar');
    const console = await h.openConsole('/admin/moderate');
    pages.push(console);
    const { page } = console;
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('ar');
    const nav = page.getByRole('navigation', { name: ar('console.shell.nav') });
    await nav.getByRole('link', { name: ar('console.shell.moderate') }).waitFor();
    const layout = () =>
      page.evaluate(() => ({
        lang: document.documentElement.lang,
        dir: document.documentElement.dir,
        direction: getComputedStyle(document.body).direction,
      }));
    expect(await layout()).toEqual({ lang: 'ar', dir: 'rtl', direction: 'rtl' });
    // The brand at the start of the line: on the right, right to left.
    const brand = await page.locator('.topbar .brand').boundingBox();
    const who = await page.locator('.topbar .who').boundingBox();
    expect(brand!.x).toBeGreaterThan(who!.x);
    await screenshot(page, '26-arabic-console');
    // Kept in this browser: a reload comes back in Arabic.
    await page.reload();
    await nav.getByRole('link', { name: ar('console.shell.moderate') }).waitFor();
    expect((await layout()).dir).toBe('rtl');
  }));

const STORY_COMMENTS = `query ($url: String!) { story(url: $url) { id comments(first: 5) { edges { node { id body } } } } }`;
const CREATE = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`;

it('writes a reader’s emails in the language they signed up in: Arabic, right to left', () =>
  journey('26-arabic-email', async (pages) => {
    const ar = catalog('ar');
    const path = '/articles/arabic-email';
    const article = await h.open(`${path}?lang=ar`);
    pages.push(article);
    const frame = streamFrame(article.page);
    const opened = article.page.context().waitForEvent('page', { timeout: 10_000 });
    await frame.getByRole('button', { name: ar('auth.signUp'), exact: true }).click();
    const popup = await opened;
    const account = newAccount('layla');
    await popup.getByLabel(ar('auth.email'), { exact: true }).fill(account.email);
    await popup.getByLabel(ar('auth.username'), { exact: true }).fill(account.username);
    await popup.getByLabel(ar('auth.password'), { exact: true }).fill(account.password);
    await popup.getByRole('button', { name: ar('auth.signUp'), exact: true }).click();
    // The code comes in Arabic: the popup's language went with the sign-up.
    const codeMail = await h.inbox!.waitFor((m) => m.to.includes(account.email));
    expect(codeMail.html).toContain('<html lang="ar" dir="rtl">');
    const code = /^ {4}(\d{6})$/m.exec(codeMail.text)?.[1];
    await popup.getByLabel(ar('auth.code'), { exact: true }).fill(code!);
    const closed = popup.waitForEvent('close');
    await popup.getByRole('button', { name: ar('auth.submit.confirm'), exact: true }).click();
    await closed;
    const text = `تعليق ينتظر ردًا ${Date.now()}`;
    await frame.getByRole('textbox', { name: ar('composer.label'), exact: true }).fill(text);
    await frame.getByRole('button', { name: ar('composer.post'), exact: true }).click();
    await frame
      .getByRole('article')
      .filter({ hasText: text })
      .filter({ has: frame.getByRole('button', { name: ar('thread.reply'), exact: true }) })
      .waitFor();

    // Someone answers; the reply email is in Arabic too, whatever the replier's language.
    const replier = newAccount('replier');
    const token = await h.signUp(replier);
    const { story } = await h.graphql<{
      story: { id: string; comments: { edges: { node: { id: string; body: string } }[] } };
    }>(STORY_COMMENTS, { url: h.storyUrl(path) });
    const parent = story.comments.edges.find((e) => e.node.body.includes(text))!.node;
    await h.graphql(
      CREATE,
      { input: { storyId: story.id, parentId: parent.id, body: 'I agree, well said.' } },
      token,
    );
    const replyMail = await h.inbox!.waitFor(
      (m) => m.to.includes(account.email) && m.text.includes('I agree, well said.'),
    );
    // The Latin name set apart from the Arabic around it (first-strong isolates).
    expect(replyMail.subject).toBe(
      ar('email.reply.subject').replace('{replier}', `\u2068${replier.username}\u2069`),
    );
    // Opened as a mail reader shows it: mirrored, the English reply quoted left to right.
    const reader = await article.context.newPage();
    await reader.setViewportSize({ width: 640, height: 640 });
    await reader.setContent(replyMail.html);
    expect(
      await reader.evaluate(() => ({
        lang: document.documentElement.lang,
        direction: getComputedStyle(document.body).direction,
        quote: getComputedStyle(document.querySelector('blockquote')!).direction,
        bar: getComputedStyle(document.querySelector('blockquote')!).borderRightWidth,
      })),
    ).toEqual({ lang: 'ar', direction: 'rtl', quote: 'ltr', bar: '3px' });
    await screenshot(reader, '26-arabic-email-message');
  }));
