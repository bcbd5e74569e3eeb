import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createDemoServer, createHostPageServer } from './server';

// Until @parley/server exists, `npm start` runs this demo of @parley/transport.
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3000);
const examplePort = Number(process.env.EXAMPLE_PORT ?? 8080);

function listen(server: Server, p: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(p, host, () => resolve());
  });
}

const api = createDemoServer(fileURLToPath(new URL('./dist/', import.meta.url)));
const apiOrigin = `http://${host}:${port}`;
const page = createHostPageServer(
  apiOrigin,
  fileURLToPath(new URL('./index.html', import.meta.url)),
);
await listen(api, port);
await listen(page, examplePort);
console.log(`Parley transport demo
  GraphQL (HTTP + WebSocket): ${apiOrigin}/graphql
  Example host page:          http://${host}:${examplePort}/
Press Ctrl+C to stop.`);

const stop = () => {
  api.close();
  page.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
