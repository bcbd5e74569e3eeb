// `npx tsx locales/write.ts`: writes only the files compiled from the catalogs (what
// `npm run codegen` writes of them, without the GraphQL files): quick while editing catalogs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { generatedCatalogFiles } from './generate';

const files = generatedCatalogFiles();
for (const { file, content } of files) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}
console.log(`catalogs: ${files.length} files written`);
