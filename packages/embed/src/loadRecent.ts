import {
  LOG_PREFIX,
  RECENT_DEFAULT_COUNT,
  RECENT_MAX_COUNT,
  RECENT_DOCUMENT_ID,
  RECENT_EXCERPT_LENGTH,
  RECENT_SELECTOR,
} from './defaults';
import { queryTrusted } from './queryTrusted';

/** Options of {@link loadRecent}. */
export interface LoadRecentOptions {
  /** The Parley server, e.g. `https://comments.example.com` (recent.js: the folder it came from). */
  rootURL: string;
}

/** A comment as recentComments answers it. */
interface RecentComment {
  id: string;
  body: string;
  createdAt: string;
  author: { username: string } | null;
  story: { url: string; title: string | null };
}

/** Adds a `parley-recent-<name>` element with `text` to `parent`; returns it. */
function add<K extends keyof HTMLElementTagNameMap>(
  parent: Element,
  tag: K,
  name: string,
  text = '',
): HTMLElementTagNameMap[K] {
  const element = parent.appendChild(document.createElement(tag));
  element.className = `parley-recent-${name}`;
  element.textContent = text;
  return element;
}

/**
 * Fills every `.parley-recent` with the latest comments of its site (`data-site`, the site's id
 * from the console) or of one story (`data-story-url`, relative to the page like a link), as many
 * as `data-count` (5 by default): one request per list. Each comment is a list item with its
 * author, date and story (`data-story-url` lists leave the story out) and the start of its text
 * linking to the comment (`?commentID=` on the story's URL, which the stream opens at). The markup
 * carries classes only (`parley-recent-…`), for the site's own styles. The text is read from the
 * server's sanitized HTML as text, never inserted as HTML. Without comments, or on a failure
 * (logged), the element keeps what the site put in it.
 */
export async function loadRecent({ rootURL }: LoadRecentOptions): Promise<void> {
  await Promise.all(
    [...document.querySelectorAll<HTMLElement>(RECENT_SELECTOR)].map(async (element) => {
      const { site, storyUrl, count } = element.dataset;
      try {
        const comments = await queryTrusted<RecentComment[]>(
          rootURL,
          RECENT_DOCUMENT_ID,
          {
            siteId: site,
            storyURL: storyUrl && new URL(storyUrl, document.baseURI).href,
            // The server lists 1 to 20: anything else asks for the nearest, not for an error.
            first: Math.min(
              RECENT_MAX_COUNT,
              Math.max(1, Math.trunc(Number(count)) || RECENT_DEFAULT_COUNT),
            ),
          },
          'recentComments',
        );
        if (!comments.length) return;
        const list = document.createElement('ol');
        list.className = 'parley-recent-list';
        const lang = document.documentElement.lang || undefined;
        for (const comment of comments) {
          const item = add(list, 'li', 'item');
          // A <template>'s content is inert: nothing loads or runs while its text is read.
          const template = document.createElement('template');
          template.innerHTML = comment.body;
          const text = (template.content.textContent ?? '').replace(/\s+/g, ' ').trim();
          const url = new URL(comment.story.url);
          url.searchParams.set('commentID', comment.id);
          add(
            item,
            'a',
            'text',
            text.length > RECENT_EXCERPT_LENGTH
              ? `${text.slice(0, RECENT_EXCERPT_LENGTH).trimEnd()}…`
              : text,
          ).href = url.href;
          // Below it, unstyled yet readable: "ada · Nov 20, 2026 · The story".
          item.append(' ');
          const meta = add(item, 'small', 'meta');
          const parts: Node[] = [];
          if (comment.author) parts.push(add(meta, 'span', 'author', comment.author.username));
          const time = add(
            meta,
            'time',
            'time',
            new Date(comment.createdAt).toLocaleDateString(lang, { dateStyle: 'medium' }),
          );
          time.dateTime = comment.createdAt;
          parts.push(time);
          if (!storyUrl) {
            const story = add(meta, 'a', 'story', comment.story.title || comment.story.url);
            story.href = comment.story.url;
            parts.push(story);
          }
          meta.replaceChildren(...parts.flatMap((part, i) => (i ? [' · ', part] : [part])));
        }
        element.replaceChildren(list);
      } catch (error) {
        // A code from the server (NOT_FOUND for a wrong data-site…), an HTTP status, or a network
        // error.
        console.error(`${LOG_PREFIX} Could not load the latest comments:`, error);
      }
    }),
  );
}
