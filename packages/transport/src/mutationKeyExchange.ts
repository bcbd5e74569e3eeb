import { makeOperation } from '@urql/core';
import type { Exchange, Operation } from '@urql/core';
import { map, pipe } from 'wonka';

/** HTTP header that carries a mutation's client mutation id; the server deduplicates on it. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Name of the variable (or `input` field) the id is read from and, where declared, written to. */
export const CLIENT_MUTATION_ID = 'clientMutationId';

declare module '@urql/core' {
  interface OperationContext {
    /**
     * A mutation's client mutation id. Set it to reuse an id (a queued post sent again after a
     * reload), or to `false` to send a mutation that must never be repeated: it then gets no
     * id and is sent exactly once, with no retry. Filled in by the transport otherwise.
     */
    clientMutationId?: string | false;
  }
}

/** Options of {@link mutationKeyExchange}. */
export interface MutationKeyExchangeOptions {
  /** fetch for mutations sent without an id: one attempt, no retry. */
  fetchOnce: typeof fetch;
  /** Makes a new id. @default a random UUID */
  generateId?: () => string;
}

/**
 * Gives every mutation a client mutation id, so that retrying it is safe. The id is taken from
 * `context.clientMutationId`, else `variables.input.clientMutationId`, else
 * `variables.clientMutationId`, else generated; it is sent as the `Idempotency-Key` header, put
 * in `variables.clientMutationId` when the document declares `$clientMutationId`, and left on
 * `operation.context.clientMutationId` for the caller. A mutation whose context says
 * `clientMutationId: false` has no id and is sent once (`fetchOnce`), never retried.
 */
export function mutationKeyExchange(options: MutationKeyExchangeOptions): Exchange {
  const { fetchOnce, generateId = randomId } = options;
  return ({ forward }) =>
    (operations$) =>
      pipe(
        operations$,
        map((operation) => (operation.kind === 'mutation' ? keyed(operation) : operation)),
        forward,
      );

  function keyed(operation: Operation): Operation {
    const { context } = operation;
    if (context.clientMutationId === false) {
      return makeOperation('mutation', operation, { ...context, fetch: fetchOnce });
    }
    const variables = (operation.variables ?? {}) as Record<string, unknown>;
    const input = variables.input as Record<string, unknown> | undefined;
    const id =
      context.clientMutationId ??
      stringOrUndefined(input?.[CLIENT_MUTATION_ID]) ??
      stringOrUndefined(variables[CLIENT_MUTATION_ID]) ??
      generateId();
    const fetchOptions =
      typeof context.fetchOptions === 'function' ? context.fetchOptions() : context.fetchOptions;
    const headers = new Headers(fetchOptions?.headers);
    headers.set(IDEMPOTENCY_KEY_HEADER, id);
    const next = makeOperation('mutation', operation, {
      ...context,
      clientMutationId: id,
      fetchOptions: { ...fetchOptions, headers: Object.fromEntries(headers) },
    });
    if (declaresVariable(operation, CLIENT_MUTATION_ID) && variables[CLIENT_MUTATION_ID] == null) {
      next.variables = { ...variables, [CLIENT_MUTATION_ID]: id };
    }
    return next;
  }
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function declaresVariable(operation: Operation, name: string): boolean {
  return operation.query.definitions.some(
    (definition) =>
      'variableDefinitions' in definition &&
      (definition.variableDefinitions ?? []).some((v) => v.variable.name.value === name),
  );
}

/**
 * A random UUID v4. `crypto.randomUUID` exists only in secure contexts, and a self-hosted
 * server on plain http is not one; `getRandomValues` is available everywhere.
 */
export function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40; // version 4
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
