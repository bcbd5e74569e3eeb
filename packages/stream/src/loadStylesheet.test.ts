import { loadStylesheet, PANELS_STYLESHEET } from './loadStylesheet';

test("adds the sheet the stream's link names once, right after it (custom CSS stays last), and waits for it", async () => {
  const doc = document.implementation.createHTMLDocument();
  const base = doc.createElement('link');
  base.rel = 'stylesheet';
  base.href = 'http://parley.test/embed/assets/stream-AbCd1234.css';
  base.dataset.panels = '/embed/assets/panels-EfGh5678.css';
  const custom = doc.createElement('link');
  custom.href = 'http://host.test/custom.css';
  doc.head.append(base, custom);

  let loaded = false;
  const first = loadStylesheet(doc, PANELS_STYLESHEET).then(() => (loaded = true));
  const second = loadStylesheet(doc, PANELS_STYLESHEET);
  const links = [...doc.head.querySelectorAll('link')].map((link) => link.getAttribute('href'));
  expect(links).toEqual([
    'http://parley.test/embed/assets/stream-AbCd1234.css',
    '/embed/assets/panels-EfGh5678.css',
    'http://host.test/custom.css',
  ]);
  await Promise.resolve();
  expect(loaded).toBe(false);
  doc.head.querySelectorAll('link')[1]!.dispatchEvent(new Event('load'));
  await Promise.all([first, second]);
  expect(loaded).toBe(true);
});

test("without the stream's link (a test page, another page) there is nothing to add", async () => {
  const doc = document.implementation.createHTMLDocument();
  await loadStylesheet(doc, PANELS_STYLESHEET);
  expect(doc.head.querySelectorAll('link')).toHaveLength(0);
});
