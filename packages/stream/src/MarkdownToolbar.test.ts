import { applyFormat } from './MarkdownToolbar';

const at = (text: string, start: number, end = start) => ({ text, start, end });

test('bold, italic and inline code wrap the selection and keep it selected', () => {
  expect(applyFormat(at('a word b', 2, 6), 'bold')).toEqual(at('a **word** b', 4, 8));
  expect(applyFormat(at('a word b', 2, 6), 'italic')).toEqual(at('a _word_ b', 3, 7));
  expect(applyFormat(at('a word b', 2, 6), 'code')).toEqual(at('a `word` b', 3, 7));
});

test('code over several lines becomes a fenced block', () => {
  expect(applyFormat(at('x\ny', 0, 3), 'code').text).toBe('```\nx\ny\n```');
});

test('a quote marks every selected line and starts on a line of its own', () => {
  expect(applyFormat(at('one\ntwo', 0, 7), 'quote').text).toBe('> one\n> two');
  expect(applyFormat(at('said: hi', 6, 8), 'quote').text).toBe('said: \n> hi');
});

test('a link wraps the text and selects the address to type over', () => {
  const linked = applyFormat(at('see docs', 4, 8), 'link');
  expect(linked.text).toBe('see [docs](https://)');
  expect(linked.text.slice(linked.start, linked.end)).toBe('https://');
  // With nothing selected the cursor lands between the brackets.
  expect(applyFormat(at('', 0), 'link')).toEqual(at('[](https://)', 1, 1));
});
