import type { StreamEmbed, StreamEmbedOptions } from './createStreamEmbed';

/** What embed.js, count.js and recent.js put on `window.Parley` (any may load first, or alone). */
export interface ParleyGlobal {
  /** embed.js: embeds a stream; `rootURL` defaults to the server embed.js came from. */
  createStreamEmbed?: (options?: Partial<StreamEmbedOptions>) => StreamEmbed | undefined;
  /** count.js: the comment counts. */
  count?: {
    /** Scans the page again and fills every `.parley-count` (for single-page sites). */
    reload(): Promise<void>;
  };
  /** recent.js: the latest comments. */
  recent?: {
    /** Scans the page again and fills every `.parley-recent` (for single-page sites). */
    reload(): Promise<void>;
  };
}

/** `window.Parley`, created on first use and shared by the scripts. */
export function parleyGlobal(): ParleyGlobal {
  return ((window as { Parley?: ParleyGlobal }).Parley ??= {});
}
