import {
  MIN_LESSONS,
  NEW_ACCOUNT_MS,
  modelSpamProbability,
  modelText,
  newSpamModel,
  readSpamText,
  spamScore,
  spamSignals,
  storedSpamModel,
} from './spam';

const OLD = { accountAgeMs: 30 * NEW_ACCOUNT_MS, repeatedOnStories: 0 };
const NEW = { accountAgeMs: 60_000, repeatedOnStories: 0 };

describe('reading a comment for the spam filter', () => {
  it('reads words folded, links as their hosts, numbers and money as kinds', () => {
    const text = readSpamText(
      'Win **BIG** at [our site](https://www.Casino.example/x?ref=1) — $500 bonus, 24 hours',
    );
    expect(text.tokens).toEqual([
      'w:win',
      'w:big',
      'w:at',
      'w:our',
      'w:site',
      '#money',
      'w:bonus',
      '#num',
      'w:hours',
      'link:casino.example',
      'tld:example',
    ]);
    expect(text.links).toBe(1);
  });

  it('folds look-alike letters, so a Cyrillic "саsino" is the phrase it imitates', () => {
    // с and а are Cyrillic here.
    expect(readSpamText('Best \u0441\u0430sino in town').phrases).toEqual(['casino']);
    expect(readSpamText('Best casino in town').tokens).toEqual(
      readSpamText('Best \u0441\u0430sino in town').tokens,
    );
  });

  it('counts bare URLs and addresses as links', () => {
    // Without a scheme, linkify knows a link by its top-level domain (.com, not .example).
    const text = readSpamText('see https://a.example/1 and www.b-shop.com or mail me@c-shop.com');
    expect(text.links).toBe(3);
    expect(text.tokens.filter((t) => t.startsWith('link:'))).toEqual([
      'link:a.example',
      'link:b-shop.com',
      'link:mail',
    ]);
  });

  it('fingerprints the words of a text of six words or more, whatever its markup or case', () => {
    const a = readSpamText('Great deals on *watches*, visit us today!');
    const b = readSpamText('great DEALS on watches — visit us today');
    expect(a.fingerprint).not.toBeNull();
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(readSpamText('Great deals on watches, visit today').fingerprint).not.toBe(a.fingerprint);
    expect(readSpamText('Thanks, great piece!').fingerprint).toBeNull();
  });
});

describe('words that are also names of every object', () => {
  it('are words like any other: "constructor" neither breaks a score nor the model', () => {
    const model = newSpamModel();
    for (let i = 0; i < MIN_LESSONS; i += 1) {
      model.learn(modelText(readSpamText(`cheap pills ${i}`).tokens), 'spam');
      model.learn(modelText(readSpamText(`the constructor of the bridge ${i}`).tokens), 'ham');
    }
    const score = spamScore(readSpamText('the constructor toString hasOwnProperty'), OLD, model);
    expect(Number.isFinite(score)).toBe(true);
    expect(score).toBeLessThan(0.1);
    expect(storedSpamModel(model.toJson()).vocabulary['w:constructor']).toBe(MIN_LESSONS);
  });
});

describe('signals that need no training', () => {
  it('finds nothing in an ordinary comment from an established reader', () => {
    const text = readSpamText('I disagree with the second paragraph; the figures say otherwise.');
    expect(spamSignals(text, OLD)).toEqual([]);
    expect(spamScore(text, OLD, undefined)).toBeCloseTo(0.05, 5);
  });

  it('never holds one phrase, one link or a new account alone (default threshold 0.9)', () => {
    const phrase = readSpamText('Is bitcoin investment still a thing after this crash?');
    const link = readSpamText('Source: https://stats.example/report');
    const fresh = readSpamText('First time here, nice article.');
    expect(spamScore(phrase, OLD, undefined)).toBeLessThan(0.3);
    expect(spamScore(link, NEW, undefined)).toBeLessThan(0.6);
    expect(spamScore(fresh, NEW, undefined)).toBeLessThan(0.1);
  });

  it('holds what several agree on: phrases, links from a day-old account', () => {
    const text = readSpamText(
      'Make money from home! Free spins at https://spin.example — click here https://spin.example/2',
    );
    expect(spamSignals(text, NEW).map((s) => s.name)).toEqual([
      'phrases',
      'linkDense',
      'newAccount',
      'newAccountLink',
    ]);
    expect(spamScore(text, NEW, undefined)).toBeGreaterThanOrEqual(0.9);
    expect(spamScore(text, OLD, undefined)).toBeLessThan(0.9);
  });

  it('counts the same text on other stories: once more, then more', () => {
    const text = readSpamText(
      'Visit our new shop for the best prices in town https://shop.example',
    );
    const once = spamScore(text, { ...NEW, repeatedOnStories: 1 }, undefined);
    const twice = spamScore(text, { ...NEW, repeatedOnStories: 2 }, undefined);
    expect(spamScore(text, NEW, undefined)).toBeLessThan(once);
    expect(once).toBeLessThan(twice);
    expect(twice).toBeGreaterThanOrEqual(0.9);
  });
});

describe('the trained model', () => {
  const spam = [
    'cheap pills online pharmacy best price',
    'online pharmacy discount pills no prescription',
    'best price pills shipped fast cheap',
  ];
  const ham = [
    'the council vote was closer than the article suggests',
    'I think the author misread the budget figures',
    'the vote on the budget happens next week',
  ];
  function trained(lessons = MIN_LESSONS) {
    const model = newSpamModel();
    for (let i = 0; i < lessons; i += 1) {
      model.learn(modelText(readSpamText(spam[i % spam.length]!).tokens), 'spam');
      model.learn(modelText(readSpamText(ham[i % ham.length]!).tokens), 'ham');
    }
    return model;
  }

  it('says nothing before it has ten lessons of each kind', () => {
    const model = trained(MIN_LESSONS - 1);
    expect(modelSpamProbability(model, readSpamText('cheap pills').tokens)).toBeUndefined();
    const pills = readSpamText('cheap pills at the best price');
    expect(spamScore(pills, OLD, model)).toBe(spamScore(pills, OLD, undefined));
  });

  it('holds on its own what it learned is spam, and lets through what it learned is not', () => {
    const model = trained();
    expect(spamScore(readSpamText('discount pills, best price'), OLD, model)).toBeGreaterThan(0.9);
    expect(spamScore(readSpamText('the budget vote was close'), OLD, model)).toBeLessThan(0.1);
  });

  it('computes what the library computes (its decimal categorize), only faster', () => {
    const model = trained();
    for (const body of ['cheap budget pills', 'the vote', 'nothing known here at all']) {
      const tokens = readSpamText(body).tokens;
      const library = model
        .categorize(modelText(tokens))
        .likelihoods.find((l) => l.category === 'spam')!.proba;
      expect(modelSpamProbability(model, tokens)).toBeCloseTo(library, 10);
    }
  });

  it('survives its JSON, which is how the database keeps it', () => {
    const model = trained();
    const again = storedSpamModel(model.toJson());
    const tokens = readSpamText('cheap pills for the vote').tokens;
    expect(modelSpamProbability(again, tokens)).toBe(modelSpamProbability(model, tokens));
  });
});
