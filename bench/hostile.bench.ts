// `npm run bench:hostile`: what a hostile GraphQL request costs the server before it is refused
// (the requests of packages/server/src/runtime/testing/hostileDocuments.ts, which
// hostileDocuments.test.ts checks are refused, coded). Each is sent 50 times, one after another,
// over loopback to a server that takes documents of their own (the costlier case: a server running
// only trusted documents refuses text at once), and the median time to its answer is printed
// beside a plain `{ __typename }`. Target: every refusal under 10 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParleyServer, loadConfig } from '@parley/server';
import { HOSTILE_REQUESTS } from '../packages/server/src/runtime/testing/hostileDocuments';

const TARGET_MS = 10;
const TIMES = 50;
const dir = mkdtempSync(join(tmpdir(), 'parley-hostile-bench-'));
const server = await createParleyServer({
  config: loadConfig({
    PORT: '0',
    PARLEY_DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    GRAPHQL_ALLOW_ARBITRARY: 'true',
  }),
});
const url = `http://127.0.0.1:${await server.listen()}/graphql`;

async function median(body: unknown): Promise<{ ms: number; status: number; code: string }> {
  const text = JSON.stringify(body);
  const times: number[] = [];
  let status = 0;
  let code = '';
  for (let i = 0; i < TIMES; i++) {
    const started = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    const answer = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
    times.push(performance.now() - started);
    status = response.status;
    code = answer.errors?.[0]?.extensions?.code ?? 'data';
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)]!, status, code };
}

let missed = 0;
const plain = await median({ query: '{ __typename }' });
console.log(`${'{ __typename } (answered)'.padEnd(30)} ${plain.ms.toFixed(2).padStart(7)} ms`);
for (const request of HOSTILE_REQUESTS) {
  const { ms, status, code } = await median(request.body);
  const ok = ms < TARGET_MS && code !== 'data';
  if (!ok) missed++;
  console.log(
    `${request.name.padEnd(30)} ${ms.toFixed(2).padStart(7)} ms  (target < ${TARGET_MS} ms) ` +
      `${status} ${code}${ok ? '' : '  MISSED'}`,
  );
}
await server.close();
rmSync(dir, { recursive: true, force: true });
process.exitCode = missed === 0 ? 0 : 1;
