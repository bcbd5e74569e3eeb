/** @jsxImportSource react */
'use client';
import { useEffect, useId, useRef } from 'react';
import { createStreamEmbed } from '@parley/embed';
import type { StreamEmbed, StreamEmbedOptions } from '@parley/embed';

/** Props of {@link ParleyThread}: the loader's options ({@link StreamEmbedOptions}), typed. */
export interface ParleyThreadProps extends Omit<StreamEmbedOptions, 'id' | 'storyURL'> {
  /** The article's URL: the story whose thread shows. Changing it switches the thread in place. */
  storyURL: string;
  /**
   * The article's title, for a story created on its first visit (the loader takes the page's
   * `document.title` when the frame first loads). @default document.title
   */
  storyTitle?: string;
  /** Id of the container element. @default one of React's `useId` */
  id?: string;
  /** Class of the container element. @default none */
  className?: string;
  /** Receives the thread's handle once it exists, and `undefined` when it goes. @default none */
  onEmbed?: (embed: StreamEmbed | undefined) => void;
}

/**
 * The comment thread of `storyURL`, as embed.js would put it on the page: one iframe in a
 * `<div>`. On the server, and until the browser has run its effects, it is that empty `<div>`.
 *
 * It follows the app: a new `storyURL` (client-side navigation to another article) shows that
 * story's thread in the same frame (the frame's connection, session and code stay: `setStory`);
 * a new `theme` is sent to it (`setTheme`), a new `accessToken` signs the reader in (or out when
 * it goes). What the frame is loaded with — `rootURL`, `locale`, `sort`, `customCSSURL`,
 * `accentColor`, `autoRender`, `id` — builds a new frame when it changes. `onEvent` and
 * `refreshAccessToken` are read when called, so new functions on every render cost nothing.
 */
export function ParleyThread(props: ParleyThreadProps) {
  const generated = useId();
  const id = props.id ?? `parley-${generated.replace(/[^\w-]/g, '')}`;
  const latest = useRef(props);
  latest.current = props;
  const embed = useRef<StreamEmbed | undefined>(undefined);
  // The story the frame shows or will show: what a change is compared with.
  const shown = useRef<string | undefined>(undefined);
  const storyKey = `${props.storyURL}\0${props.storyID ?? ''}\0${props.commentID ?? ''}`;

  /** Embeds the thread with the props of now; returns what removes it. */
  const create = () => {
    const { className: _c, onEmbed: _e, storyTitle: _t, ...options } = latest.current;
    embed.current = createStreamEmbed({
      ...options,
      id,
      onEvent: (name, data) => latest.current.onEvent?.(name, data),
      refreshAccessToken: () => latest.current.refreshAccessToken?.(),
    });
    shown.current = storyKey;
    latest.current.onEmbed?.(embed.current);
    return () => {
      embed.current?.remove();
      embed.current = undefined;
      latest.current.onEmbed?.(undefined);
    };
  };
  const removeRef = useRef<() => void>(() => {});

  const { rootURL, locale, sort, customCSSURL, accentColor, autoRender } = props;
  useEffect(() => {
    removeRef.current = create();
    return () => removeRef.current();
    // The frame's own parameters: a change loads a new frame. The story, the theme and the token
    // follow below without one. (`create` reads the latest props through `latest`.)
  }, [id, rootURL, locale, sort, customCSSURL, accentColor, `${autoRender}`]);

  useEffect(() => {
    if (!embed.current || shown.current === storyKey) return;
    const { storyURL, storyID, commentID, storyTitle } = latest.current;
    if (document.getElementById(id)?.querySelector('iframe')) {
      shown.current = storyKey;
      embed.current.setStory({
        storyURL,
        storyID,
        commentID,
        storyTitle: storyTitle ?? document.title,
      });
    } else {
      // Not rendered yet (still far below the screen): a new embed with the new story costs
      // nothing, and renders when it comes near.
      removeRef.current();
      removeRef.current = create();
    }
  }, [storyKey]);

  const { theme, accessToken } = props;
  const first = useRef({ theme, accessToken });
  useEffect(() => {
    if (first.current.theme === theme) return;
    first.current.theme = theme;
    embed.current?.setTheme(theme ?? 'light');
  }, [theme]);
  useEffect(() => {
    if (first.current.accessToken === accessToken) return;
    first.current.accessToken = accessToken;
    if (accessToken) embed.current?.login(accessToken);
    else embed.current?.logout();
  }, [accessToken]);

  return <div id={id} className={props.className} />;
}
