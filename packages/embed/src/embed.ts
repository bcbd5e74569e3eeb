// Entry of /embed.js, the only module with side effects: it publishes
// `window.Parley.createStreamEmbed` and, with no code on the page, embeds the stream into
// #parley-thread.
import { createStreamEmbed } from './createStreamEmbed';
import { parleyGlobal } from './parleyGlobal';
import { scriptRoot } from './scriptRoot';

// Read now: `document.currentScript` is only set while this script first runs.
const rootURL = scriptRoot(document, 'embed.js') as string;
const parley = parleyGlobal();
let called = false;

parley.createStreamEmbed = (options) => {
  called = true;
  return createStreamEmbed({ rootURL, ...options });
};

// After the page's own code had its turn (the script's load event and DOMContentLoaded run
// first), so a page that calls createStreamEmbed itself, perhaps for another container, gets
// no second embed and no false "no element" error.
const autoEmbed = () => setTimeout(() => called || parley.createStreamEmbed?.());
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', autoEmbed);
else autoEmbed();
