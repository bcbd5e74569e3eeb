// `npm start`: `parley start` (the whole of Parley in one process) plus the example host page on a
// second origin, for a newcomer trying it out. Production runs `parley start` alone.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  EXAMPLE_ARTICLES,
  EXAMPLE_SITE_ID_FILE,
  EXAMPLE_SSO_SECRET_FILE,
  createExampleServer,
} from '../../../examples/host/createExampleServer';
import { startServer, untilSignalled } from './cli/startServer';
import { ConfigError, loadConfig } from './runtime/loadConfig';

import { REPOSITORY_ROOT as ROOT } from './clientBuilds';

async function main(): Promise<void> {
  const config = loadConfig();
  const { parley, banner } = await startServer(config);
  const publicUrl = config.publicUrl;

  // The example host site: another origin, as a real site would be. Its SSO secret and site id
  // are read per request, so `npm run demo` may run while the server is up.
  const demoFile = (name: string) => () =>
    readFile(join(config.dataDir, name), 'utf8').then(
      (value) => value.trim(),
      () => undefined,
    );
  const example = createExampleServer({
    parleyUrl: publicUrl,
    pagesDir: join(ROOT, 'examples/host'),
    ssoSecret: demoFile(EXAMPLE_SSO_SECRET_FILE),
    siteId: demoFile(EXAMPLE_SITE_ID_FILE),
  });
  await new Promise<void>((done) => example.listen(config.examplePort, config.host, done));
  const exampleUrl = `http://${config.host}:${config.examplePort}`;

  console.log(`${banner}
  Example host site:            ${exampleUrl}/  (articles: ${EXAMPLE_ARTICLES.map((a) => a.path).join(' ')})
    counts and latest comments: ${exampleUrl}/list  (count.js, recent.js)
    signed in by SSO:           ${exampleUrl}/sso   (expired token: ${exampleUrl}/sso?expired=1)
First time? Fill it with a demo organization: npm run demo`);

  await untilSignalled(async () => {
    example.closeAllConnections();
    example.close();
    await parley.close();
  });
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration: ${error.message}` : error);
  process.exit(1);
});
