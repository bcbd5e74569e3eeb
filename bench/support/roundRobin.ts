// The "one port" in front of several Parley processes for `bench:scale` section 4: each HTTP
// request and each WebSocket upgrade goes to the next process in turn, as a load balancer with
// no session affinity sends them, telling each where the client is (`X-Forwarded-For`, as the
// servers' TRUST_PROXY=1 expects; a request that says so already keeps what it says: the bench's
// writers each speak for an address of their own). Bench support only: no error pages, no
// timeouts of its own.
import { createServer, request } from 'node:http';
import type { Server } from 'node:http';
import { connect } from 'node:net';

/** Listens on 127.0.0.1 (a free port) and forwards to `ports` in turn; resolves its URL. */
export async function startRoundRobin(
  ports: number[],
): Promise<{ url: string; close(): Promise<void> }> {
  let next = 0;
  const pick = () => ports[next++ % ports.length]!;
  const server: Server = createServer((req, res) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port: pick(),
        method: req.method,
        path: req.url,
        headers: { 'x-forwarded-for': req.socket.remoteAddress, ...req.headers },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('upgrade', (req, socket, head) => {
    const upstream = connect(pick(), '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      if (req.headers['x-forwarded-for'] === undefined) {
        lines.push(`X-Forwarded-For: ${req.socket.remoteAddress}`);
      }
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    const end = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.on('error', end);
    socket.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
