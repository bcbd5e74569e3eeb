import { readFileSync } from 'node:fs';
import { contractFile } from '../bundledFiles';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { NoSchemaIntrospectionCustomRule } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import type { Plugin } from 'graphql-yoga';
import type { ServerErrorCode } from '@parley/contract';

/**
 * Trusted documents. Parley's clients send the id of each operation (`extensions.persistedQuery
 * .documentId`, see the transport's `documentId`) instead of its text; the server runs the text
 * it holds for that id in `@parley/contract/persisted-documents.json`, which `npm run codegen`
 * writes from the clients' own documents. In production, any other text is refused with
 * `DOCUMENT_NOT_TRUSTED`, and introspection with it, unless `GRAPHQL_ALLOW_ARBITRARY=true` (for
 * people writing their own clients), or the request carries an API token that works (scripts
 * write their own queries; an admin vouched for them by making the token). In development both
 * are allowed.
 *
 * yoga's persisted-operations plugin does the HTTP side; the WebSocket path (graphql-ws, outside
 * yoga's request pipeline) uses {@link resolveTrustedDocument} for the same decision.
 */

const CODE: ServerErrorCode = 'DOCUMENT_NOT_TRUSTED';
/** Bad Request: the request, not the server, is at fault (an old page, an unknown client). */
const STATUS = 400;

/** The id → text list the server trusts. */
export type TrustedDocuments = ReadonlyMap<string, string>;

/** Options of {@link useTrustedDocuments}. */
export interface TrustedDocumentsOptions {
  /** The documents the server runs by id. */
  documents: TrustedDocuments;
  /** Whether a request may carry its own text (and introspect). */
  allowArbitrary: boolean;
  /**
   * Whether one request may carry its own text (and introspect) when `allowArbitrary` is false:
   * one made with an API token that works. Over HTTP only.
   */
  vouchedFor?: (request: Request) => Promise<boolean>;
}

/** What a request carries (HTTP params, a graphql-ws subscribe payload). */
interface RequestDocument {
  query?: string | null;
  extensions?: Record<string, unknown> | null;
}

let loaded: TrustedDocuments | undefined;

/** The clients' documents, as `npm run codegen` wrote them (read once per process). */
export function loadTrustedDocuments(): TrustedDocuments {
  const path = contractFile('persisted-documents.json');
  return (loaded ??= new Map(
    Object.entries(JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>),
  ));
}

/**
 * The clients' documents, with arbitrary text allowed as `production` says unless `allowArbitrary`
 * (`GRAPHQL_ALLOW_ARBITRARY`) decides: what every server runs with unless a test gives its own.
 */
export function trustedDocumentsFor(
  production: boolean,
  allowArbitrary: boolean = !production,
  vouchedFor?: (request: Request) => Promise<boolean>,
): TrustedDocumentsOptions {
  return { documents: loadTrustedDocuments(), allowArbitrary, vouchedFor };
}

/** The id a request names, or undefined. */
export function documentIdOf(params: RequestDocument): string | undefined {
  const persisted = (params.extensions as { persistedQuery?: { documentId?: unknown } } | undefined)
    ?.persistedQuery;
  return typeof persisted?.documentId === 'string' ? persisted.documentId : undefined;
}

const UNKNOWN_ID =
  'This server does not know the document this request names: Parley was probably updated since the page loaded. Reload the page.';
const TEXT_REFUSED =
  'This server runs only the documents of its own clients: send a documentId from its list, or set GRAPHQL_ALLOW_ARBITRARY=true on the server to accept any query.';

/**
 * The text to run for `params`, or the message of why it may not run. Text takes precedence over
 * an id only where text is allowed.
 */
export function resolveTrustedDocument(
  params: RequestDocument,
  { documents, allowArbitrary }: TrustedDocumentsOptions,
): { query: string } | { refused: string } {
  if (params.query) return allowArbitrary ? { query: params.query } : { refused: TEXT_REFUSED };
  const id = documentIdOf(params);
  const query = id === undefined ? undefined : documents.get(id);
  if (query !== undefined) return { query };
  return { refused: id === undefined ? TEXT_REFUSED : UNKNOWN_ID };
}

/** A coded request error for a refused document. */
export function documentRefusal(message: string) {
  return createGraphQLError(message, { extensions: { code: CODE, http: { status: STATUS } } });
}

/** The yoga plugins: documents by id, and introspection only where arbitrary text is allowed. */
export function useTrustedDocuments(options: TrustedDocumentsOptions): Plugin[] {
  const { vouchedFor } = options;
  const vouched = new WeakSet<Request>();
  const plugins: Plugin[] = [
    usePersistedOperations({
      allowArbitraryOperations:
        options.allowArbitrary ||
        (vouchedFor !== undefined &&
          (async (request: Request) => {
            if (!(await vouchedFor(request))) return false;
            vouched.add(request);
            return true;
          })),
      extractPersistedOperationId: (params) => documentIdOf(params) ?? null,
      getPersistedOperation: (id) => options.documents.get(id) ?? null,
      customErrors: {
        notFound: () => documentRefusal(UNKNOWN_ID),
        keyNotFound: () => documentRefusal(TEXT_REFUSED),
        persistedQueryOnly: () => documentRefusal(TEXT_REFUSED),
      },
    }),
  ];
  if (!options.allowArbitrary) {
    plugins.push({
      onValidate({ addValidationRule, context }) {
        const { request } = context as { request?: Request };
        if (request === undefined || !vouched.has(request)) {
          addValidationRule(NoSchemaIntrospectionCustomRule);
        }
      },
    });
  }
  return plugins;
}
