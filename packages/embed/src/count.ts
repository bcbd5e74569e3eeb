// Entry of /count.js, the only module of it with side effects: fills the page's comment counts
// once the document is parsed, and publishes `window.Parley.count.reload()` for pages that add
// links later (single-page sites).
import { loadCounts } from './loadCounts';
import { parleyGlobal } from './parleyGlobal';
import { scriptRoot } from './scriptRoot';

// Read now: `document.currentScript` is only set while this script first runs.
const rootURL = scriptRoot(document, 'count.js') as string;
const reload = () => loadCounts({ rootURL });
parleyGlobal().count = { reload };
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', reload);
else void reload();
