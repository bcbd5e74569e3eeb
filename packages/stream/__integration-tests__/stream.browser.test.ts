import {
  STREAM_FRAME,
  journey,
  screenshot,
  signUpThroughPopup,
  useHarness,
  streamFrame,
} from '../../../e2e/harness';

// The embed's real-browser test: the built loader, stream and popup in Debian's Chromium, on the
// example host site served from another origin than Parley's. Run `npm run build` first. The
// other journeys (counts, SSO, …) are e2e/journeys/*.e2e.ts (`npm run test:e2e`).

/** How soon a comment posted in one browser must show in another (as in journey 3). */
const LIVE_WITHIN_MS = 2000;

jest.setTimeout(60_000);

const h = useHarness();

it('signs up through the popup, posts, and the comment arrives live in a second browser', () =>
  journey('commenter-live', async (pages) => {
    const path = '/articles/live';
    const writer = await h.open(path);
    pages.push(writer);
    const reader = await h.open(path);
    pages.push(reader);

    // The loader made one iframe titled "Comments", served by Parley on its own origin.
    const iframe = writer.page.locator(STREAM_FRAME);
    await iframe.waitFor({ state: 'visible' });
    expect(await writer.page.locator('iframe').count()).toBe(1);
    const src = new URL((await iframe.getAttribute('src')) ?? '', h.exampleUrl);
    expect(src.origin).toBe(h.parleyUrl);
    expect(src.pathname).toBe('/embed/stream');
    expect(new URL(writer.page.url()).origin).toBe(h.exampleUrl);

    // The reader is anonymous and waiting; its live connection opens with the stream.
    const readerFrame = streamFrame(reader.page);
    await readerFrame.getByRole('button', { name: 'Sign in', exact: true }).waitFor();

    const frame = streamFrame(writer.page);
    await signUpThroughPopup(
      writer.page,
      {
        email: 'writer@e2e.parley.test',
        username: 'writer',
        password: 'correct horse battery',
      },
      { screenshotAs: 'commenter-live-popup' },
    );
    // Signed in, without a reload: the popup handed the token to the frame.
    await frame.getByRole('button', { name: 'Sign out', exact: true }).waitFor();

    const text = `Hello from a real browser ${Date.now()}`;
    const box = frame.getByRole('textbox', { name: 'Write a comment', exact: true });
    await box.fill(text);
    await frame.getByRole('button', { name: 'Post', exact: true }).click();
    const posted = Date.now();

    const mine = frame.getByRole('article').filter({ hasText: text });
    await mine.waitFor();
    // Posted: the server's copy, signed with the author's name (the typed copy shown meanwhile
    // says "Posting…"), and the box is empty again for the next comment.
    const serverCopy = mine.filter({ hasNotText: /posting/i });
    await serverCopy.waitFor();
    await expect(serverCopy.textContent()).resolves.toContain('writer');
    await expect(box.inputValue()).resolves.toBe('');

    // The other reader did nothing. A new top-level comment may wait behind "N new comments"
    // (no jumping content); either way it must have arrived within the limit.
    const theirs = readerFrame.getByRole('article').filter({ hasText: text });
    const newComments = readerFrame.getByRole('button', { name: /\bnew comments?\b/i });
    await theirs
      .or(newComments)
      .first()
      .waitFor({ timeout: Math.max(1, LIVE_WITHIN_MS - (Date.now() - posted)) });
    const inPlace = await theirs.isVisible();
    reader.log.push(
      `(test) the comment reached the reader ${Date.now() - posted} ms after Post, ` +
        (inPlace ? 'in place' : 'behind "new comments"'),
    );
    if (!inPlace) {
      await screenshot(reader.page, 'commenter-live-new-comments');
      await newComments.click();
    }
    await theirs.waitFor({ timeout: 5000 });

    // And it is stored: the server answers it to anyone.
    const { story } = await h.graphql<any>(
      `query ($url: String!) { story(url: $url) { comments(first: 5) { edges { node { body author { username } } } } } }`,
      { url: h.storyUrl(path) },
    );
    expect(story.comments.edges.map((e: any) => e.node.author.username)).toEqual(['writer']);
    expect(story.comments.edges[0].node.body).toContain(text);
  }));
