import { createParleyServer } from '../src/createParleyServer';
import { createTestDatabase } from '../src/db/testDatabases';
import { loadConfig } from '../src/runtime/loadConfig';

describe('a server whose Redis does not answer', () => {
  it('refuses to start, naming REDIS_URL, and leaves nothing open', async () => {
    const database = await createTestDatabase('sqlite', { sqliteFile: true });
    try {
      const config = loadConfig({
        PORT: '0',
        PARLEY_DATA_DIR: database.dataDir,
        REDIS_URL: 'redis://127.0.0.1:1', // nothing listens on port 1
        LOG_LEVEL: 'silent',
      });
      await expect(createParleyServer({ config, redisReadyTimeoutMs: 500 })).rejects.toThrow(
        /Redis at REDIS_URL .* could not be reached/,
      );
    } finally {
      await database.close();
    }
  });
});
