import { builtClientRoutes } from '../clientBuilds';
import { createParleyServer } from '../createParleyServer';
import type { ParleyServer } from '../createParleyServer';
import { getOrganization } from '../db/store/organization';
import { SHUTDOWN_DEADLINE_MS } from '../defaults';
import type { Config } from '../runtime/loadConfig';

/** A running server, as `parley start` and `npm start` run it. */
export interface StartedServer {
  parley: ParleyServer;
  /** The port it listens on. */
  port: number;
  /** What to print: where it listens, and the install page while nothing is installed. */
  banner: string;
}

/**
 * Starts Parley with the built clients (the widget, the console) beside the API, on the database
 * the configuration names (migrated first unless `PARLEY_MIGRATE=false`).
 */
export async function startServer(config: Config): Promise<StartedServer> {
  const parley = await createParleyServer({ config, staticRoutes: builtClientRoutes() });
  // A port in use: close what was opened (database, Redis) so the process can end.
  const port = await parley.listen().catch(async (error: unknown) => {
    await parley.close().catch(() => undefined);
    throw error;
  });
  const { publicUrl } = config;
  const installed = (await getOrganization(parley.deps.db)) !== undefined;
  const banner =
    `Parley is running (${parley.dialect === 'postgres' ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}).\n` +
    `  GraphQL (HTTP and WebSocket): ${publicUrl}/graphql   (port ${port})\n` +
    `  Console:                      ${publicUrl}/admin\n` +
    `  Health and metrics:           ${publicUrl}/healthz  ${publicUrl}/readyz  ${publicUrl}/metrics` +
    (installed ? '' : `\nNot installed yet: open ${publicUrl}/install.`);
  return { parley, port, banner };
}

/**
 * Calls `stop` on the first SIGINT or SIGTERM (a second one while stopping is ignored, so nothing
 * closes twice) and resolves when it is done. Past `deadlineMs` the process exits with code 1,
 * saying so: a stuck connection or a leaked handle must not keep a stopped server alive.
 */
export function untilSignalled(
  stop: () => Promise<void>,
  deadlineMs: number = SHUTDOWN_DEADLINE_MS,
): Promise<void> {
  return new Promise((done) => {
    let stopping: Promise<void> | undefined;
    const onSignal = () => {
      if (stopping) return;
      // unref: it ends nothing that would have ended by itself.
      setTimeout(() => {
        console.error(`Parley did not stop within ${deadlineMs / 1000} s: exiting anyway.`);
        process.exit(1);
      }, deadlineMs).unref();
      stopping = stop().then(done);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
