// Prints what the widget's first render weighs, file by file, from an in-memory build (nothing is
// written to dist): `npx tsx bench/bundleSizes.ts`. The size budgets (`.size-limit.cjs`, run by
// `npm test`) check the built files; this shows where the bytes are while working on them.
import { gzipSync } from 'node:zlib';
import { rollup } from 'rollup';
import type { OutputAsset, OutputChunk, RollupOptions } from 'rollup';

process.env.PARLEY_KEEP_DIST = '1';
// The config is plain JavaScript (rollup loads it without a compiler); its shape is rollup's.
// @ts-expect-error -- no declaration file for a .js config
const configs = ((await import('../rollup.config.js')) as { default: RollupOptions[] }).default;

const gz = (code: string | Uint8Array) => gzipSync(code, { level: 9 }).length;

async function build(name: string) {
  const config = configs.find((c) => typeof c.input === 'object' && name in (c.input as object));
  if (!config) throw new Error(`no build with input ${name}`);
  const bundle = await rollup(config);
  const { output } = await bundle.generate(config.output as object);
  await bundle.close();
  return output;
}

const output = await build('stream');
const chunks = new Map(
  output.filter((o): o is OutputChunk => o.type === 'chunk').map((c) => [c.fileName, c]),
);
const entry = [...chunks.values()].find((c) => c.isEntry)!;
// The entry and every chunk it imports statically load before anything renders.
const first = new Set<string>();
const visit = (file: string) => {
  if (first.has(file)) return;
  first.add(file);
  chunks.get(file)?.imports.forEach(visit);
};
visit(entry.fileName);
const css = output.find((o): o is OutputAsset => /\/stream-[\w-]+\.css$/.test(o.fileName))!;
let total = gz(css.source);
console.log(`${gz(css.source)}\t${css.fileName}`);
for (const file of first) {
  const size = gz(chunks.get(file)!.code);
  total += size;
  console.log(`${size}\t${file}`);
}
console.log(
  `${total}\tfirst render of the frame (gzip -9), without embed.js and the storage chunk`,
);
for (const chunk of chunks.values()) {
  if (!first.has(chunk.fileName)) console.log(`${gz(chunk.code)}\t(lazy) ${chunk.fileName}`);
}
// Largest modules of the entry chunk by minified bytes.
const modules = Object.entries(entry.modules)
  .map(
    ([id, m]) =>
      [m.renderedLength, id.replace(/.*node_modules\//, '').replace(/.*\/packages\//, '')] as const,
  )
  .sort((a, b) => b[0] - a[0])
  .slice(0, 25);
for (const [bytes, id] of modules) console.log(`  ${bytes}\t${id}`);
