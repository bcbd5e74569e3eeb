// Parley for `bench:scale` sections that need what `parley start` cannot be told: rate limits
// raised far past any user's (section 5 posts as fast as the server takes it). Run by
// liveFanOut.ts's `startLive({ rateLimitsRaised: true })`; configured by the environment as
// `parley start` is; stops on SIGTERM.
import { createParleyServer, loadConfig } from '@parley/server';
import { RATE_LIMITS } from '../../packages/server/src/defaults';

const raised = Object.fromEntries(
  Object.keys(RATE_LIMITS).map((action) => [action, { limit: 1e9, windowSeconds: 60 }]),
);
const server = await createParleyServer({ config: loadConfig(process.env), rateLimits: raised });
const port = await server.listen();
// What startParley waits for.
console.log(`Parley is running (bench server, rate limits raised) on port ${port}`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
