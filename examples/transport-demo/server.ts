import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createYoga } from 'graphql-yoga';
import type { ExecutionArgs, ExecutionResult } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { createDemoSchema } from './schema';

/** What Yoga's envelop hands to graphql-ws through `rootValue` (the Yoga + graphql-ws recipe). */
type Run = (
  args: ExecutionArgs,
) => Promise<ExecutionResult | AsyncIterable<ExecutionResult>> | ExecutionResult;
type Enveloped = { execute: Run; subscribe: Run };

/** The demo API: GraphQL over HTTP and graphql-ws on /graphql, the built client (`distDir`) on /demo/. */
export function createDemoServer(distDir: string): Server {
  const yoga = createYoga({
    schema: createDemoSchema(),
    graphqlEndpoint: '/graphql',
    logging: false,
  });
  const server = createServer(async (req, res) => {
    if (req.url?.startsWith('/demo/')) {
      const name = req.url.slice('/demo/'.length).split('?')[0] ?? '';
      if (!/^[\w./-]+\.js$/.test(name) || name.includes('..')) return void res.writeHead(404).end();
      try {
        const body = await readFile(join(distDir, name));
        res.writeHead(200, {
          'content-type': 'text/javascript; charset=utf-8',
          'access-control-allow-origin': '*',
        });
        return void res.end(body);
      } catch {
        return void res.writeHead(404).end('Not built: run npm run build');
      }
    }
    return yoga(req, res);
  });

  const sockets = new WebSocketServer({ server, path: yoga.graphqlEndpoint });
  useServer<Record<string, unknown>>(
    {
      execute: (args) => (args.rootValue as Enveloped).execute(args),
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
      onSubscribe: async (ctx, _id, params) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
        });
        const args = {
          schema,
          operationName: params.operationName,
          document: parse(params.query),
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        return errors.length ? errors : args;
      },
    },
    sockets,
  );
  // Upgraded sockets are no longer the HTTP server's, and ws 8's close() leaves them open:
  // end them with the server, so a stopped server really drops its live connections.
  const closeHttp = server.close.bind(server);
  server.close = (callback) => {
    for (const client of sockets.clients) client.terminate();
    sockets.close();
    return closeHttp(callback);
  };
  return server;
}

/** The host page, on its own port so the API is cross-origin to it, as on a real site. */
export function createHostPageServer(apiOrigin: string, page: string): Server {
  return createServer(async (req, res) => {
    if (req.url !== '/' && !req.url?.startsWith('/?')) return void res.writeHead(404).end();
    const html = (await readFile(page, 'utf8')).replaceAll('%API_ORIGIN%', apiOrigin);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
}
