// The entry as a site owner uses it: one <script> tag and no code.
import type { ParleyGlobal } from './parleyGlobal';

const parley = () => (window as { Parley?: ParleyGlobal }).Parley;

/** Runs embed.js afresh, as the browser does when the page includes it. */
async function loadEmbedScript() {
  await jest.isolateModulesAsync(async () => {
    await import('./embed');
  });
}

beforeEach(() => {
  jest.useFakeTimers();
  document.body.innerHTML =
    '<div id="parley-thread"></div><script src="https://comments.example/parley/embed.js?v=3"></script>';
});

afterEach(() => {
  for (const element of document.querySelectorAll<
    HTMLElement & { parleyEmbed?: { remove(): void } }
  >('div')) {
    element.parleyEmbed?.remove();
  }
  delete (window as { Parley?: ParleyGlobal }).Parley;
  jest.useRealTimers();
  jest.restoreAllMocks();
});

it('embeds the stream into #parley-thread from the server the script came from', async () => {
  await loadEmbedScript();
  jest.runAllTimers();
  const iframe = document.querySelector('#parley-thread iframe') as HTMLIFrameElement;
  expect(iframe.src).toMatch(/^https:\/\/comments\.example\/parley\/embed\/stream\?/);
});

it('leaves the page alone when its own code embeds the stream (another container)', async () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => {});
  document.body.innerHTML =
    '<section id="comments"></section><script src="https://comments.example/embed.js"></script>';
  await loadEmbedScript();
  // What a page does in the script's load event, before the loader's own turn.
  const embed = parley()!.createStreamEmbed!({ id: 'comments' });
  jest.runAllTimers();
  expect(embed).toBeDefined();
  expect(document.querySelectorAll('iframe')).toHaveLength(1);
  expect(document.querySelector<HTMLIFrameElement>('#comments iframe')!.src).toMatch(
    /^https:\/\/comments\.example\/embed\/stream\?/,
  );
  expect(error).not.toHaveBeenCalled();
});

it('tells the site owner when the page has no #parley-thread', async () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => {});
  document.body.innerHTML = '<script src="https://comments.example/embed.js"></script>';
  await loadEmbedScript();
  jest.runAllTimers();
  expect(error).toHaveBeenCalledWith(expect.stringContaining('[parley] No element #parley-thread'));
});

it('keeps window.Parley.count when count.js loaded first', async () => {
  const count = { reload: async () => {} };
  (window as { Parley?: ParleyGlobal }).Parley = { count };
  await loadEmbedScript();
  expect(parley()).toMatchObject({ count, createStreamEmbed: expect.any(Function) });
});
