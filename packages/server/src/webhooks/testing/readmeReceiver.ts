/**
 * A webhook receiver for tests built from the README's verification sample and nothing else: the
 * code between `<!-- webhook-verify:start -->` and `<!-- webhook-verify:end -->` runs, as written,
 * in a Node process of its own, with a small HTTP server around it. Each request it gets is
 * reported with what the sample said of it, of the same request with its body changed, and of it
 * replayed six minutes later. It answers 401 to what the sample refuses, else the status it is
 * told to answer. Test-only.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The README's verification sample, as written there. */
export function readmeVerificationSample(): string {
  const readme = readFileSync(join(__dirname, '..', '..', '..', '..', '..', 'README.md'), 'utf8');
  const sample =
    /<!-- webhook-verify:start -->\s*```js\n([\s\S]*?)```\s*<!-- webhook-verify:end -->/.exec(
      readme,
    )?.[1];
  if (sample === undefined) throw new Error('The README has no webhook verification sample');
  return sample;
}

/** Around the sample: a server on 127.0.0.1 told what to do through stdin, reporting on stdout. */
const SERVER = String.raw`
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
const state = { secret: '', status: 204, body: '', redirect: '', hang: false };
createInterface({ input: process.stdin }).on('line', (line) => {
  Object.assign(state, JSON.parse(line));
  process.stdout.write(JSON.stringify({ ack: true }) + '\n');
});
process.stdin.on('end', () => process.exit(0));
const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const verified = verifyParleyWebhook(state.secret, request.headers, body);
    const tampered = verifyParleyWebhook(state.secret, request.headers, body.replace('}', ' }'));
    const replayed = verifyParleyWebhook(state.secret, request.headers, body, Date.now() + 6 * 60_000);
    process.stdout.write(
      JSON.stringify({ request: { verified, tampered, replayed, headers: request.headers, body, path: request.url } }) + '\n',
    );
    if (state.hang) return;
    if (state.redirect && request.url === '/') {
      response.writeHead(307, { location: state.redirect });
      return response.end();
    }
    response.writeHead(verified ? state.status : 401, { 'content-type': 'text/plain' });
    response.end(verified ? state.body : 'bad signature');
  });
});
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n'),
);
`;

/** A request the receiver got. */
export interface ReceivedWebhook {
  /** What the README's sample said of it. */
  verified: boolean;
  /** What it said of the same headers with the body changed. */
  tampered: boolean;
  /** What it said of it six minutes later. */
  replayed: boolean;
  headers: Record<string, string>;
  body: string;
  path: string;
}

/** What the receiver does; each field given is kept until changed. */
export interface ReceiverBehaviour {
  /** The secret the sample verifies with. */
  secret?: string;
  /** The status of a verified request's answer. @default 204 */
  status?: number;
  /** The answer's body. */
  body?: string;
  /** Redirects requests to `/` there (307). */
  redirect?: string;
  /** Never answers. */
  hang?: boolean;
}

/** The running receiver. */
export interface ReadmeReceiver {
  url: string;
  received: ReceivedWebhook[];
  set(behaviour: ReceiverBehaviour): Promise<void>;
  /** Resolves once `count` requests have come (fails after 5 s). */
  waitFor(count: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** Starts a receiver process; resolves once it listens. */
export async function startReadmeReceiver(): Promise<ReadmeReceiver> {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', `${readmeVerificationSample()}\n${SERVER}`],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const received: ReceivedWebhook[] = [];
  const waiting: (() => void)[] = [];
  let acked: (() => void) | undefined;
  let listening: (port: number) => void = () => undefined;
  const port = new Promise<number>((resolve, reject) => {
    listening = resolve;
    child.once('exit', (code) => reject(new Error(`The receiver exited (${code})`)));
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as {
      port?: number;
      ack?: boolean;
      request?: ReceivedWebhook;
    };
    if (message.port !== undefined) listening(message.port);
    if (message.ack) acked?.();
    if (message.request) {
      received.push(message.request);
      for (const wake of waiting.splice(0)) wake();
    }
  });
  const url = `http://127.0.0.1:${await port}/`;
  return {
    url,
    received,
    async set(behaviour) {
      const done = new Promise<void>((resolve) => (acked = resolve));
      child.stdin!.write(`${JSON.stringify(behaviour)}\n`);
      await done;
    },
    async waitFor(count) {
      const deadline = Date.now() + 5_000;
      while (received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`The receiver got ${received.length} requests, not ${count}`);
        }
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 100).unref();
        });
      }
      return received;
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      child.kill();
      await exited;
    },
  };
}
