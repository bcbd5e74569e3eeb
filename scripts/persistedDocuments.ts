// Writes the persisted-documents manifest: every operation the stream, the sign-in popup and the
// console can send, as `{ "<documentId>": "<the text the transport would send>" }` (the id the
// transport sends instead of the text, see `documentId`), sorted by id. Two documents with one id
// fail it. `npm run codegen` runs it (and `--check` keeps the committed file current); the server
// loads the file to tell our clients' documents from any other.
//
// It imports every module of the two clients (not tests, not the entries that mount an app) and
// keeps each exported document holding an operation (or held by an exported object). An operation written in a module but not
// exported would be missed, so it fails when a module's source has more operation literals than
// the module exports.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DocumentNode } from '@0no-co/graphql.web';
import {
  COUNTS_DOCUMENT_ID,
  COUNTS_QUERY,
  RECENT_DOCUMENT_ID,
  RECENT_QUERY,
} from '../packages/embed/src/defaults';
import { documentId, documentText, graphql } from '../packages/transport/src/graphql';

/** Client source folders, and the entry modules (they mount an app when imported) to skip. */
const SOURCES = ['packages/stream/src', 'packages/admin/src'];
const ENTRIES = new Set([
  'packages/stream/src/stream.tsx',
  'packages/stream/src/auth.tsx',
  'packages/admin/src/main.tsx',
]);

/** Matches the opening of an operation literal: graphql(`query …`, graphql(`mutation …`… */
const OPERATION_LITERAL = /graphql\(\s*`\s*(query|mutation|subscription)\b/g;

function modules(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : modules(path);
    if (!/\.tsx?$/.test(entry.name) || /\.(test|d)\.tsx?$/.test(entry.name)) return [];
    return ENTRIES.has(path) ? [] : [path];
  });
}

function isOperation(value: unknown): value is DocumentNode {
  const document = value as Partial<DocumentNode> | null;
  return (
    typeof document === 'object' &&
    document?.kind === 'Document' &&
    !!document.definitions?.some((d) => d.kind === 'OperationDefinition')
  );
}

const manifest = new Map<string, string>();
const problems: string[] = [];
for (const path of SOURCES.flatMap(modules)) {
  const written = [...readFileSync(path, 'utf8').matchAll(OPERATION_LITERAL)].length;
  if (!written) continue;
  const exports = (await import(pathToFileURL(join(process.cwd(), path)).href)) as object;
  // An exported document, or one in an exported table of them (`{ approveComment: graphql(…) }`).
  const exported = Object.values(exports)
    .flatMap((value) =>
      isOperation(value) || typeof value !== 'object' ? [value] : Object.values(value ?? {}),
    )
    .filter(isOperation);
  if (exported.length < written)
    problems.push(`${path}: ${written} operations written, ${exported.length} exported`);
  for (const document of exported) {
    const text = documentText(document);
    const id = documentId(document);
    const known = manifest.get(id);
    if (known !== undefined && known !== text)
      problems.push(`${path}: two documents have the id ${id}; rename one operation`);
    manifest.set(id, text);
  }
}
// count.js and recent.js send their one query each by an id written in their source (they carry
// no GraphQL code).
for (const [name, query, id] of [
  ['COUNTS', COUNTS_QUERY, COUNTS_DOCUMENT_ID],
  ['RECENT', RECENT_QUERY, RECENT_DOCUMENT_ID],
] as const) {
  const document = graphql(query);
  if (documentId(document) !== id)
    problems.push(
      `packages/embed/src/defaults.ts: ${name}_DOCUMENT_ID must be '${documentId(document)}', the id of ${name}_QUERY`,
    );
  manifest.set(id, documentText(document));
}
if (problems.length) {
  console.error(
    `Every operation must be exported to reach the manifest, under its own id:\n  ${problems.join('\n  ')}`,
  );
  process.exit(1);
}
const output = process.argv[process.argv.indexOf('--output') + 1];
if (!output || output.startsWith('--'))
  throw new Error('usage: persistedDocuments.ts --output <file>');
const sorted = Object.fromEntries([...manifest].sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(output, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${relative(process.cwd(), output)}: ${manifest.size} documents`);
