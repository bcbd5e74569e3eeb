import { journey, track, useHarness } from '../harness';

// Journey 14: the second wall. Markup that got into a comment past the sanitizer (planted
// straight into storage here) reaches the reader's page, in the server-rendered HTML and again
// when the frame renders the comment itself; the page's Content-Security-Policy runs neither its
// script nor its image's handler, and the browser reports both refusals.

const h = useHarness();
const path = '/articles/planted';
const PLANTED =
  '<p>Planted comment</p><script>window.plantedScript = true</script>' +
  '<img src="/nothing-here.png" alt="" onerror="window.plantedImage = true">';

it('runs no script and no handler planted in a comment, and reports the attempts', () =>
  journey(
    '14-csp',
    async (pages) => {
      await h.seedComments(path, ['PLANTED-SOURCE']);
      await h.server.deps.db
        .updateTable('comments')
        .set({ body_html: PLANTED })
        .where('body_source', '=', 'PLANTED-SOURCE')
        .execute();
      const context = await h.browser.newContext();
      // Before any of the page's own code: the refusals the browser reports.
      await context.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { violations: string[] }).violations = seen;
        document.addEventListener('securitypolicyviolation', (event) =>
          seen.push(`${event.effectiveDirective} ${event.blockedURI}`),
        );
      });
      const page = await context.newPage();
      pages.push({ page, context, log: track(context) });
      await page.goto(
        `${h.parleyUrl}/embed/stream?storyURL=${encodeURIComponent(h.storyUrl(path))}` +
          `&origin=${encodeURIComponent(new URL(h.storyUrl(path)).origin)}`,
      );
      await page.getByText('Planted comment').first().waitFor();
      // Hydrated (the root is no longer inert), the image has failed, its handler was refused.
      await page.waitForFunction(() => document.getElementById('parley-root')?.inert === false);
      await page.waitForFunction(() =>
        (window as unknown as { violations: string[] }).violations.some((v) =>
          v.startsWith('script-src-attr'),
        ),
      );
      const outcome = await page.evaluate(() => {
        const w = window as unknown as {
          plantedScript?: boolean;
          plantedImage?: boolean;
          violations: string[];
        };
        return {
          script: w.plantedScript ?? false,
          image: w.plantedImage ?? false,
          violations: [...new Set(w.violations)].sort(),
        };
      });
      // Only the planted code was refused: the page's own inline code is allowed by hash.
      expect(outcome).toEqual({
        script: false,
        image: false,
        violations: ['script-src-attr inline', 'script-src-elem inline'],
      });
      // Chromium says so on the console too: what every other journey fails on.
      expect(pages[0]!.log.filter((line) => line.includes('Content Security Policy'))).toEqual([
        expect.stringContaining('Executing inline script violates'),
        expect.stringContaining('Executing inline event handler violates'),
      ]);
    },
    { cspViolations: 'expected' },
  ));
