/** @jest-environment node */
import { renderToString } from 'react-dom/server';

// Server rendering (Next.js, Remix, an Astro island): importing the package touches no browser
// global, and what a server renders is the empty container (and nothing for a count), which the
// browser's first render matches.
it('imports and renders on a server, with no window', async () => {
  expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
  const { ParleyCount, ParleyThread } = await import('./index');
  const html = renderToString(
    <>
      <ParleyThread rootURL="https://comments.example" storyURL="https://app.example/a" />
      <ParleyCount rootURL="https://comments.example" storyURL="https://app.example/a" />
    </>,
  );
  expect(html).toMatch(/^<div id="parley-[\w-]+"><\/div>$/);
});
