import { journey, signUpThroughPopup, useHarness, streamFrame } from '../harness';
import {
  newAccount,
  openPage,
  postComment,
  storedWithText,
  streamFrameOf,
} from '../support/commenter';

// Journey 9: the browser blocks the stream frame's storage (a third-party iframe: Safari,
// Firefox's strict mode, Chrome's third-party cookie phase-out) and sign-in through the popup still
// works.
//
// The method: Chromium's own switches (`--test-third-party-cookie-phaseout`, storage partitioning)
// partition or block cookies, but leave a third-party frame a working (partitioned) localStorage
// and IndexedDB, so the frame would not notice. Instead this test makes the storage throw, as
// Safari does with "Block all cookies" and as Chrome does with "Block third-party cookies" set for
// site data: an init script, run in every frame and popup of the context before their own
// scripts, replaces `window.localStorage` with a getter that throws a SecurityError and makes
// `indexedDB.open` throw — only in an embedded frame (window.top !== window) at the Parley origin.
// The host page and the popup (a top-level window: first-party) keep their storage, as in those
// browsers. The frame must then keep its session in memory and get its token by postMessage.

const h = useHarness();

/** The init script: blocks localStorage and IndexedDB in embedded frames at `origin`. */
function blockFrameStorage(origin: string): string {
  return `(() => {
    if (window.top === window || location.origin !== ${JSON.stringify(origin)}) return;
    const denied = () => new DOMException('The operation is insecure.', 'SecurityError');
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() { throw denied(); },
    });
    Object.defineProperty(window, 'sessionStorage', {
      configurable: true,
      get() { throw denied(); },
    });
    if (window.indexedDB) {
      Object.defineProperty(IDBFactory.prototype, 'open', {
        configurable: true,
        value() { throw denied(); },
      });
    }
  })();`;
}

/** What the page's storage does: 'ok' or the name of the error it throws. */
const probeStorage = () => {
  const probe = (run: () => unknown) => {
    try {
      run();
      return 'ok';
    } catch (error) {
      return (error as Error).name;
    }
  };
  return {
    localStorage: probe(() => window.localStorage.setItem('parley-e2e-probe', '1')),
    indexedDB: probe(() => indexedDB.open('parley-e2e-probe')),
  };
};

describe('journey 9: third-party storage blocked', () => {
  it('signs in through the popup and posts when the frame has no storage', () =>
    journey('09-storage-blocked', async (pages) => {
      const path = '/articles/storage-blocked';
      const reader = await openPage(h, path, { initScript: blockFrameStorage(h.parleyUrl) });
      pages.push(reader);
      const { page } = reader;
      const frame = streamFrame(page);
      await frame.getByRole('button', { name: 'Sign in', exact: true }).waitFor();

      // The blocking is in effect in the frame, and only there.
      const inFrame = await (await streamFrameOf(page)).evaluate(probeStorage);
      expect(inFrame).toEqual({ localStorage: 'SecurityError', indexedDB: 'SecurityError' });
      expect(await page.evaluate(probeStorage)).toEqual({ localStorage: 'ok', indexedDB: 'ok' });

      const account = newAccount('blocked');
      const popupChecked = page
        .context()
        .waitForEvent('page')
        .then(async (popup) => {
          await popup.waitForLoadState('domcontentloaded');
          return popup.evaluate(probeStorage);
        });
      await signUpThroughPopup(page, account, { screenshotAs: '09-storage-blocked-popup' });
      // The popup (first-party) had its storage; it handed the token over by postMessage.
      expect(await popupChecked).toEqual({ localStorage: 'ok', indexedDB: 'ok' });

      await frame.getByText(`Signed in as ${account.username}`, { exact: true }).waitFor();
      await frame.getByRole('button', { name: 'Sign out', exact: true }).waitFor();

      // And can post.
      const text = `Posted without storage ${Date.now()}`;
      await postComment(frame, text);
      const stored = await storedWithText(h, path, text);
      expect(stored.map((c) => c.author?.username)).toEqual([account.username]);
      // No error surfaced about the storage (drafts kept in memory instead).
      expect(await frame.getByRole('alert').filter({ hasText: /\S/ }).count()).toBe(0);
    }));
});
