import type { ComponentChildren, RefObject } from 'preact';
import { useStreamEnv } from './StreamContext';

/** The Markdown a toolbar button adds. */
export type MarkdownFormat = 'bold' | 'italic' | 'quote' | 'link' | 'code';

/** Text with a selection, before or after a format is applied. */
export interface Selection {
  /** The whole text. */
  text: string;
  /** Selection start (a cursor when equal to `end`). */
  start: number;
  /** Selection end. */
  end: number;
}

// [before, after, glyph]. The link's target is a placeholder, selected so typing replaces it.
const MARKS: Record<Exclude<MarkdownFormat, 'quote'>, [string, string, string]> = {
  bold: ['**', '**', 'B'],
  italic: ['_', '_', 'I'],
  // Its glyph is the word, in the reader's language (composer.link): text, not an emoji, which
  // systems without an emoji font (many Linux desktops) draw as a blank box.
  link: ['[', '](https://)', ''],
  code: ['`', '`', '</>'],
};
const FORMATS: MarkdownFormat[] = ['bold', 'italic', 'quote', 'link', 'code'];

/**
 * Wraps the selection in `format`. A quote prefixes every selected line with `> ` (starting a new
 * line if needed); code spanning lines becomes a fenced block. The wrapped text stays selected.
 */
export function applyFormat({ text, start, end }: Selection, format: MarkdownFormat): Selection {
  let inner = text.slice(start, end);
  let [before, after] = format === 'quote' ? ['> ', ''] : MARKS[format];
  if (format === 'quote') {
    if (start > 0 && text[start - 1] !== '\n') before = `\n${before}`;
    inner = inner.replace(/\n/g, '\n> ');
  } else if (format === 'code' && inner.includes('\n')) {
    [before, after] = ['```\n', '\n```'];
  }
  const from = start + before.length;
  const selection =
    format === 'link' && inner !== ''
      ? { start: from + inner.length + 2, end: from + inner.length + 10 }
      : { start: from, end: from + inner.length };
  return { text: text.slice(0, start) + before + inner + after + text.slice(end), ...selection };
}

/** Props of {@link MarkdownToolbar}. */
export interface MarkdownToolbarProps {
  /** The box the buttons format. */
  box: RefObject<HTMLTextAreaElement | null>;
  /** Receives the new text. */
  onChange(text: string): void;
  /** While previewing there is no text to format. @default false */
  disabled?: boolean;
  /** More buttons (the preview toggle). */
  children?: ComponentChildren;
}

/** Bold, italic, quote, link and code buttons that wrap the box's selection in Markdown. */
export function MarkdownToolbar({
  box,
  onChange,
  disabled = false,
  children,
}: MarkdownToolbarProps) {
  const { t } = useStreamEnv();
  const format = (name: MarkdownFormat) => {
    const el = box.current;
    if (!el) return;
    const next = applyFormat(
      { text: el.value, start: el.selectionStart, end: el.selectionEnd },
      name,
    );
    // Set the value before the selection (a re-render would not move it), then tell the state.
    el.value = next.text;
    el.focus();
    el.setSelectionRange(next.start, next.end);
    onChange(next.text);
  };
  return (
    <div class="parley-toolbar" role="group" aria-label={t('composer.toolbar')}>
      {FORMATS.map((name) => (
        <button
          key={name}
          type="button"
          class={`parley-md-${name}`}
          aria-label={t(`composer.${name}`)}
          title={t(`composer.${name}`)}
          disabled={disabled}
          onClick={() => format(name)}
        >
          {name === 'quote' ? '❝' : MARKS[name][2] || t('composer.link')}
        </button>
      ))}
      {children}
    </div>
  );
}
