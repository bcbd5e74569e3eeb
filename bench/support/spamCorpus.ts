/**
 * A labelled comment corpus for bench/spam.bench.ts, generated from a seed so every run reads the
 * same one. Ham is readers talking about varied stories (politics, sport, science, food,
 * technology, local news, money, culture), at varied lengths, sometimes with a source link, and
 * sometimes with words spam also uses ("bitcoin", "casino", "loan") in an ordinary sense. Spam is
 * in the common patterns: link drops behind praise, SEO offers, crypto and forex "investment",
 * casino and betting, pharmacy, loans, dating, work-from-home; campaigns post the same text again
 * on several stories, and some write with look-alike letters.
 */

import { seededRandom } from './seededRandom';

/** One comment of the corpus. */
export interface CorpusComment {
  body: string;
  spam: boolean;
  /** Which author: the same author writes several comments. */
  author: number;
  /** Which story (0 … STORIES-1). */
  story: number;
}

/** Stories the comments are spread over. */
export const STORIES = 40;

const TOPICS: Record<string, { nouns: string[]; claims: string[] }> = {
  politics: {
    nouns: [
      'the council',
      'the mayor',
      'the new budget',
      'the election',
      'the opposition',
      'the senate vote',
      'the housing bill',
      'the tax plan',
    ],
    claims: [
      'will hurt renters more than anyone admits',
      'was decided long before the hearing',
      'ignores what happened in the last two elections',
      'is the first sensible compromise in years',
      'deserves a lot more scrutiny than this',
      'was always going to pass with these numbers',
    ],
  },
  sport: {
    nouns: [
      'the coach',
      'the defence',
      'the transfer',
      'the second half',
      'the referee',
      'the new striker',
      'the league table',
      'the penalty',
    ],
    claims: [
      'cost us the match, plain and simple',
      'looked much better than last season',
      'should have been reviewed by VAR',
      'shows how thin the squad really is',
      'was the best thing about the weekend',
      'proves the board has no plan',
    ],
  },
  science: {
    nouns: [
      'the study',
      'the sample size',
      'the climate model',
      'the trial',
      'the telescope data',
      'the peer review',
      'the vaccine results',
      'the authors',
    ],
    claims: [
      'is too small to say anything about the population',
      'matches what earlier papers found',
      'needs to be replicated before anyone gets excited',
      'is a remarkable result if it holds up',
      'was misreported in most headlines',
      'leaves out the confidence intervals entirely',
    ],
  },
  food: {
    nouns: [
      'the recipe',
      'this bakery',
      'the new restaurant',
      'the sourdough',
      'the tasting menu',
      'the market stalls',
      'the olive oil',
      'the review',
    ],
    claims: [
      'worked perfectly with half the sugar',
      'was overpriced for what you get',
      'is worth the queue on a Saturday',
      'needs more salt than the article says',
      'reminded me of my grandmother’s kitchen',
      'closed too early for anyone who works',
    ],
  },
  technology: {
    nouns: [
      'the update',
      'the new phone',
      'the privacy policy',
      'the open source project',
      'the outage',
      'the battery',
      'the browser',
      'the chip shortage',
    ],
    claims: [
      'broke my workflow completely',
      'is a step backwards for users',
      'was handled better than most companies manage',
      'still does not explain what data they keep',
      'is the reason I switched last year',
      'will be forgotten by next quarter',
    ],
  },
  local: {
    nouns: [
      'the bus route',
      'the park',
      'the library hours',
      'the roadworks',
      'the school board',
      'the flooding',
      'the new bridge',
      'the bike lanes',
    ],
    claims: [
      'made my commute twenty minutes longer',
      'is the best thing the town has done in years',
      'was promised three years ago',
      'affects the north side far more than downtown',
      'needs volunteers more than money',
      'was discussed at the meeting nobody attended',
    ],
  },
  money: {
    nouns: [
      'bitcoin',
      'the interest rate',
      'the student loan scheme',
      'the casino project downtown',
      'the pension reform',
      'inflation',
      'the housing market',
      'the minimum wage',
    ],
    claims: [
      'is a bubble and everyone knows it',
      'hits people on fixed incomes hardest',
      'was a bad deal for the city from the start',
      'has barely moved wages in a decade',
      'is volatile enough that I would not invest my savings',
      'will not fix the underlying problem',
    ],
  },
  culture: {
    nouns: [
      'the exhibition',
      'the novel',
      'the film',
      'the director',
      'the soundtrack',
      'the festival',
      'the museum',
      'the translation',
    ],
    claims: [
      'lost something in the final act',
      'is the best thing I have seen this year',
      'was far too long for its ideas',
      'deserves a wider audience',
      'felt like a lecture rather than a story',
      'is worth a second visit',
    ],
  },
};

const OPENERS = [
  'Honestly,',
  'I think',
  'As someone who lives here,',
  'Not sure I agree:',
  'Good piece.',
  'Interesting article, but',
  'My two cents:',
  'Having read the whole thing,',
  'Fair point, though',
  '',
  '',
  'Thanks for writing this.',
];
const FOLLOW_UPS = [
  'Does anyone know when the next update is due?',
  'The article could have said more about that.',
  'I would like to see the figures behind it.',
  'My neighbour said the same thing last week.',
  'We saw exactly this happen ten years ago.',
  'Curious what others here think.',
  'Either way, thanks for covering it.',
  'The comments last time said the opposite.',
  'Hard to say without more data.',
  '',
  '',
];
const SOURCES = [
  'https://en.wikipedia.org/wiki/Budget',
  'https://www.bbc.co.uk/news/articles/c1',
  'https://data.gov.uk/dataset/transport',
  'https://www.nature.com/articles/s41586',
  'https://github.com/example/project/issues/12',
  'https://www.reuters.com/markets/rates',
  'https://www.theguardian.com/culture/review',
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/**
 * Readers' comments that share spam's words: a link to their own blog, prices and loans in an
 * ordinary sense, praise, "check out". Labelled ham, as a moderator would decide them.
 */
const HAM_LOOKALIKES: ((random: () => number) => string)[] = [
  (r) =>
    `Great article, thanks for sharing. I wrote about the same ${pick(r, ['bus route', 'budget', 'festival', 'study'])} on my blog last month: https://${pick(r, ['anna', 'tom', 'kofi', 'mei'])}${pick(r, ['writes', 'notes', 'blog'])}.wordpress.com/${Math.floor(r() * 90 + 10)}`,
  (r) =>
    `I pay $${pick(r, ['1,200', '950', '1,600'])} a month in rent and the student loan on top, so ${pick(r, ['the tax plan', 'the minimum wage', 'inflation'])} ${pick(r, ['matters a lot to me', 'is not an abstract debate', 'hits hard'])}.`,
  (r) =>
    `Check out the ${pick(r, ['council minutes', 'full report', 'original paper', 'club statement'])} before judging: ${pick(r, SOURCES)} ${pick(r, ['It says something else entirely.', 'Page 4 is the interesting part.', ''])}`,
  (r) =>
    `The casino downtown ${pick(r, ['promised 300 jobs', 'was sold as free money for the city', 'still has not opened'])}, and ${pick(r, ['nobody', 'the mayor', 'the council'])} ${pick(r, ['wants to talk about it', 'has explained the delay', 'mentions it any more'])}.`,
  (r) =>
    `Free ${pick(r, ['entry', 'parking', 'tickets'])} ${pick(r, ['for students', 'on Sundays', 'after 6pm'])} would make a big difference. ${pick(r, ['Click here for the petition', 'The petition is here'])}: https://www.change.org/p/${pick(r, ['parks', 'library', 'buses'])}`,
];

function hamComment(random: () => number): string {
  if (random() < 0.15) return pick(random, HAM_LOOKALIKES)(random);
  const topic = pick(random, Object.values(TOPICS));
  const sentences: string[] = [];
  const count = 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i += 1) {
    const opener = i === 0 ? pick(random, OPENERS) : '';
    const noun = pick(random, topic.nouns);
    sentences.push(`${opener} ${noun} ${pick(random, topic.claims)}.`.trim());
  }
  const followUp = pick(random, FOLLOW_UPS);
  if (followUp) sentences.push(followUp);
  if (random() < 0.12) sentences.push(`Source: ${pick(random, SOURCES)}`);
  const text = sentences.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const SYLLABLES = [
  'best',
  'top',
  'win',
  'cash',
  'pro',
  'max',
  'lux',
  'fast',
  'smart',
  'mega',
  'go',
  'deal',
  'prime',
  'star',
];
const TLDS = ['.com', '.net', '.xyz', '.online', '.site', '.shop', '.info'];

function spamDomain(random: () => number, subject: string): string {
  return `https://${pick(random, SYLLABLES)}${subject}${pick(random, SYLLABLES)}${pick(random, TLDS)}`;
}

/** Spam families: each builds one text from the random source. */
const SPAM_FAMILIES: ((random: () => number) => string)[] = [
  // Praise, then a link: the commonest of all.
  (r) =>
    `${pick(r, ['Great article!', 'Nice post, thanks for sharing.', 'Very informative, keep it up.', 'Wow, amazing content.', 'I really enjoyed reading this.'])} ${pick(r, ['Check out my site', 'Visit my website', 'You might like', 'More here', 'See also'])} ${spamDomain(r, pick(r, ['shop', 'deals', 'blog', 'store']))}`,
  // SEO offers.
  (r) =>
    `${pick(r, ['We offer', 'Get', 'Affordable', 'Professional'])} SEO services: ${pick(r, ['high quality backlinks', 'guest posts and backlinks', 'backlinks from top sites'])} to rank your website on the first page ${pick(r, ['in 30 days', 'guaranteed', 'fast'])}. ${pick(r, ['Contact us', 'Order now', 'Click here'])} ${spamDomain(r, 'seo')}`,
  // Crypto and forex "investment".
  (r) =>
    `${pick(r, ['I made', 'My friend earned', 'Earn', 'Start earning'])} $${pick(r, ['5000', '3,500', '12000', '800'])} ${pick(r, ['weekly', 'every day', 'in two weeks'])} with ${pick(r, ['bitcoin investment', 'crypto signals', 'forex signals', 'this trading platform'])}. ${pick(r, ['Guaranteed profit', 'Guaranteed returns', 'Double your money'])}! ${pick(r, ['WhatsApp me', 'DM me on Telegram', 'Contact Mr. James on WhatsApp'])} +1 ${Math.floor(r() * 900 + 100)} ${Math.floor(r() * 9000 + 1000)}`,
  // Casino and betting.
  (r) =>
    `${pick(r, ['Best online casino', 'Top casino bonus', 'New casino site'])} ${pick(r, ['with free spins', '- 200 free spins', 'and slot machines'])} ${pick(r, ['for new players', 'no deposit', 'today only'])}: ${spamDomain(r, 'casino')} ${pick(r, ['Betting tips daily!', 'Limited time offer!', ''])}`,
  // Pharmacy.
  (r) =>
    `${pick(r, ['Buy', 'Cheap', 'Order'])} ${pick(r, ['viagra', 'cialis', 'weight loss pills'])} ${pick(r, ['online without prescription', 'at the lowest price', 'with fast delivery'])} ${spamDomain(r, 'pharma')} ${pick(r, ['Buy now', 'Discount code SAVE20', '100% free shipping'])}`,
  // Loans.
  (r) =>
    `${pick(r, ['Need money fast?', 'Bad credit?', 'Short on cash?'])} ${pick(r, ['Payday loan', 'Cheap loans', 'Instant loans'])} ${pick(r, ['with no credit check', 'approved in minutes', 'no credit check needed'])}. Apply ${spamDomain(r, 'loan')}`,
  // Dating.
  (r) =>
    `${pick(r, ['Hot singles', 'Lonely tonight?', 'Beautiful girls'])} ${pick(r, ['in your area', 'waiting for you', 'want to meet you'])}. ${pick(r, ['Check my profile', 'Click here', 'Visit my website'])} ${spamDomain(r, 'date')}`,
  // Work from home.
  (r) =>
    `${pick(r, ['Work from home', 'Make money online', 'Earn money from home'])} ${pick(r, ['and earn', 'making', 'earning'])} $${pick(r, ['90', '350', '1200'])} an hour. ${pick(r, ['No experience needed', 'I quit my job', 'Everyone can do it'])}. ${pick(r, ['Go to', 'Just visit', 'Details at'])} ${spamDomain(r, 'jobs')}`,
  // Scraped: a reader's sentence lifted from elsewhere, with a link to where the money is.
  (r) => `${hamComment(r)} ${spamDomain(r, pick(r, ['shop', 'deals', 'casino', 'loan']))}`,
  (r) =>
    `${hamComment(r)} [${pick(r, ['source', 'more', 'details', 'here'])}](${spamDomain(r, pick(r, ['news', 'info', 'pharma']))})`,
  // Essays, watches, the long tail.
  (r) =>
    `${pick(r, ['Essay writing service', 'Replica watches', 'Cheap followers'])} ${pick(r, ['best prices', 'top quality', 'order now'])} ${spamDomain(r, pick(r, ['essay', 'watch', 'likes']))} ${spamDomain(r, 'promo')}`,
];

/** Cyrillic look-alikes of Latin letters, as some spam writes to slip past word lists. */
const LOOK_ALIKES: Record<string, string> = {
  a: '\u0430',
  e: '\u0435',
  o: '\u043e',
  c: '\u0441',
  p: '\u0440',
};

function disguise(random: () => number, text: string): string {
  return text.replace(/[aeocp]/g, (letter) => (random() < 0.5 ? LOOK_ALIKES[letter]! : letter));
}

/**
 * `count` comments in posting order, `spamShare` of them spam. Campaigns: a spam text is posted
 * again, word for word, on one to three other stories, close by in time.
 */
export function generateCorpus(
  count: number,
  { seed = 19, spamShare = 0.25, hamAuthors = 300, spamAuthors = 120 } = {},
): CorpusComment[] {
  const random = seededRandom(seed);
  const comments: CorpusComment[] = [];
  while (comments.length < count) {
    if (random() >= spamShare) {
      comments.push({
        body: hamComment(random),
        spam: false,
        author: Math.floor(random() * hamAuthors),
        story: Math.floor(random() * STORIES),
      });
      continue;
    }
    let body = pick(random, SPAM_FAMILIES)(random).replace(/\s+/g, ' ').trim();
    if (random() < 0.15) body = disguise(random, body);
    const author = hamAuthors + Math.floor(random() * spamAuthors);
    const repeats = random() < 0.25 ? 1 + Math.floor(random() * 3) : 0;
    for (let i = 0; i <= repeats && comments.length < count; i += 1) {
      comments.push({ body, spam: true, author, story: Math.floor(random() * STORIES) });
    }
  }
  return comments;
}
