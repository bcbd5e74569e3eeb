// `npm run bench:fuzz`: the fuzz suite (packages/server/__integration-tests__/fuzz.test.ts) at
// length — 100 calls a field instead of CI's 10, with a fresh seed each run (printed; give it
// back with FUZZ_SEED to replay a finding) — on SQLite and, with DATABASE_URL, PostgreSQL.
// Target: 0 calls answered INTERNAL, uncoded or 5xx, and the data whole afterwards.
import { spawnSync } from 'node:child_process';

const seed = process.env['FUZZ_SEED'] ?? String(Math.floor(Math.random() * 2 ** 31));
const runs = process.env['FUZZ_RUNS'] ?? '100';
console.log(`fuzz: seed ${seed}, ${runs} calls a field`);
const result = spawnSync(
  'npx',
  ['jest', '--selectProjects', 'server', 'packages/server/__integration-tests__/fuzz.test.ts'],
  { stdio: 'inherit', env: { ...process.env, FUZZ_SEED: seed, FUZZ_RUNS: runs } },
);
process.exitCode = result.status ?? 1;
