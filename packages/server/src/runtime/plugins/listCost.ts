import { GraphQLError } from 'graphql';
import type { ExecutionArgs } from 'graphql';
import { getComplexity, simpleEstimator } from 'graphql-query-complexity';
import type { ComplexityEstimator } from 'graphql-query-complexity';
import type { Plugin } from 'graphql-yoga';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../../db/store/paginate';

/**
 * Highest cost of one operation when every paged list counts as many items as its `first` asks
 * for. The stream's first render (20 comments, each with 3 replies and 3 of theirs) costs 5 855
 * (measured on its STREAM_QUERY); `comments(first: 100) { replies(first: 100) { … } }` costs
 * 200 000+ and is refused before any resolver runs.
 */
export const MAX_LIST_COST = 25_000;

/**
 * Lists without a `first` argument and the most items they answer (each counts that many times
 * what its items select).
 */
const BOUNDED_LISTS: Readonly<Record<string, number>> = { commentsSince: 100 };

/** A paged field (one with a `first` argument) costs its items times what each item selects. */
const pagedListEstimator: ComplexityEstimator = ({ field, args, childComplexity }) => {
  const bound = BOUNDED_LISTS[field.name];
  if (bound !== undefined) return 1 + bound * childComplexity;
  if (!field.args.some((arg) => arg.name === 'first')) return undefined;
  const first = typeof args.first === 'number' ? args.first : PAGE_SIZE_DEFAULT;
  return 1 + Math.min(Math.max(first, 0), PAGE_SIZE_MAX) * childComplexity;
};

/**
 * The cost of an operation when every paged list counts as many items as its `first` asks for
 * (from `variableValues`; a list without one counts PAGE_SIZE_DEFAULT). Throws on variables that
 * do not fit the operation.
 */
export function listCost(
  args: Pick<ExecutionArgs, 'schema' | 'document' | 'variableValues' | 'operationName'>,
): number {
  return getComplexity({
    schema: args.schema,
    query: args.document,
    variables: (args.variableValues ?? {}) as Record<string, unknown>,
    operationName: args.operationName ?? undefined,
    estimators: [pagedListEstimator, simpleEstimator({ defaultComplexity: 1 })],
  });
}

/** Options of {@link useListCost}. */
export interface ListCostOptions {
  /** @default MAX_LIST_COST */
  maxCost?: number;
}

/**
 * Refuses operations whose list-aware cost exceeds `maxCost` with `INVALID_INPUT`.
 * graphql-armor's cost limit (kept) grows with depth and ignores list sizes, so a shallow query
 * asking for 100 × 100 × 100 rows would pass it; this counts `first`. It runs at execution, where
 * the variables are known (`first: $first`).
 */
export function useListCost({ maxCost = MAX_LIST_COST }: ListCostOptions = {}): Plugin {
  const check = (args: ExecutionArgs): GraphQLError | undefined => {
    let cost: number;
    try {
      cost = listCost(args);
    } catch {
      // Invalid variables: execution reports them with their own error.
      return undefined;
    }
    if (cost <= maxCost) return undefined;
    return new GraphQLError(
      `Query cost ${cost} exceeds the limit of ${maxCost} (each list counts the items \`first\` asks for).`,
      { extensions: { code: 'INVALID_INPUT' } },
    );
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const error = check(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const error = check(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}
