// `npm start`: the whole of Parley in one process, plus the example host page on a second origin.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createParleyServer } from './createParleyServer';
import { ConfigError, loadConfig } from './runtime/loadConfig';

import { REPOSITORY_ROOT as ROOT, builtClientRoutes } from './clientBuilds';

async function main(): Promise<void> {
  const config = loadConfig();
  const staticRoutes = builtClientRoutes();
  const parley = await createParleyServer({ config, staticRoutes });
  const port = await parley.listen();
  const publicUrl = config.publicUrl;

  // The example host page: another origin, as a real site would be.
  const page = join(ROOT, 'examples/host/index.html');
  const example = createServer((req, res) => {
    if (req.url !== '/' && !req.url?.startsWith('/?')) return void res.writeHead(404).end();
    readFile(page, 'utf8').then(
      (html) =>
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(html.replaceAll('%PARLEY_URL%', publicUrl)),
      (error: unknown) => {
        console.error('The example page could not be read:', error);
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((done) => example.listen(config.examplePort, config.host, done));

  console.log(`Parley is running (${parley.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite in ' + config.dataDir}).
  GraphQL (HTTP and WebSocket): ${publicUrl}/graphql   (port ${port})
  Health and metrics:           ${publicUrl}/healthz  ${publicUrl}/metrics
  Example host page:            http://${config.host}:${config.examplePort}/
First time? Fill it with a demo organization: npm run demo`);

  let stopping: Promise<void> | undefined;
  // A second Ctrl+C while closing must not close the database twice.
  const stop = () =>
    (stopping ??= (async () => {
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
