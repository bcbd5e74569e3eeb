import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

/** A message the inbox received: its recipients and its text body, decoded. */
export interface ReceivedMail {
  /** Envelope recipients. */
  to: string[];
  /** The subject, decoded. */
  subject: string;
  /** The plain-text part, decoded (a multipart message's text/plain). */
  text: string;
  /** The HTML part, decoded; empty when there is none. */
  html: string;
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

/** A raw message as the inbox keeps it: MIME (multipart, transfer encodings) undone by postal-mime. */
async function parse(to: string[], raw: string): Promise<ReceivedMail> {
  const email = await PostalMime.parse(raw);
  return {
    to,
    subject: email.subject ?? '',
    text: (email.text ?? '').replace(/\r\n/g, '\n'),
    html: email.html ?? '',
  };
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
        parse(
          session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
        ).then(
          (mail) => {
            messages.push(mail);
            callback();
          },
          (error: Error) => callback(error),
        );
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
