import { readFileSync } from 'node:fs';
import { contractFile } from '../runtime/bundledFiles';

/** Where the schema lives: `schema.graphql` of `@parley/contract`. */
export const SCHEMA_FILE = contractFile('schema.graphql');

/** The GraphQL schema (SDL), read once when the server starts. */
export const typeDefs = readFileSync(SCHEMA_FILE, 'utf8');
