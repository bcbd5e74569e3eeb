import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A port free right now on 127.0.0.1: for a server whose address must be known before it starts
 * (a Parley whose public URL names it, a Redis a test starts and stops itself).
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
