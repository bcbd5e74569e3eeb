/** The lazy panels' stylesheet (styles/panels/): profile, configure, the moderator's menu. */
export const PANELS_STYLESHEET = 'panels.css';

// Per document: the stylesheets added so far, by file name.
const added = new WeakMap<Document, Map<string, Promise<void>>>();

/**
 * Adds the stylesheet `name`, served next to the frame's stream.css, to `doc` once (right after
 * stream.css, so the site owner's custom CSS still comes last); resolves when it has loaded or
 * failed, and a panel then shows unstyled rather than not at all. Without stream.css (tests, a
 * page of its own) there is nothing to add.
 */
export function loadStylesheet(doc: Document, name: string): Promise<void> {
  let sheets = added.get(doc);
  if (!sheets) added.set(doc, (sheets = new Map()));
  let loaded = sheets.get(name);
  if (!loaded) {
    const base = doc.querySelector<HTMLLinkElement>('link[href$="/stream.css"]');
    const link = doc.createElement('link');
    loaded = new Promise((resolve) => {
      if (!base) return resolve();
      link.onload = link.onerror = () => resolve();
      link.rel = 'stylesheet';
      link.href = base.href.replace(/stream\.css$/, name);
      base.after(link);
    });
    sheets.set(name, loaded);
  }
  return loaded;
}
