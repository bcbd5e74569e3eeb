import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Where the schema lives: `schema.graphql` of `@parley/contract`, found as Node finds the package. */
export const SCHEMA_FILE = createRequire(import.meta.url).resolve(
  '@parley/contract/schema.graphql',
);

/** The GraphQL schema (SDL), read once when the server starts. */
export const typeDefs = readFileSync(SCHEMA_FILE, 'utf8');
