import { EnvelopArmor } from '@escape.tech/graphql-armor';
import type { Plugin } from 'graphql-yoga';

/**
 * Deepest selection allowed. The stream's first render — story → comments → edges → node →
 * replies → edges → node → replies → edges → node → author → id — is 12 deep; 14 leaves room for
 * `pageInfo` beside it and a parent link. Depth alone bounds little work here: the list-aware cost
 * (listCost.ts) bounds how many rows a query can ask for.
 */
export const MAX_DEPTH = 14;
/** Most aliases in one operation; aliases multiply work without adding depth. */
export const MAX_ALIASES = 15;
/** Most directives in one operation (`@include`/`@skip` are the only ones clients need). */
export const MAX_DIRECTIVES = 50;
/**
 * Highest cost (objects 2, scalars 1, times 1.5 per level: graphql-armor's model). The model
 * grows with depth, not list sizes, so a thread with its replies' authors (depth 9) already costs
 * ~10 000; depth (10), aliases, tokens and `first` ≤ 100 bound the real work. 70 000 admits the
 * deepest queries our clients send, with room for a few more fields, and still refuses wide, deep
 * abuse: the stream's first query costs 57 815 since it carries the pinned comment's thread
 * beside the first page, which took it over the earlier limit of 50 000.
 */
export const MAX_COST = 70_000;
/** Most tokens in a document; the console's largest query is a few hundred. */
export const MAX_TOKENS = 2000;
/** What replaces "Did you mean …?" suggestions in production, so the schema is not enumerable. */
export const FIELD_SUGGESTION_MASK = '[Suggestion hidden]';

/** Options of {@link createArmorPlugins}. */
export interface ArmorOptions {
  /** Hide field suggestions in error messages. @default false */
  production?: boolean;
}

/**
 * graphql-armor's limits as envelop plugins. They run as validation rules (tokens: while parsing),
 * so their errors are ordinary request errors: the validation-code plugin and `maskError` give
 * them `extensions.code: 'INVALID_INPUT'` and the message names the limit. Introspection is not
 * limited by depth or cost (graphql-armor's default), so tools keep working.
 */
export function createArmorPlugins({ production = false }: ArmorOptions = {}): Plugin[] {
  const armor = new EnvelopArmor({
    // A fragment counts as its fields, where it is spread: the clients' documents are written
    // with fragments (graphql-armor's default adds a level and ×1.5 per spread, which put the
    // stream's first query at twice the cost of the same query written out).
    maxDepth: { n: MAX_DEPTH, flattenFragments: true },
    maxAliases: { n: MAX_ALIASES },
    maxDirectives: { n: MAX_DIRECTIVES },
    costLimit: { maxCost: MAX_COST, flattenFragments: true },
    maxTokens: { n: MAX_TOKENS },
    blockFieldSuggestion: { enabled: production, mask: FIELD_SUGGESTION_MASK },
  });
  return armor.protect().plugins as Plugin[];
}
