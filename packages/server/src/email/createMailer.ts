import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';

/** Folder inside the data dir where messages go when no SMTP server is configured. */
export const OUTBOX_DIR = 'outbox';

/** The outbox folder's mode: owner only. */
const OUTBOX_DIR_MODE = 0o700;
/** An outbox message's mode: owner read/write only. */
const OUTBOX_FILE_MODE = 0o600;

/**
 * How long an SMTP attempt may wait (ms): to connect, for the greeting, on an idle socket. Their
 * sum stays well under the mail queue's claim (createMailQueue.ts `claimMs`), so an attempt ends
 * before another process may take the same email. nodemailer's own are 2 and 10 minutes.
 */
export const SMTP_TIMEOUTS = Object.freeze({
  connectionTimeout: 30_000,
  greetingTimeout: 30_000,
  socketTimeout: 60_000,
});

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

/** Where a message went (`queued`: not yet, the mail queue tries again at `retryAt`). */
export type MailDelivery =
  | { via: 'smtp'; messageId: string }
  | { via: 'outbox'; messageId: string; file: string; links: string[] }
  | { via: 'queued'; messageId: string; retryAt: string };

/** What {@link createMailer} returns. */
export interface Mailer {
  /**
   * Sends (or, without SMTP, files and logs) one message. Through the mail queue, a message the
   * server does not take is kept and retried, unless `retry` is false (the admin's test email:
   * its failure is the answer).
   */
  send(message: MailMessage, options?: { retry?: boolean }): Promise<MailDelivery>;
  /** Ends pooled SMTP connections; a no-op for the outbox. */
  close(): void;
  /**
   * At shutdown: waits up to `timeoutMs` for the messages being sent, then files those still
   * unsent in the outbox (to be sent by hand), so a restart loses none. Resolves how many it
   * filed.
   */
  drain(timeoutMs: number): Promise<number>;
  /** Whether `SMTP_URL` decides the transport, so stored SMTP settings are not used. */
  smtpFromEnvironment: boolean;
}

/** SMTP settings an admin stored (Configure › Email); an empty `host` means none. */
export interface SmtpSettings {
  /** Server host name; empty for none. */
  host: string;
  /** Server port. */
  port: number;
  /** TLS from the start (port 465); false lets nodemailer upgrade with STARTTLS. */
  secure: boolean;
  /** User name; empty sends without authentication. */
  user: string;
  /** Password (with `user`). */
  password: string;
  /** Sender address; empty for the mailer's default `from`. */
  from: string;
}

/** Options of {@link createMailer}. */
export interface CreateMailerOptions {
  /** `smtp://user:pass@host:587` or `smtps://…`; unset writes to the outbox. @default undefined */
  smtpUrl?: string;
  /**
   * Reads the stored SMTP settings; called before every send, so a change applies without a
   * restart. Ignored when `smtpUrl` is set (the environment wins). @default no stored settings
   */
  loadSmtpSettings?: () => Promise<SmtpSettings | undefined>;
  /** The data folder; the outbox is `<dataDir>/outbox`. */
  dataDir: string;
  /** Sender, e.g. `Parley <no-reply@example.com>`. */
  from: string;
  /**
   * Outbox messages are announced here at info level (subject, and links unless `production`);
   * at creation, where mail goes when no `smtpUrl` is set.
   */
  logger: Pick<Logger, 'info' | 'warn'>;
  /**
   * `NODE_ENV=production`: the log never carries a message's links. Reset, confirmation and
   * sign-in links are as good as a password, and logs are shipped and kept far more widely than
   * the data folder. @default false
   */
  production?: boolean;
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

/** A transport and the sender to use with it. */
interface ResolvedTransport {
  transport: Transporter;
  from: string;
}

/**
 * Creates the mailer. Each send picks its transport: nodemailer over `smtpUrl` when set (the
 * environment wins), else over the stored SMTP settings when they name a host, else the outbox:
 * each message is written as JSON into `<dataDir>/outbox/` and its subject and links are logged,
 * so someone trying Parley without a mail server can still confirm an address or reset a password.
 * The outbox is for development: its links carry live tokens, as the real emails would.
 */
export function createMailer({
  smtpUrl,
  loadSmtpSettings = async () => undefined,
  dataDir,
  from,
  logger,
  production = false,
}: CreateMailerOptions): Mailer {
  const environment: ResolvedTransport | undefined =
    smtpUrl === undefined
      ? undefined
      : { transport: createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS }), from };
  // One transport per distinct settings: rebuilt when an admin saves new ones, reused otherwise.
  let cached: { key: string; resolved: ResolvedTransport } | undefined;

  async function resolveTransport(): Promise<ResolvedTransport | undefined> {
    if (environment !== undefined) return environment;
    const settings = await loadSmtpSettings();
    if (settings === undefined || settings.host === '') {
      cached?.resolved.transport.close();
      cached = undefined;
      return undefined;
    }
    const key = JSON.stringify(settings);
    if (cached?.key !== key) {
      cached?.resolved.transport.close();
      const transport = createTransport({
        host: settings.host,
        port: settings.port,
        secure: settings.secure,
        requireTLS: mustUpgradeToTls(settings),
        auth: settings.user === '' ? undefined : { user: settings.user, pass: settings.password },
        ...SMTP_TIMEOUTS,
      });
      cached = { key, resolved: { transport, from: settings.from === '' ? from : settings.from } };
    }
    return cached.resolved;
  }

  const outbox = join(dataDir, OUTBOX_DIR);
  const writing = join(dataDir, `${OUTBOX_DIR}.writing`);
  if (environment === undefined) {
    // Said once at start, so nobody mistakes the outbox for delivery in production.
    (production ? logger.warn : logger.info).call(
      logger,
      { outbox },
      `Email: SMTP_URL is not set. Messages go through the SMTP server saved in Configure › ` +
        `Email, else they are filed in ${outbox} — for development only: nobody receives them, ` +
        'and they hold live sign-in and password-reset links.',
    );
  }
  /** Writes `message` into the outbox; the file's path and the links it holds. */
  async function file(
    message: MailMessage,
  ): Promise<{ messageId: string; file: string; links: string[] }> {
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
    // Owner-only whatever the umask: these files hold live password-reset links.
    await mkdir(outbox, { recursive: true, mode: OUTBOX_DIR_MODE });
    await mkdir(writing, { recursive: true, mode: OUTBOX_DIR_MODE });
    // Time first so `ls` lists messages in order; the id keeps same-millisecond files apart.
    const name = `${date.toISOString().replace(/[:.]/g, '-')}-${messageId}.json`;
    const path = join(outbox, name);
    // Written beside the outbox, then moved in whole: whoever reads the outbox (a developer's
    // script, a test waiting for a link) never finds half a message.
    const draft = join(writing, name);
    await writeFile(draft, `${JSON.stringify(filed, null, 2)}\n`, {
      flag: 'wx',
      mode: OUTBOX_FILE_MODE,
    });
    await rename(draft, path);
    return { messageId, file: path, links };
  }

  // Messages being sent, for drain().
  const sending = new Map<Promise<unknown>, MailMessage>();

  return {
    smtpFromEnvironment: environment !== undefined,
    send(message) {
      const sent = deliver(message);
      const settled = sent.then(
        () => undefined,
        () => undefined,
      );
      sending.set(settled, message);
      void settled.then(() => sending.delete(settled));
      return sent;
    },
    async drain(timeoutMs) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all(sending.keys()),
        new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
      ]);
      clearTimeout(timer);
      const unsent = [...sending.values()];
      sending.clear();
      for (const message of unsent) {
        const { file: path } = await file(message);
        logger.warn(
          { to: message.to, subject: message.subject, file: path },
          `Email still unsent at shutdown, filed in the outbox to send by hand: ${message.subject}`,
        );
      }
      return unsent.length;
    },
    close: () => {
      environment?.transport.close();
      cached?.resolved.transport.close();
      cached = undefined;
    },
  };

  async function deliver(message: MailMessage): Promise<MailDelivery> {
    const resolved = await resolveTransport();
    if (resolved !== undefined) {
      const { to, subject, text, html } = message;
      const info = await resolved.transport.sendMail({
        from: resolved.from,
        to,
        subject,
        text,
        html,
      });
      return { via: 'smtp', messageId: info.messageId };
    }
    const filed = await file(message);
    logger.info(
      {
        to: message.to,
        subject: message.subject,
        file: filed.file,
        ...(production ? {} : { links: filed.links }),
      },
      `Email not sent (no SMTP server configured), filed in the outbox: ${message.subject}`,
    );
    return { via: 'outbox', ...filed };
  }
}

/** Hosts whose traffic never leaves the machine. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * Whether a login must wait for STARTTLS: without implicit TLS, a man in the middle could strip
 * the server's STARTTLS offer and read the password. A relay on this machine (loopback) is the
 * one place a login may go in clear.
 */
export function mustUpgradeToTls(settings: {
  secure: boolean;
  user: string;
  host: string;
}): boolean {
  return !settings.secure && settings.user !== '' && !LOOPBACK.has(settings.host.toLowerCase());
}
