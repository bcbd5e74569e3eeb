import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import sanitizeHtml from 'sanitize-html';

/**
 * Comment Markdown → safe HTML.
 *
 * Two layers, on purpose: markdown-it with raw HTML off produces only the constructs we enable, and
 * sanitize-html then enforces the same allow-list on the output. Either layer alone would be enough
 * today; both together mean a future markdown-it rule or plugin cannot smuggle markup past us.
 */

/** Link schemes a comment may use; anything else (javascript:, data:, relative) renders as text. */
const LINK_SCHEMES = ['http', 'https', 'mailto'] as const;

const LINK_SCHEME_PATTERN = new RegExp(`^(?:${LINK_SCHEMES.join('|')}):`, 'i');

/** `rel` on every link: user content, not endorsed, and no `window.opener` for the target page. */
export const COMMENT_LINK_REL = 'nofollow ugc noopener';

/** Tags the rendered HTML may contain. */
export const COMMENT_ALLOWED_TAGS = Object.freeze([
  'p',
  'br',
  'em',
  'strong',
  's',
  'del',
  'a',
  'blockquote',
  'code',
  'pre',
  'ul',
  'ol',
  'li',
]);

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...COMMENT_ALLOWED_TAGS],
  allowedAttributes: { a: ['href', 'rel', 'target'], ol: ['start'], code: ['class'] },
  // Fenced code keeps its language hint so a client could highlight it; nothing else survives.
  allowedClasses: { code: ['language-*'] },
  allowedSchemes: [...LINK_SCHEMES],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  // `//evil.example` would inherit the host page's scheme and dodge the scheme check.
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // Set, not merged: whatever rel/target came in is replaced.
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: COMMENT_LINK_REL, target: '_blank' },
    }),
  },
};

/**
 * The allow-list with images: `<img>` survives only when its `src` is one of `images` (the
 * author's own uploads, uploads/commentImages.ts) — never a remote image, which would tell
 * another server who reads the thread.
 */
function withImages(images: CommentImages): sanitizeHtml.IOptions {
  return {
    ...SANITIZE_OPTIONS,
    allowedTags: [...COMMENT_ALLOWED_TAGS, 'img'],
    allowedAttributes: {
      ...SANITIZE_OPTIONS.allowedAttributes,
      img: ['src', 'alt', 'width', 'height', 'loading'],
    },
    allowedSchemesAppliedToAttributes: ['href', 'src'],
    exclusiveFilter: (frame) => frame.tag === 'img' && !images.has(frame.attribs.src ?? ''),
  };
}

/** The images a comment may show, by URL, with their size in pixels. */
export type CommentImages = ReadonlyMap<string, { width: number; height: number }>;

/** Options of {@link renderComment}. */
export interface RenderOptions {
  /**
   * When the site allows images in comments, the ones this comment may show: its author's own
   * uploads that it names (resolvers/commentImages.ts). `![alt](url)` shows one of them as an
   * image, sized from its record; any other URL becomes a plain link. Without it, image syntax
   * stays text, as before images existed.
   */
  images?: CommentImages;
}

let parser: MarkdownIt | undefined;
let imageParser: MarkdownIt | undefined;

/** The configured parser, built on first use (nothing runs at import time). */
/**
 * Text made safe inside HTML (`&`, `<`, `>`, `"`): markdown-it's own escaping, for the HTML that
 * is not Markdown (emails, feed titles).
 */
export function escapeHtml(text: string): string {
  return getParser().utils.escapeHtml(text);
}

/**
 * The text of a comment's sanitized HTML (what a signed-out reader is shown: never the Markdown
 * source, which is the author's and moderators'), on one line. markdown-it and sanitize-html
 * write only these entities.
 */
export function textOfHtml(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ')
    .trim();
}

function createParser(images: boolean): MarkdownIt {
  const md = new MarkdownIt('default', {
    html: false,
    linkify: true,
    breaks: true,
    typographer: false,
  });
  // Comments don't need headings, tables or rules, nor images unless the site allows them; with
  // a rule off its source stays text.
  md.disable(['heading', 'lheading', 'table', 'hr', ...(images ? [] : ['image'])]);
  // markdown-it's own check allows any scheme but a short deny-list; ours is an allow-list.
  md.validateLink = (url: string): boolean => LINK_SCHEME_PATTERN.test(url.trim());
  const escape = md.utils.escapeHtml;
  md.renderer.rules.image = (tokens, index, _options, env: { images: CommentImages }) => {
    const token = tokens[index];
    const src = token?.attrGet('src') ?? '';
    // The description as text: what renderInlineAsText leaves out (escapes, entities) included.
    const alt = (token?.children ?? []).map((child) => child.content).join('');
    const own = env.images.get(src);
    // Sized from its record, so the thread does not jump as it loads.
    if (own) {
      return `<img src="${escape(src)}" alt="${escape(alt)}" width="${own.width}" height="${own.height}" loading="lazy">`;
    }
    // Not one of ours: a link to it, never a remote image.
    return `<a href="${escape(src)}">${escape(alt || src)}</a>`;
  };
  return md;
}

function getParser(): MarkdownIt {
  return (parser ??= createParser(false));
}

/**
 * Renders a comment's Markdown source to sanitized HTML: emphasis, strong, strikethrough, links
 * (http, https, mailto; `rel="nofollow ugc noopener"`, `target="_blank"`), quotes, code, lists and
 * line breaks; with `images`, the author's uploaded images. Raw HTML in the source is
 * escaped, never rendered.
 */
export function renderComment(source: string, { images }: RenderOptions = {}): string {
  if (images === undefined) {
    return sanitizeHtml(getParser().render(source), SANITIZE_OPTIONS).trim();
  }
  const html = (imageParser ??= createParser(true)).render(source, { images });
  return sanitizeHtml(html, withImages(images)).trim();
}

/** Walks every inline token of the parsed source, in document order. */
function* inlineTokens(source: string): Generator<Token> {
  for (const block of getParser().parse(source, {})) {
    if (block.type === 'inline') yield* block.children ?? [];
    else yield block;
  }
}

/**
 * True when the source would render at least one link (Markdown link, autolink or a bare URL or
 * email address that linkify picks up). Used by link pre-moderation.
 */
export function containsLink(source: string): boolean {
  for (const token of inlineTokens(source)) {
    if (token.type === 'link_open') return true;
  }
  return false;
}

/**
 * The text a reader sees, without markup: `**wo**rd` → `word`, `&amp;` → `&`. Blocks and line
 * breaks become newlines. Link targets are put in where the links are (only their visible text
 * would let `[click](…)` hide a banned domain). Used for banned- and suspect-word matching, so
 * emphasis or escapes cannot split a word.
 */
export function plainText(source: string): string {
  return readText(source, true).text;
}

/**
 * One reading of a comment for the spam filter: the text a reader sees (as {@link plainText},
 * without link targets) and where its links go (`href`s, bare URLs and addresses that linkify
 * found included), from one parse.
 */
export function readText(source: string, withTargets = false): { text: string; links: string[] } {
  let text = '';
  const links: string[] = [];
  for (const token of inlineTokens(source)) {
    switch (token.type) {
      case 'text':
      case 'code_inline':
      case 'text_special':
        text += token.content;
        break;
      case 'softbreak':
      case 'hardbreak':
        text += '\n';
        break;
      case 'link_open': {
        const href = token.attrGet('href') ?? '';
        links.push(href);
        if (withTargets) text += ` ${href} `;
        break;
      }
      case 'code_block':
      case 'fence':
        text += `${token.content}\n`;
        break;
      case 'paragraph_close':
      case 'list_item_close':
      case 'blockquote_close':
        text += '\n';
        break;
      default:
        break;
    }
  }
  return { text: text.trim(), links };
}
