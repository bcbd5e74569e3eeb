import { highlightWords } from './highlightWords';

test('marks banned and suspect words as whole words, case-insensitively', () => {
  expect(highlightWords('You IDIOT, that is dumb (not dumbbell).', ['idiot'], ['dumb'])).toEqual([
    { text: 'You ' },
    { text: 'IDIOT', kind: 'banned' },
    { text: ', that is ' },
    { text: 'dumb', kind: 'suspect' },
    { text: ' (not dumbbell).' },
  ]);
});

test('matches phrases across any whitespace and letters of any script', () => {
  expect(highlightWords('buy\n now, café', ['buy now'], ['café'])).toEqual([
    { text: 'buy\n now', kind: 'banned' },
    { text: ', ' },
    { text: 'café', kind: 'suspect' },
  ]);
});

test('without lists the text is one plain run', () => {
  expect(highlightWords('plain', [], [' '])).toEqual([{ text: 'plain' }]);
});
