/** @jsxImportSource react */
// Parley's comment thread as a React component for Docusaurus (or any React site): loads the
// server's embed.js once, embeds the thread on mount and removes it on unmount, as client-side
// navigation mounts and unmounts pages.
import { useEffect, useRef } from 'react';

/** `light`, `dark`, or `auto` (follows the reader's system). */
export type ParleyTheme = 'light' | 'dark' | 'auto';

/** The options this component passes to `Parley.createStreamEmbed` (see the embed README). */
interface EmbedOptions {
  id: string;
  storyURL?: string;
  storyID?: string;
  locale?: string;
  theme?: ParleyTheme;
}

/** The handle `createStreamEmbed` returns (the part used here). */
interface ParleyEmbed {
  remove(): void;
  setTheme(theme: ParleyTheme): void;
}

/** What embed.js puts on `window.Parley` (the part used here). */
interface ParleyGlobal {
  createStreamEmbed?: (options: EmbedOptions) => ParleyEmbed | undefined;
}

/** Props of {@link ParleyThread}. */
export interface ParleyThreadProps {
  /** The Parley server, e.g. `https://comments.example.com`, without a trailing slash. */
  server: string;
  /** Id of the container. @default `parley-thread` */
  id?: string;
  /** The article's URL. @default the canonical link, else the page's URL */
  storyURL?: string;
  /** The story's id in Parley, to keep a thread whose page moved. @default none */
  storyID?: string;
  /**
   * The thread's language (`fr`, `pt-BR`: README, "Languages"); given, it comes before the
   * console's setting. @default the console's setting, else the page's `<html lang>`
   */
  locale?: string;
  /** The thread's theme; a change is applied without reloading the thread. @default `light` */
  theme?: ParleyTheme;
}

const parley = () => (window as { Parley?: ParleyGlobal }).Parley;

/** One load of embed.js per server, however many threads mount. */
const loads = new Map<string, Promise<void>>();

function loadEmbedScript(server: string): Promise<void> {
  if (parley()?.createStreamEmbed) return Promise.resolve();
  const src = `${server}/embed.js`;
  let load = loads.get(src);
  if (!load) {
    load = new Promise((resolve, reject) => {
      const script = Object.assign(document.createElement('script'), { src, async: true });
      script.addEventListener('load', () => resolve());
      script.addEventListener('error', () => {
        loads.delete(src); // the next mount tries again
        reject(new Error(`[parley] Could not load ${src}`));
      });
      document.head.append(script);
    });
    loads.set(src, load);
  }
  return load;
}

/** Parley's comment thread; see examples/static-sites/README.md for a Docusaurus blog. */
export function ParleyThread({
  server,
  id = 'parley-thread',
  storyURL,
  storyID,
  locale,
  theme,
}: ParleyThreadProps) {
  const embed = useRef<ParleyEmbed | undefined>(undefined);
  // The theme at the time the thread is made: a later change goes through setTheme, so that
  // switching the site to dark mode does not reload the thread.
  const currentTheme = useRef(theme);

  useEffect(() => {
    let unmounted = false;
    loadEmbedScript(server).then(
      () => {
        // The load event comes before embed.js's own embedding (a timer), so this call is the
        // only one: embed.js then leaves the container alone.
        if (unmounted) return;
        embed.current = parley()?.createStreamEmbed?.({
          id,
          storyURL,
          storyID,
          locale,
          theme: currentTheme.current,
        });
      },
      (error: unknown) => console.error(error),
    );
    return () => {
      unmounted = true;
      embed.current?.remove();
      embed.current = undefined;
    };
  }, [server, id, storyURL, storyID, locale]);

  useEffect(() => {
    currentTheme.current = theme;
    if (theme) embed.current?.setTheme(theme);
  }, [theme]);

  return <div id={id} />;
}
