/**
 * What is wrong with a story's JSON-LD as schema.org and search engines read it: the
 * `DiscussionForumPosting` shape (schema.org's properties for it and for `Comment`, and the
 * properties Google's structured-data guidelines require of a forum posting and its comments:
 * an author with a name, a publication date, text, a URL). An empty list means it holds. Each
 * problem names where it is (`comment[2].comment[0].author`). Test-only.
 */

type Json = Record<string, unknown>;

/** schema.org properties each type may carry here (a subset: those a thread needs). */
const ALLOWED: Record<string, readonly string[]> = {
  DiscussionForumPosting: [
    '@context',
    '@type',
    '@id',
    'url',
    'mainEntityOfPage',
    'headline',
    'text',
    'datePublished',
    'dateModified',
    'author',
    'commentCount',
    'comment',
  ],
  Comment: ['@type', '@id', 'url', 'text', 'datePublished', 'dateModified', 'author', 'comment'],
  Person: ['@type', 'name', 'url'],
  Organization: ['@type', 'name', 'url'],
};

// ISO 8601 date-time with a time zone, as schema.org's DateTime and Google want it.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function absoluteUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** The problems of `value` as schema.org's DiscussionForumPosting with comments. */
export function schemaOrgProblems(value: unknown): string[] {
  const problems: string[] = [];
  const problem = (where: string, what: string) => problems.push(`${where}: ${what}`);

  const typed = (where: string, node: unknown, types: readonly string[]): node is Json => {
    if (!isObject(node)) return (problem(where, 'is not an object'), false);
    const type = node['@type'];
    if (typeof type !== 'string' || !types.includes(type)) {
      problem(where, `@type ${JSON.stringify(type)} is not ${types.join(' or ')}`);
      return false;
    }
    for (const key of Object.keys(node)) {
      if (!ALLOWED[type]!.includes(key)) problem(where, `${type} has no property ${key}`);
    }
    return true;
  };
  const author = (where: string, node: unknown) => {
    if (!typed(where, node, ['Person', 'Organization'])) return;
    if (typeof node['name'] !== 'string' || node['name'].trim() === '')
      problem(where, 'has no name');
    if (node['url'] !== undefined && !absoluteUrl(node['url']))
      problem(where, 'url is not absolute');
  };
  /** The common part of a posting and a comment; returns how many comments it holds, all levels. */
  const post = (where: string, node: Json): number => {
    author(`${where}.author`, node['author']);
    if (typeof node['datePublished'] !== 'string' || !DATE_TIME.test(node['datePublished']))
      problem(where, 'datePublished is not an ISO 8601 date-time with a time zone');
    if (node['dateModified'] !== undefined) {
      if (typeof node['dateModified'] !== 'string' || !DATE_TIME.test(node['dateModified']))
        problem(where, 'dateModified is not an ISO 8601 date-time with a time zone');
      else if (node['dateModified'] < String(node['datePublished']))
        problem(where, 'dateModified is before datePublished');
    }
    if (typeof node['text'] !== 'string' || node['text'].trim() === '')
      problem(where, 'has no text');
    if (!absoluteUrl(node['url'])) problem(where, 'url is not an absolute http(s) URL');
    if (node['comment'] === undefined) return 0;
    if (!Array.isArray(node['comment'])) return (problem(where, 'comment is not a list'), 0);
    let count = 0;
    node['comment'].forEach((reply, i) => {
      const at = `${where}.comment[${i}]`;
      if (typed(at, reply, ['Comment'])) count += 1 + post(at, reply);
    });
    return count;
  };

  if (!isObject(value)) return ['the JSON-LD is not an object'];
  if (value['@context'] !== 'https://schema.org')
    problem('root', '@context is not https://schema.org');
  if (!typed('root', value, ['DiscussionForumPosting'])) return problems;
  if (typeof value['headline'] !== 'string' || value['headline'] === '')
    problem('root', 'has no headline');
  const listed = post('root', value);
  const count = value['commentCount'];
  if (typeof count !== 'number' || !Number.isInteger(count) || count < listed)
    problem('root', `commentCount ${String(count)} does not cover the ${listed} comments listed`);
  return problems;
}
