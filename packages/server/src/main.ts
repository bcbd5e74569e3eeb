// `npm start`: the whole of Parley in one process, plus the example host page on a second origin.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  EXAMPLE_ARTICLES,
  EXAMPLE_SSO_SECRET_FILE,
  createExampleServer,
} from '../../../examples/host/createExampleServer';
import { createParleyServer } from './createParleyServer';
import { ConfigError, loadConfig } from './runtime/loadConfig';

import { REPOSITORY_ROOT as ROOT, builtClientRoutes } from './clientBuilds';

async function main(): Promise<void> {
  const config = loadConfig();
  const staticRoutes = builtClientRoutes();
  const parley = await createParleyServer({ config, staticRoutes });
  const port = await parley.listen();
  const publicUrl = config.publicUrl;

  // The example host site: another origin, as a real site would be. Its SSO secret is read per
  // request, so `npm run demo` may run while the server is up.
  const example = createExampleServer({
    parleyUrl: publicUrl,
    pagesDir: join(ROOT, 'examples/host'),
    ssoSecret: () =>
      readFile(join(config.dataDir, EXAMPLE_SSO_SECRET_FILE), 'utf8').then(
        (secret) => secret.trim(),
        () => undefined,
      ),
  });
  await new Promise<void>((done) => example.listen(config.examplePort, config.host, done));
  const exampleUrl = `http://${config.host}:${config.examplePort}`;

  console.log(`Parley is running (${parley.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite in ' + config.dataDir}).
  GraphQL (HTTP and WebSocket): ${publicUrl}/graphql   (port ${port})
  Health and metrics:           ${publicUrl}/healthz  ${publicUrl}/metrics
  Example host site:            ${exampleUrl}/  (articles: ${EXAMPLE_ARTICLES.map((a) => a.path).join(' ')})
    comment counts (count.js):  ${exampleUrl}/list
    signed in by SSO:           ${exampleUrl}/sso   (expired token: ${exampleUrl}/sso?expired=1)
First time? Fill it with a demo organization: npm run demo`);

  let stopping: Promise<void> | undefined;
  // A second Ctrl+C while closing must not close the database twice.
  const stop = () =>
    (stopping ??= (async () => {
      example.closeAllConnections();
      example.close();
      await parley.close();
      process.exit(0);
    })());
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration: ${error.message}` : error);
  process.exit(1);
});
