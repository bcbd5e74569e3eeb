import type { AddressInfo } from 'node:net';
import { decode as decodeQuotedPrintable } from 'libqp';
import { SMTPServer } from 'smtp-server';

/** A message the inbox received: its recipients and its text body, decoded. */
export interface ReceivedMail {
  /** Envelope recipients. */
  to: string[];
  /** The Subject header as sent (encoded words, if any, are left as they are). */
  subject: string;
  /** The text body, its transfer encoding (quoted-printable, base64) undone. */
  text: string;
}

/** An SMTP server on 127.0.0.1 that keeps what it is sent: the mailboxes of a journey. */
export interface SmtpInbox {
  /** `smtp://127.0.0.1:<port>`, for Parley's SMTP_URL. */
  url: string;
  /** Everything received so far, oldest first. */
  messages: ReceivedMail[];
  /** The first message (received or to come within `timeoutMs`) that `match` accepts. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Stops the server. */
  close(): Promise<void>;
}

/** Splits a raw message into its (unfolded) headers and its body, and decodes the body. */
function parse(to: string[], raw: string): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) =>
    new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body).toString('utf8')
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { to, subject: header('Subject'), text: text.replace(/\r\n/g, '\n') };
}

/** Starts an {@link SmtpInbox} on a free port of 127.0.0.1. */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // Loopback only: plain SMTP, no certificate to trust.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        messages.push(
          parse(
            session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw,
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(match, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(match);
        if (found) return found;
        if (Date.now() > deadline) {
          throw new Error(
            `No matching email within ${timeoutMs} ms; received: ${JSON.stringify(messages, null, 2)}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
