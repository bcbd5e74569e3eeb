/** The lazy panels' stylesheet (styles/panels/): profile, configure, the moderator's menu. */
export const PANELS_STYLESHEET = 'panels';

// Per document: the stylesheets added so far, by name.
const added = new WeakMap<Document, Map<string, Promise<void>>>();

/**
 * Adds the stylesheet `name` to `doc` once, from the URL the frame's stylesheet link names for it
 * (`data-panels`: the build hashes every file's name, so the page is what knows them), right after
 * that link so the site owner's custom CSS still comes last; resolves when it has loaded or
 * failed, and a panel then shows unstyled rather than not at all. Without that link (tests, a page
 * of its own) there is nothing to add.
 */
export function loadStylesheet(doc: Document, name: string): Promise<void> {
  let sheets = added.get(doc);
  if (!sheets) added.set(doc, (sheets = new Map()));
  let loaded = sheets.get(name);
  if (!loaded) {
    const base = doc.querySelector<HTMLLinkElement>(`link[data-${name}]`);
    const link = doc.createElement('link');
    loaded = new Promise((resolve) => {
      if (!base) return resolve();
      link.onload = link.onerror = () => resolve();
      link.rel = 'stylesheet';
      link.href = base.dataset[name] ?? '';
      base.after(link);
    });
    sheets.set(name, loaded);
  }
  return loaded;
}
