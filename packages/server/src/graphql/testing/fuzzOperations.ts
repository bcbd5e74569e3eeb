/**
 * Property-based fuzzing of every query and mutation of the schema against a running server:
 * each field is called with arguments fast-check draws from its argument types — random and
 * hostile strings (control characters, lone surrogates, bidirectional overrides, 100 KB), numbers
 * at and past the edges, wrong types, missing and extra fields, and now and then the ids of real
 * rows so the resolvers go past their first check — as a reader, a commenter or the admin. Every
 * answer must be data or coded errors from the contract's list, never `INTERNAL`, never a 5xx.
 * Seeded (the seed is printed) and bounded by the number of runs per field. Test support only.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';
import type { GraphQLArgument, GraphQLField, GraphQLInputType, GraphQLSchema } from 'graphql';
import { isServerErrorCode } from '@parley/contract';

/** Values worth trying wherever a string goes. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202e\u2066evil\u2069',
  '\ud800',
  'x\udfff',
  '\u{1f600}'.repeat(50),
  'a'.repeat(100_000),
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  "'; drop table users; --",
  '../../etc/passwd',
  'javascript:alert(1)',
  'https://site.example/article',
  'admin@example.com',
  'ADMIN@EXAMPLE.COM',
  '%00%2e%2e',
  '1970-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
];

const EDGE_INTEGERS = [0, -1, 1, 2, 59, 60, 2_147_483_647, -2_147_483_648, 2 ** 31, 2 ** 53, 1.5];

/** Anything at all, for a wrong type. */
const anyJson: Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 8 }),
  fc.constant([]),
  fc.constant({}),
  fc.constant([1, 'two']),
  fc.constant({ nested: { deep: true } }),
);

/** What the fuzzer knows of the data, so some arguments name real rows. */
export interface FuzzContext {
  /** Ids of rows (stories, comments, users, sites, keys) and values (emails, URLs) that exist. */
  known: readonly string[];
}

function stringArbitrary(context: FuzzContext): Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    {
      weight: 1,
      // Lone surrogates and controls, mixed.
      arbitrary: fc
        .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 20 })
        .map((codes) => String.fromCharCode(...codes)),
    },
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    ...(context.known.length > 0
      ? [{ weight: 4, arbitrary: fc.constantFrom(...context.known) }]
      : []),
  );
}

/** An arbitrary of values for `type`, wrong ones included. */
function valueArbitrary(
  type: GraphQLInputType,
  context: FuzzContext,
  depth = 0,
): Arbitrary<unknown> {
  const wrong = { weight: 1, arbitrary: anyJson };
  if (isNonNullType(type)) {
    return fc.oneof(
      { weight: 12, arbitrary: valueArbitrary(type.ofType, context, depth) },
      { weight: 1, arbitrary: fc.constant(null) },
    );
  }
  const right = ((): Arbitrary<unknown> => {
    if (isListType(type)) {
      return fc.array(valueArbitrary(type.ofType, context, depth + 1), { maxLength: 4 });
    }
    if (isEnumType(type)) {
      return fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...type.getValues().map((v) => v.name)) },
        { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
      );
    }
    if (isInputObjectType(type)) {
      if (depth > 4) return fc.constant({});
      const fields = Object.values(type.getFields());
      const record: Record<string, Arbitrary<unknown>> = {};
      for (const field of fields)
        record[field.name] = valueArbitrary(field.type, context, depth + 1);
      return fc
        .tuple(
          fc.record(record, {
            requiredKeys: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name),
          }),
          fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), anyJson), { freq: 8 }),
        )
        .map(([value, extra]) => (extra ? { ...value, [extra[0]]: extra[1] } : value));
    }
    if (isScalarType(type)) {
      switch (type.name) {
        case 'Int':
          return fc.oneof(fc.integer(), fc.constantFrom(...EDGE_INTEGERS));
        case 'Float':
          return fc.oneof(fc.double(), fc.constantFrom(...EDGE_INTEGERS));
        case 'Boolean':
          return fc.boolean();
        default:
          return stringArbitrary(context);
      }
    }
    return anyJson;
  })();
  return fc.oneof({ weight: 10, arbitrary: right }, wrong);
}

/** The document that calls `field` of `operation` with every argument as a variable. */
export function documentFor(
  operation: 'query' | 'mutation',
  field: GraphQLField<unknown, unknown>,
): string {
  const variables = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  return (
    `${operation} Fuzz${variables ? `(${variables})` : ''} ` +
    `{ ${field.name}${args ? `(${args})` : ''}${selection} }`
  );
}

/** The variables of one call of `field`: sometimes an argument is left out altogether. */
export function variablesArbitrary(
  args: readonly GraphQLArgument[],
  context: FuzzContext,
): Arbitrary<Record<string, unknown>> {
  const record: Record<string, Arbitrary<unknown>> = {};
  for (const arg of args) record[arg.name] = valueArbitrary(arg.type, context);
  return fc.record(record, {
    requiredKeys: args.filter((a) => isNonNullType(a.type)).map((a) => a.name),
  });
}

/** Every query and mutation field, with its operation. */
export function fuzzedFields(schema: GraphQLSchema) {
  const fields: { operation: 'query' | 'mutation'; field: GraphQLField<unknown, unknown> }[] = [];
  for (const [operation, type] of [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
  ] as const) {
    for (const field of Object.values(type?.getFields() ?? {})) fields.push({ operation, field });
  }
  return fields;
}

/** What a call answered, judged. */
export interface FuzzVerdict {
  ok: boolean;
  /** The codes of its errors (or what was wrong). */
  codes: string[];
}

/**
 * Judges one answer: an HTTP status below 500, and every error coded with a code of the
 * contract other than `INTERNAL`.
 */
export function judge(status: number, body: unknown): FuzzVerdict {
  const errors = (body as { errors?: { extensions?: { code?: unknown } }[] } | null)?.errors ?? [];
  const codes = errors.map((error) => String(error.extensions?.code ?? 'UNCODED'));
  const ok =
    status < 500 &&
    typeof body === 'object' &&
    body !== null &&
    codes.every((code) => code !== 'INTERNAL' && isServerErrorCode(code));
  return { ok, codes };
}

/** Options of {@link fuzzOperations}. */
export interface FuzzOptions {
  schema: GraphQLSchema;
  context: FuzzContext;
  /** Runs one operation as one of the viewers; resolves the HTTP status and the parsed body. */
  send(
    document: string,
    variables: Record<string, unknown>,
    viewer: number,
  ): Promise<{ status: number; body: unknown }>;
  /** How many viewers `send` knows (0 is signed out). */
  viewers: number;
  seed: number;
  /** Calls per field. */
  runs: number;
  /** Fields left out (by name), with the reason in a comment where the list is made. */
  skip?: readonly string[];
}

/** What a fuzz run did. */
export interface FuzzReport {
  calls: number;
  /** How many answers carried each code (`data` for none). */
  codes: Record<string, number>;
  /** Calls that broke the rules, at most 20, with what was sent. */
  failures: {
    field: string;
    variables: unknown;
    viewer: number;
    codes: string[];
    status: number;
  }[];
}

/** Fuzzes every field; never throws on a bad answer (the report lists them). */
export async function fuzzOperations(options: FuzzOptions): Promise<FuzzReport> {
  const report: FuzzReport = { calls: 0, codes: {}, failures: [] };
  for (const [index, { operation, field }] of fuzzedFields(options.schema).entries()) {
    if (options.skip?.includes(field.name)) continue;
    const document = documentFor(operation, field);
    await fc.assert(
      fc.asyncProperty(
        variablesArbitrary(field.args, options.context),
        fc.integer({ min: 0, max: options.viewers - 1 }),
        async (variables, viewer) => {
          const { status, body } = await options.send(document, variables, viewer);
          const verdict = judge(status, body);
          report.calls++;
          for (const code of verdict.codes.length > 0 ? new Set(verdict.codes) : ['data']) {
            report.codes[code] = (report.codes[code] ?? 0) + 1;
          }
          if (!verdict.ok && report.failures.length < 20) {
            report.failures.push({
              field: field.name,
              variables: JSON.parse(JSON.stringify(variables, truncate)),
              viewer,
              codes: verdict.codes,
              status,
            });
          }
          return true;
        },
      ),
      // One seed per field, from the run's: a field added later does not shift the others.
      { seed: options.seed + index, numRuns: options.runs, endOnFailure: true },
    );
  }
  return report;
}

/** Long strings cut in a report (a 100 KB value would bury the rest). */
function truncate(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.length > 60
    ? `${value.slice(0, 60)}… (${value.length} characters)`
    : value;
}
