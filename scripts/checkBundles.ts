// Checks what size-limit cannot: the Sentry SDK sits in a chunk of its own that only the error
// reporter's chunk imports (dynamically, when a DSN is set), so the transport's first chunk and
// its socket and storage chunks neither contain nor load it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = 'packages/transport/dist';
// A property name Sentry's core marks captured errors with; it survives minification.
const SENTRY_MARK = '__sentry_captured__';
const files = new Map<string, string>([
  ['transport.js', readFileSync(join(dist, 'transport.js'), 'utf8')],
]);
for (const name of readdirSync(join(dist, 'chunks'))) {
  files.set(`chunks/${name}`, readFileSync(join(dist, 'chunks', name), 'utf8'));
}

const sentryChunks = [...files]
  .filter(([, code]) => code.includes(SENTRY_MARK))
  .map(([name]) => name);
const failures: string[] = [];
if (sentryChunks.length === 0)
  failures.push('no chunk holds the Sentry SDK: is the dynamic import gone?');
for (const [name, code] of files) {
  if (sentryChunks.includes(name) || name.startsWith('chunks/createErrorReporter-')) continue;
  const leaks = sentryChunks.filter((chunk) => code.includes(chunk.slice('chunks/'.length)));
  if (code.includes(SENTRY_MARK) || leaks.length)
    failures.push(`${dist}/${name} contains or imports Sentry`);
}
if (failures.length) {
  console.error(`Bundle check failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `Bundle check: Sentry is only in ${sentryChunks.join(', ')}, loaded by the error reporter's chunk.`,
);
