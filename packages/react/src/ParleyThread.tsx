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
   * The article's title, for a story created on its first visit, sent when the thread switches
   * to this story (the first frame takes the page's `document.title`, as embed.js does).
   * @default document.title
   */
  storyTitle?: string;
  /**
   * Id of the container element. Give one when a page has several React roots with a thread
   * each: `useId` is unique within one root only. @default one of React's `useId`
   */
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

  const { rootURL, locale, sort, customCSSURL, accentColor, autoRender } = props;
  // The frame's own parameters: a change loads a new frame. The story, the theme and the token
  // follow below without one. (The props are read through `latest`: always the current ones.)
  useEffect(() => {
    const { className: _c, onEmbed: _e, storyTitle: _t, ...options } = latest.current;
    const made = createStreamEmbed({
      ...options,
      id,
      onEvent: (name, data) => latest.current.onEvent?.(name, data),
      refreshAccessToken: () => latest.current.refreshAccessToken?.(),
    });
    embed.current = made;
    shown.current = storyKey;
    latest.current.onEmbed?.(made);
    return () => {
      made?.remove();
      embed.current = undefined;
      latest.current.onEmbed?.(undefined);
    };
  }, [id, rootURL, locale, sort, customCSSURL, accentColor, `${autoRender}`]);

  useEffect(() => {
    if (!embed.current || shown.current === storyKey) return;
    shown.current = storyKey;
    const { storyURL, storyID, commentID, storyTitle } = latest.current;
    // Rendered or not yet (far below the screen): the loader keeps it, and the frame shows it
    // once it is ready.
    embed.current.setStory({
      storyURL,
      storyID,
      commentID,
      storyTitle: storyTitle ?? document.title,
    });
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
