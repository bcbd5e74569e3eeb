// The `parley` command (the server package's `bin`; compiled to packages/server/dist/parley.js by
// `npm run build`). See runParley.ts for the commands.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runParley } from './runParley';

/** The server package's version, from the nearest package.json above this file (src or dist). */
function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const found = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (found.name === '@parley/server') return found.version ?? 'unknown';
    } catch {
      // no package.json here: look further up
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

// A reader that stops early (`parley export … | head`): the rest has nowhere to go, which is
// not a failure of the command.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const code = await runParley(process.argv.slice(2), {
  env: process.env,
  out: (text) => console.log(text),
  write: (text) =>
    new Promise<void>((resolve) => {
      if (process.stdout.write(text)) resolve();
      else process.stdout.once('drain', resolve);
    }),
  err: (text) => console.error(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  // Read only for --version: every other command, `start` first, skips the folder walk.
  version: packageVersion,
  async start(config) {
    // Loaded only to start: the other commands (an import of 100,000 comments) run without the
    // server's packages in memory (GraphQL Yoga, sharp, Redis, mail: ~40 MB).
    const { startServer, untilSignalled } = await import('./startServer');
    const { parley, banner } = await startServer(config);
    console.log(banner);
    await untilSignalled(() => parley.close());
    return 0;
  },
});
process.exitCode = code;
// A command that failed half-way may leave a socket open (a database pool, Redis): its exit code
// still ends the process, once the output is written.
if (code !== 0) setTimeout(() => process.exit(code), 100).unref();
