import type { Server } from 'node:http';
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
}

/** Starts the demo API on a free port. */
export async function startDemoApi(): Promise<RunningDemo> {
  let server = createDemoServer(join(DEMO, 'dist'));
  const port = await listen(server, 0);
  const stop = () => closeServer(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    async restart() {
      await stop();
      server = createDemoServer(join(DEMO, 'dist'));
      await listen(server, port);
    },
    close: stop,
  };
}

/** Starts the example host page for `apiOrigin` on a free port; returns its URL and closer. */
export async function startHostPage(apiOrigin: string) {
  const server = createHostPageServer(apiOrigin, join(DEMO, 'index.html'));
  const port = await listen(server, 0);
  return { url: `http://127.0.0.1:${port}/`, close: () => closeServer(server) };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
