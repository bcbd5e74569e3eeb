/**
 * Runs one test server as its own process, for the two-process Redis test:
 * `node -r esbuild-register -e "require('…/runTestServer.ts')" -- <redisUrl> <prefix>`. Prints `PORT <n>` once it
 * listens; closes cleanly when its standard input ends (the parent exited or closed it).
 */
import { startTestServer } from './startTestServer';

async function main(): Promise<void> {
  // With `-e`, argv is [node, ...args after `--`].
  const [redisUrl, prefix] = process.argv.slice(1).filter((arg) => arg !== '--');
  const server = await startTestServer({ pubsub: { redisUrl, prefix } });
  await server.pubsub.ready();
  process.stdout.write(`PORT ${new URL(server.origin).port}\n`);
  process.stdin.resume();
  process.stdin.once('end', () => {
    void server.close().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
