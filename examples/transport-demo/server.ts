import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { createHttpServer, createLogger, createMetrics } from '@parley/server';
import type { HttpServer } from '@parley/server';
import { createDemoSchema } from './schema';

/** Options of {@link createDemoServer}. */
export interface DemoServerOptions {
  /** The built demo client, served under `/demo/`. */
  distDir: string;
  /** Origins allowed to call the API (the host page's, known once its server listens). */
  allowedOrigins: () => string[];
}

/**
 * The demo API: GraphQL over HTTP and graphql-ws on /graphql and the built client on /demo/ —
 * through the Parley server's own runtime (the same wiring, shutdown and static serving), with
 * the demo's counter schema instead of Parley's.
 */
export function createDemoServer({ distDir, allowedOrigins }: DemoServerOptions): HttpServer {
  return createHttpServer({
    schema: createDemoSchema(),
    // The demo's resolvers read the Idempotency-Key header from the request.
    context: async (init) => ({ request: init.request }),
    getAllowedOrigins: async () => allowedOrigins(),
    staticRoutes: { '/demo/': distDir },
    logger: createLogger({ level: 'silent' }),
    metrics: createMetrics({ defaultMetrics: false }),
  });
}

/** The host page, on its own port so the API is cross-origin to it, as on a real site. */
export function createHostPageServer(apiOrigin: string, page: string): Server {
  return createServer(async (req, res) => {
    if (req.url !== '/' && !req.url?.startsWith('/?')) return void res.writeHead(404).end();
    const html = (await readFile(page, 'utf8')).replaceAll('%API_ORIGIN%', apiOrigin);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
}
