import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createDemoServer, createHostPageServer } from '../../../examples/transport-demo/server';

const DEMO = join(__dirname, '../../../examples/transport-demo');

/** A running demo API on 127.0.0.1, restartable on the same port. */
export interface RunningDemo {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Stops the API (dropping every socket) and starts a fresh one on the same port. */
  restart(): Promise<void>;
  /** Stops it for good. */
  close(): Promise<void>;
  /** Lets `origin` (a host page) call the API. */
  allow(origin: string): void;
}

/** Starts the demo API on a free port. */
export async function startDemoApi(): Promise<RunningDemo> {
  const origins: string[] = [];
  const make = () =>
    createDemoServer({ distDir: join(DEMO, 'dist'), allowedOrigins: () => origins });
  let server = make();
  const port = await server.listen(0, '127.0.0.1');
  return {
    origin: `http://127.0.0.1:${port}`,
    allow: (origin) => void origins.push(origin),
    async restart() {
      await server.close();
      server = make();
      await server.listen(port, '127.0.0.1');
    },
    close: () => server.close(),
  };
}

/** Starts the example host page for `api` on a free port, allowed to call it. */
export async function startHostPage(api: RunningDemo) {
  const server = createHostPageServer(api.origin, join(DEMO, 'index.html'));
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
  api.allow(`http://127.0.0.1:${port}`);
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
