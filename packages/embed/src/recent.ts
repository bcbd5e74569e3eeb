// Entry of /recent.js, the only module of it with side effects: fills the page's lists of latest
// comments once the document is parsed, and publishes `window.Parley.recent.reload()` for pages
// that add lists later (single-page sites).
import { loadRecent } from './loadRecent';
import { parleyGlobal } from './parleyGlobal';
import { scriptRoot } from './scriptRoot';

// Read now: `document.currentScript` is only set while this script first runs.
const rootURL = scriptRoot(document, 'recent.js') as string;
const reload = () => loadRecent({ rootURL });
parleyGlobal().recent = { reload };
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', reload);
else void reload();
