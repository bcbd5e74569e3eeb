import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { Logger } from 'pino';

/** Folder inside the data dir where messages go when no SMTP server is configured. */
export const OUTBOX_DIR = 'outbox';

/** Links worth printing for a newcomer: the confirm/reset/download URLs in a message. */
const LINK_PATTERN = /https?:\/\/[^\s<>"')\]]+/g;

/** One transactional message. */
export interface MailMessage {
  /** Recipient address. */
  to: string;
  /** Subject line. */
  subject: string;
  /** Plain-text body (always sent: some readers show nothing else). */
  text: string;
  /** HTML body. @default undefined */
  html?: string;
}

/** Where a message went. */
export type MailDelivery =
  | { via: 'smtp'; messageId: string }
  | { via: 'outbox'; messageId: string; file: string; links: string[] };

/** What {@link createMailer} returns. */
export interface Mailer {
  /** Sends (or, without SMTP, files and logs) one message. */
  send(message: MailMessage): Promise<MailDelivery>;
  /** Ends pooled SMTP connections; a no-op for the outbox. */
  close(): void;
}

/** Options of {@link createMailer}. */
export interface CreateMailerOptions {
  /** `smtp://user:pass@host:587` or `smtps://…`; unset writes to the outbox. @default undefined */
  smtpUrl?: string;
  /** The data folder; the outbox is `<dataDir>/outbox`. */
  dataDir: string;
  /** Sender, e.g. `Parley <no-reply@example.com>`. */
  from: string;
  /** Outbox messages are announced here (subject and links) at info level. */
  logger: Pick<Logger, 'info'>;
}

/** A message as filed in the outbox: the envelope and both bodies, as JSON. */
export interface OutboxMessage extends MailMessage {
  /** Unique id, also the file name's suffix. */
  messageId: string;
  /** Sender. */
  from: string;
  /** ISO time of sending. */
  date: string;
  /** http(s) links found in the text body, for a quick look. */
  links: string[];
}

/**
 * Creates the mailer: nodemailer over SMTP when `smtpUrl` is set; otherwise each message is
 * written as JSON into `<dataDir>/outbox/` and its subject and links are logged, so someone
 * trying Parley without a mail server can still confirm an address or reset a password.
 * The outbox is for development: its links carry live tokens, as the real emails would.
 */
export function createMailer({ smtpUrl, dataDir, from, logger }: CreateMailerOptions): Mailer {
  if (smtpUrl !== undefined) {
    const transport = createTransport(smtpUrl);
    return {
      async send({ to, subject, text, html }) {
        const info = await transport.sendMail({ from, to, subject, text, html });
        return { via: 'smtp', messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }

  const outbox = join(dataDir, OUTBOX_DIR);
  return {
    async send(message) {
      const date = new Date();
      const messageId = randomUUID();
      const links = [...new Set(message.text.match(LINK_PATTERN) ?? [])];
      const filed: OutboxMessage = {
        messageId,
        from,
        date: date.toISOString(),
        ...message,
        links,
      };
      await mkdir(outbox, { recursive: true });
      // Time first so `ls` lists messages in order; the id keeps same-millisecond files apart.
      const file = join(outbox, `${date.toISOString().replace(/[:.]/g, '-')}-${messageId}.json`);
      await writeFile(file, `${JSON.stringify(filed, null, 2)}\n`, { flag: 'wx' });
      logger.info(
        { to: message.to, subject: message.subject, links, file },
        `Email not sent (no SMTP_URL), filed in the outbox: ${message.subject}`,
      );
      return { via: 'outbox', messageId, file, links };
    },
    close: () => {},
  };
}
