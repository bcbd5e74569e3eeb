import { GraphQLScalarType, Kind } from 'graphql';
import { ParleyError } from '../ParleyError';

/**
 * DateTime: ISO-8601 strings out (the store keeps UTC ISO text already), Dates in. A value that
 * is not a date is `INVALID_INPUT`, not a generic validation message.
 */
export const DateTime = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  serialize(value) {
    if (value instanceof Date) return value.toISOString();
    if (typeof value === 'string') return value;
    throw new TypeError('DateTime cannot represent this value.');
  },
  parseValue(value) {
    return toDate(value);
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw invalidDate();
    return toDate(ast.value);
  },
});

function toDate(value: unknown): Date {
  const date = typeof value === 'string' ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw invalidDate();
  return date;
}

function invalidDate(): ParleyError {
  return new ParleyError('INVALID_INPUT', 'Expected an ISO-8601 date and time.');
}
