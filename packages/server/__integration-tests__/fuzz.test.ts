import { createParleyServer } from '../src/createParleyServer';
import type { ParleyServer } from '../src/createParleyServer';
import { createParleySchema } from '../src/graphql/createParleySchema';
import { fuzzOperations } from '../src/graphql/testing/fuzzOperations';
import { checkIntegrity, seedFuzzData } from '../src/graphql/testing/fuzzData';
import { createTestDatabase, testDialects } from '../src/db/testDatabases';
import type { TestDatabase } from '../src/db/testDatabases';
import { loadConfig } from '../src/runtime/loadConfig';

// Hostile input, fuzzed: every query and mutation against the running server, on each database,
// with fast-check's arguments (fuzzOperations.ts). Every answer is data or a coded error — never
// INTERNAL, never a 5xx — and afterwards the data holds together (no half-written rows). A fixed
// seed keeps CI repeatable; FUZZ_SEED and FUZZ_RUNS change it, and `bench/fuzz.bench.ts` runs
// longer with fresh seeds.

const SEED = Number(process.env['FUZZ_SEED'] ?? 20_261_126);
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 10);

jest.setTimeout(120_000);

describe.each(testDialects())('fuzzed operations on %s', (dialect) => {
  let database: TestDatabase;
  let server: ParleyServer;
  let url: string;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, { sqliteFile: true });
    server = await createParleyServer({
      config: loadConfig({
        PORT: '0',
        PARLEY_DATA_DIR: database.dataDir,
        DATABASE_URL: dialect === 'postgres' ? database.url : '',
        LOG_LEVEL: 'silent',
      }),
    });
    url = `http://127.0.0.1:${await server.listen()}`;
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  it(`answers data or coded errors, and writes nothing half (seed ${SEED}, ${RUNS} runs a field)`, async () => {
    const { context, viewers, origin } = await seedFuzzData(url, server.deps.db);
    const { db, tokens } = server.deps;
    // A token signed per call, as the viewer stands now: a fuzzed signOutEverywhere, password
    // change or role change would otherwise leave every later call of that viewer refused at the
    // door (TOKEN_INVALID), and the fuzzing would stop reaching the resolvers.
    const tokenOf = async (viewer: number) => {
      const id = viewers[viewer];
      if (id === undefined) return undefined;
      const user = await db
        .selectFrom('users')
        .select(['role', 'session_epoch'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return tokens.sign({ userId: id, role: user.role, epoch: user.session_epoch });
    };
    // Everything the server says goes through its logger: a line on the console per hostile
    // request would let anyone flood it (the read cache's warning did, before its plugin moved).
    const warn = jest.spyOn(console, 'warn');
    const report = await fuzzOperations({
      schema: createParleySchema(),
      context,
      viewers: viewers.length,
      seed: SEED,
      runs: RUNS,
      send: async (document, variables, viewer) => {
        const token = await tokenOf(viewer);
        const response = await fetch(`${url}/graphql`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin,
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify({ query: document, variables }),
        });
        return { status: response.status, body: await response.json().catch(() => null) };
      },
    });
    console.log(
      `${dialect}: seed ${SEED}, ${report.calls} calls; answers by code: ${JSON.stringify(report.codes)}`,
    );
    expect(report.failures).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    expect(await checkIntegrity(server.deps.db)).toEqual([]);
    // The server still answers.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});
