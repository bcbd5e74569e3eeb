import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  typeFromAST,
} from 'graphql';
import type { DocumentNode, GraphQLInputType, GraphQLSchema } from 'graphql';
import { MAX_LIST_COST, listCost } from '../runtime/plugins/listCost';
import { createTestYoga } from '../runtime/testing/createTestYoga';
import { createParleySchema } from './createParleySchema';

// The persisted-documents manifest (npm run codegen) holds every operation the stream, the sign-in
// popup and the console send, as the transport sends them. Each must pass the server as it runs:
// the schema, graphql-armor's limits and the list-aware cost at the page sizes a client leaves out.
const manifest = JSON.parse(
  readFileSync(
    createRequire(import.meta.url).resolve('@parley/contract/persisted-documents.json'),
    'utf8',
  ),
) as Record<string, string>;
const documents = Object.entries(manifest);

/** A value of `type` that coerces: what a required variable needs for the cost to be computed. */
function sample(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sample(type.ofType);
  if (isListType(type)) return [];
  if (isEnumType(type)) return type.getValues()[0]?.value;
  if (isInputObjectType(type))
    return Object.fromEntries(
      Object.values(type.getFields())
        .filter((field) => isNonNullType(field.type))
        .map((field) => [field.name, sample(field.type)]),
    );
  const samples: Record<string, unknown> = {
    Int: 1,
    Float: 1,
    Boolean: false,
    DateTime: '2026-01-01T00:00:00.000Z',
  };
  return samples[getNamedType(type).name] ?? 'x';
}

/** Values for the operation's required variables; the optional ones (`first`…) are left out. */
function requiredVariables(schema: GraphQLSchema, document: DocumentNode): Record<string, unknown> {
  const operation = document.definitions.find((d) => d.kind === 'OperationDefinition');
  const definitions =
    operation && 'variableDefinitions' in operation ? operation.variableDefinitions : [];
  return Object.fromEntries(
    (definitions ?? [])
      .filter((definition) => definition.type.kind === 'NonNullType')
      .map((definition) => [
        definition.variable.name.value,
        sample(typeFromAST(schema, definition.type) as GraphQLInputType),
      ]),
  );
}

describe('the clients’ persisted documents', () => {
  const { yoga } = createTestYoga({ schema: createParleySchema() });
  const { parse, validate, schema } = yoga.getEnveloped({});

  it('cover the stream, the popup and the console', () => {
    const names = documents.map(
      ([, text]) => /^(?:query|mutation|subscription) (\w+)/.exec(text)?.[1],
    );
    expect(names).toEqual(
      expect.arrayContaining(['Stream', 'SignIn', 'ConfirmSignUp', 'ModerationQueue']),
    );
    expect(documents.length).toBeGreaterThan(50);
  });

  it.each(documents)('%s passes validation and the cost limits', (_hash, text) => {
    const document = parse(text);
    expect(validate(schema, document).map((error: Error) => error.message)).toEqual([]);
    const variableValues = requiredVariables(schema, document);
    expect(listCost({ schema, document, variableValues })).toBeLessThanOrEqual(MAX_LIST_COST);
  });
});
