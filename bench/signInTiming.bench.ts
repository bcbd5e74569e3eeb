// `npm run bench:sign-in`: a sign-in takes the same time whether or not the email has an account
// (a password is always hashed: the account's, or a dummy one), so its timing tells nobody who
// has one. 20 accounts are each tried once with a wrong password, and 20 unknown addresses once
// each, interleaved, each from an address of its own (no per-address limit or challenge in the
// way); the medians are printed with their difference. Target: under 10 %.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParleyServer, loadConfig } from '@parley/server';
import { hashPassword } from '../packages/server/src/auth/passwords';
import { createUser } from '../packages/server/src/db/store/users';
import { installOverHttp } from '../packages/server/src/runtime/testing/installOverHttp';

const TRIES = 20;
const TARGET = 0.1;
const dir = mkdtempSync(join(tmpdir(), 'parley-sign-in-bench-'));
const server = await createParleyServer({
  config: loadConfig({ PORT: '0', PARLEY_DATA_DIR: dir, LOG_LEVEL: 'silent', TRUST_PROXY: '1' }),
});
const url = `http://127.0.0.1:${await server.listen()}`;
await installOverHttp(url, { site: 'https://site.example', password: 'correct horse battery' });
const passwordHash = await hashPassword('the right password');
for (let i = 0; i < TRIES; i++) {
  await createUser(server.deps.db, {
    username: `reader${i}`,
    email: `reader${i}@example.com`,
    passwordHash,
    emailVerified: true,
  });
}

async function signIn(email: string, ip: string): Promise<{ ms: number; code: string }> {
  const started = performance.now();
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({
      query: 'mutation ($input: SignInInput!) { signIn(input: $input) { token } }',
      variables: { input: { email, password: 'a wrong password' } },
    }),
  });
  const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
  return { ms: performance.now() - started, code: body.errors?.[0]?.extensions?.code ?? 'data' };
}

const known: number[] = [];
const unknown: number[] = [];
const codes = new Set<string>();
for (let i = 0; i < TRIES; i++) {
  const a = await signIn(`reader${i}@example.com`, `10.1.0.${i + 1}`);
  const b = await signIn(`nobody${i}@example.com`, `10.2.0.${i + 1}`);
  known.push(a.ms);
  unknown.push(b.ms);
  codes.add(a.code).add(b.code);
}
const median = (values: number[]) =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
const [k, u] = [median(known), median(unknown)];
const difference = Math.abs(k - u) / Math.max(k, u);
console.log(
  `sign-in, wrong password: an account ${k.toFixed(1)} ms, no account ${u.toFixed(1)} ms ` +
    `(median of ${TRIES}); difference ${(difference * 100).toFixed(1)} % (target < ${TARGET * 100} %); ` +
    `answers: ${[...codes].join(', ')}`,
);
await server.close();
rmSync(dir, { recursive: true, force: true });
process.exitCode = difference < TARGET && codes.size === 1 ? 0 : 1;
