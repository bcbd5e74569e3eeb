// The `parley` command: what an operator runs besides the server itself. Every command reads the
// same environment as the server (loadConfig); arguments are parsed by node:util's parseArgs.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, realpathSync } from 'node:fs';
import { chmod, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { ACCOUNT_PATHS } from '@parley/contract';
import { hashPassword } from '../auth/passwords';
import { loadServerSecrets } from '../auth/secrets';
import { SQLITE_FILE_NAME, createDatabase, isPostgresUrl } from '../db/createDatabase';
import { migrateToLatest, pendingMigrations } from '../db/migrations';
import { withdrawTokens } from '../db/store/accountQueries';
import { alreadyInstalled, getOrganization, install } from '../db/store/organization';
import { duration, tokenLink } from '../graphql/resolvers/account/accountEmails';
import {
  forgetUnreadableSecrets,
  sealStoredSecrets,
  surveyStoredSecrets,
} from '../db/store/storedSecrets';
import { findUserByEmail, updateUser } from '../db/store/users';
import { endEverySession } from '../db/store/sessions';
import { disableTwoFactor } from '../db/store/twoFactor';
import { REDACTED, recordAudit } from '../db/store/auditLog';
import type { AuditAction, AuditChange } from '../db/store/auditLog';
import { inTransaction } from '../db/inTransaction';
import type { Db } from '../db/inTransaction';
import { RESET_PASSWORD_TOKEN_TTL_SECONDS } from '../defaults';
import { ParleyError } from '../ParleyError';
import { ConfigError, loadConfig } from '../runtime/loadConfig';
import type { Config, Env } from '../runtime/loadConfig';
import { prepareInstall } from '../validation/prepareInstall';
import { exportSite } from '../portability/exportSite';
import { IMPORT_FORMAT_NAMES, formatReport, importFile } from '../portability/importFile';
import { partialReport } from '../portability/importShared';
import { validatePassword } from '../validation/validateAccount';

/** What a command reads and writes: the process's, or a test's. */
export interface CliIo {
  env: Env;
  /** Standard output (results) and error (messages), one call per line or block. */
  out(text: string): void;
  err(text: string): void;
  /**
   * Writes `text` to standard output as is, resolving once the output took it (back-pressure):
   * for a large output (`export`). Without it, `out` writes each piece as a line.
   */
  write?(text: string): Promise<void>;
  /** The whole of standard input, for a password piped in. */
  readStdin(): Promise<string>;
  /** The package's version (`parley --version`). */
  version(): string;
  /**
   * Runs the server until it is stopped (`parley start`); resolves its exit code. The command
   * line's entry passes the real one; tests of the other commands need none.
   */
  start?(config: Config): Promise<number>;
}

/** better-sqlite3's `progress` answer that copies every remaining page in the next step. */
const ALL_PAGES = 0x7fffffff;

/** Records in the audit log what the command did to `user` (the actor is `parley`). */
function auditCommand(
  db: Db,
  user: { id: string; username: string },
  action: AuditAction,
  changes: AuditChange[],
): Promise<void> {
  const target = { type: 'user', id: user.id, label: user.username };
  return recordAudit(db, { actor: null, action, target, changes }, new Date());
}

/** Exit code of a command used wrongly (unknown command or option, missing argument). */
export const USAGE_ERROR = 2;
/** Exit code of a command that could not do what it was asked (the message says why). */
export const FAILURE = 1;

const HELP = `Usage: parley <command> [options]

Commands:
  start                 Run the server (pending migrations are applied first unless
                        PARLEY_MIGRATE=false); prints where it listens.
  migrate [--dry-run]   Apply pending database migrations and list them (--dry-run: only list).
  install               Install without the browser wizard (refused on an installed database):
                          --org-name NAME --site-url URL --admin-email EMAIL
                          [--admin-username NAME] [--site-name NAME] [--admin-password-stdin]
                        Without --admin-password-stdin a password is generated and printed once.
                        Run it before parley start (a running server keeps answering "not
                        installed" from its read cache for up to 5 minutes).
  reset-password EMAIL  Print a one-time link to choose a new password (valid 1 hour), or with
                        --password-stdin set the password read from standard input.
  reset-two-factor EMAIL
                        Turn off the two-factor sign-in of an account whose app and recovery
                        codes are both lost (its sessions are ended; it enrols again).
  backup FILE           Copy the SQLite database to FILE while the server runs (on PostgreSQL,
                        use pg_dump).
  seal-secrets          Seal the stored secrets (SSO keys, the SMTP password) that are in clear
                        or under PARLEY_SECRET_PREVIOUS, under PARLEY_SECRET: on PostgreSQL, once
                        every instance runs this version with this PARLEY_SECRET (on SQLite the
                        server does it as it starts).
  forget-secrets [--yes] [--force]
                        After PARLEY_SECRET was lost: list the stored secrets no key opens; with
                        --yes revoke those SSO keys and clear that SMTP password (rotate the
                        sites' keys and enter the password again in the console afterwards).
                        Refused when nothing opens at all (the wrong secret?) unless --force.
  export --site SITE_ID Write one site's stories, comments, the users they name, votes and
                        moderation decisions to standard output as Parley's export JSON
                        (packages/server/EXPORT.md), streamed: parley export --site ID > site.json
  import FORMAT FILE --site SITE_ID [--dry-run] [--rewrite-origin OLD=NEW …] [--keep-identities]
                        Import the comments of another system into a site: FORMAT is disqus
                        (its XML export), wordpress (WXR), remark42 (its backup) or parley
                        (parley export's JSON, ids kept); FILE may be gzipped. Threads become stories (their URLs must be on the site's
                        permitted origins; --rewrite-origin https://old.example=https://new.example
                        moves a site that changed address), authors become accounts matched by
                        email. Running it again imports only what is new; a run that stopped
                        resumes. --dry-run writes nothing and prints the same report.
                        --keep-identities (parley only: your own export) keeps the users'
                        roles and SSO ids; without it everyone comes in as a commenter. A running
                        server shows imported comments once its read cache expires (5 minutes).

Options:
  --help, -h            This text (also after a command: parley install --help).
  --version, -v         The version.

Configuration comes from the environment, as for the server: PARLEY_DATA_DIR, DATABASE_URL,
PUBLIC_URL, … (see the README).`;

/** Options each command takes, for parseArgs (strict: anything else is a usage error). */
const COMMANDS = {
  start: { options: {}, positionals: 0 },
  migrate: { options: { 'dry-run': { type: 'boolean' } }, positionals: 0 },
  install: {
    options: {
      'org-name': { type: 'string' },
      'site-url': { type: 'string' },
      'site-name': { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-username': { type: 'string' },
      'admin-password-stdin': { type: 'boolean' },
    },
    positionals: 0,
  },
  'reset-password': { options: { 'password-stdin': { type: 'boolean' } }, positionals: 1 },
  'reset-two-factor': { options: {}, positionals: 1 },
  backup: { options: {}, positionals: 1 },
  'seal-secrets': { options: {}, positionals: 0 },
  'forget-secrets': {
    options: { yes: { type: 'boolean' }, force: { type: 'boolean' } },
    positionals: 0,
  },
  export: { options: { site: { type: 'string' } }, positionals: 0 },
  import: {
    options: {
      site: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'rewrite-origin': { type: 'string', multiple: true },
      'keep-identities': { type: 'boolean' },
    },
    positionals: 2,
  },
} satisfies Record<string, { options: ParseArgsConfig['options']; positionals: number }>;

type Command = keyof typeof COMMANDS;

/** A wrong command line: one line on standard error, exit code 2. */
class UsageError extends Error {}

/** Runs `parley` with `argv` (without `node` and the script); resolves the exit code. */
export async function runParley(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.err(HELP);
    return USAGE_ERROR;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.out(HELP);
    return 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(io.version());
    return 0;
  }
  try {
    if (!Object.hasOwn(COMMANDS, name)) {
      throw new UsageError(`unknown command "${name}" (parley --help lists them)`);
    }
    const command = name as Command;
    if (rest.includes('--help') || rest.includes('-h')) {
      io.out(HELP);
      return 0;
    }
    const { options, positionals: expected } = COMMANDS[command] as {
      options: ParseArgsConfig['options'];
      positionals: number;
    };
    let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
    try {
      const { values, positionals } = parseArgs({
        args: [...rest],
        options,
        allowPositionals: true,
        strict: true,
      });
      parsed = { values: values as Record<string, string | boolean | undefined>, positionals };
    } catch (error) {
      throw new UsageError(`${command}: ${(error as Error).message.split('\n')[0]}`);
    }
    if (parsed.positionals.length !== expected) {
      throw new UsageError(
        `${command}: expected ${expected} argument${expected === 1 ? '' : 's'}, got ${parsed.positionals.length}`,
      );
    }
    const config = loadConfig(io.env);
    return await COMMAND_RUNNERS[command](config, parsed.values, parsed.positionals, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`parley: ${error.message}`);
      return USAGE_ERROR;
    }
    if (error instanceof ConfigError) {
      io.err(`parley: configuration: ${error.message}`);
      return FAILURE;
    }
    if (error instanceof ParleyError) {
      const field = (error.extensions as { field?: string } | undefined)?.field;
      io.err(`parley: ${error.code}${field ? ` (${field})` : ''}: ${error.message}`);
      return FAILURE;
    }
    io.err(`parley: ${error instanceof Error ? error.message : String(error)}`);
    return FAILURE;
  }
}

type Runner = (
  config: Config,
  values: Record<string, string | boolean | undefined>,
  positionals: string[],
  io: CliIo,
) => Promise<number>;

/** Opens the database without migrating, runs `work`, closes it. */
async function withDatabase<T>(
  config: Config,
  work: (db: Awaited<ReturnType<typeof createDatabase>>['db']) => Promise<T>,
): Promise<T> {
  const database = await createDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    migrate: false,
  });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

/** Refuses to touch a database that still has migrations to apply (it would fail oddly). */
async function requireMigrated(db: Parameters<typeof pendingMigrations>[0]): Promise<void> {
  const pending = await pendingMigrations(db);
  if (pending.length > 0) {
    throw new Error(`the database has ${pending.length} pending migrations: run parley migrate`);
  }
}

const COMMAND_RUNNERS: Record<Command, Runner> = {
  async start(config, _values, _positionals, io) {
    if (!io.start) throw new Error('start: this entry cannot run the server');
    return io.start(config);
  },

  async migrate(config, values, _positionals, io) {
    return withDatabase(config, async (db) => {
      const pending = await pendingMigrations(db);
      if (values['dry-run']) {
        io.out(
          pending.length === 0
            ? 'No pending migrations.'
            : `${pending.length} pending:\n${pending.map((name) => `  ${name}`).join('\n')}`,
        );
        return 0;
      }
      const applied = await migrateToLatest(db);
      io.out(
        applied.length === 0
          ? 'No pending migrations: the database is up to date.'
          : `Applied ${applied.length}:\n${applied.map((name) => `  ${name}`).join('\n')}`,
      );
      return 0;
    });
  },

  async install(config, values, _positionals, io) {
    const missing = ['org-name', 'site-url', 'admin-email'].filter((name) => !values[name]);
    if (missing.length > 0) {
      throw new UsageError(`install: missing ${missing.map((name) => `--${name}`).join(', ')}`);
    }
    const siteUrl = String(values['site-url']);
    const adminEmail = String(values['admin-email']);
    const generated = !values['admin-password-stdin'];
    const password = generated
      ? randomBytes(18).toString('base64url')
      : firstLine(await io.readStdin());
    return withDatabase(config, async (db) => {
      await requireMigrated(db);
      if (await getOrganization(db)) throw alreadyInstalled();
      let siteName = values['site-name'] ? String(values['site-name']) : '';
      if (!siteName) siteName = hostOf(siteUrl) ?? siteUrl;
      const input = await asOptions(
        prepareInstall({
          organization: {
            name: String(values['org-name']),
            contactEmail: adminEmail,
            url: siteUrl,
          },
          site: { name: siteName, url: siteUrl, allowedOrigins: [] },
          admin: {
            email: adminEmail,
            username: values['admin-username'] ? String(values['admin-username']) : 'admin',
            password,
          },
        }),
      );
      const { box } = await loadServerSecrets(config);
      const { admin, site } = await install(db, input, box);
      io.out(
        `Installed: ${input.organization.name}, site ${site.url} (permits ${site.allowedOrigins.join(', ')}).\n` +
          `Admin: ${admin.username} <${admin.email}>` +
          (generated ? `, password (shown once): ${password}` : '') +
          `\nSign in at ${config.publicUrl}/admin`,
      );
      return 0;
    });
  },

  async 'seal-secrets'(config, _values, _positionals, io) {
    const { box, root } = await loadServerSecrets(config, { create: false });
    return withDatabase(config, async (db) => {
      await requireMigrated(db);
      const survey = await surveyStoredSecrets(db, box, {
        smtpFromEnvironment: config.smtpUrl !== undefined,
      });
      if (survey.unreadable.length > 0) {
        throw new Error(
          `${survey.unreadable.length} stored secret(s) open with no key of ${root}` +
            `${config.previousSecret ? ' or PARLEY_SECRET_PREVIOUS' : ''}: ` +
            `${survey.unreadable.map((u) => u.what).join('; ')}. Nothing was sealed.`,
        );
      }
      const sealed = await sealStoredSecrets(db, box, {
        smtpFromEnvironment: config.smtpUrl !== undefined,
      });
      io.out(
        sealed.pending === 0
          ? `Every stored secret is sealed under ${root} already.`
          : `Sealed ${sealed.pending} stored secret(s) under ${root}.`,
      );
      return 0;
    });
  },

  async 'forget-secrets'(config, values, _positionals, io) {
    const { box, root } = await loadServerSecrets(config, { create: false });
    return withDatabase(config, async (db) => {
      await requireMigrated(db);
      const survey = await surveyStoredSecrets(db, box);
      if (survey.unreadable.length === 0) {
        io.out(`Every stored secret opens with ${root}: nothing to forget.`);
        return 0;
      }
      // Nothing opens at all: far more likely the wrong secret than a lost one.
      if (survey.readable === 0 && !values['force']) {
        throw new Error(
          `no stored secret opens with ${root}: is this the server's PARLEY_SECRET? ` +
            'Nothing was changed (--force gives them all up anyway).',
        );
      }
      const list = survey.unreadable.map((u) => `  ${u.what}`).join('\n');
      if (!values['yes']) {
        io.out(
          `${survey.unreadable.length} stored secret(s) open with no key of ${root}:\n${list}\n` +
            'Run again with --yes to give them up: those SSO keys are revoked (rotate the ' +
            "sites' keys in the console), that SMTP password is cleared. Nothing was changed.",
        );
        return FAILURE;
      }
      const forgotten = await forgetUnreadableSecrets(db, box);
      io.out(
        `Forgot ${forgotten.length} stored secret(s):\n${forgotten.map((f) => `  ${f.what}`).join('\n')}`,
      );
      return 0;
    });
  },

  async 'reset-password'(config, values, [email = ''], io) {
    const password = values['password-stdin'] ? firstLine(await io.readStdin()) : undefined;
    if (password !== undefined) validatePassword(password, '--password-stdin');
    return withDatabase(config, async (db) => {
      await requireMigrated(db);
      const user = await findUserByEmail(db, email.trim());
      if (!user) throw new Error(`no account has the email address ${email}`);
      // As the reset link refuses them: an account a site signs in (SSO) has no password.
      if (user.passwordHash === null) {
        throw new Error(`${user.username} signs in through their site (SSO) and has no password`);
      }
      if (password === undefined) {
        const link = await inTransaction(db, async (trx) => {
          const made = await tokenLink(
            { db: trx, publicUrl: config.publicUrl },
            user,
            'RESET_PASSWORD',
            ACCOUNT_PATHS.resetPassword,
          );
          await auditCommand(trx, user, 'PASSWORD_RESET', [
            { field: 'resetLink', before: null, after: 'printed' },
          ]);
          return made;
        });
        io.out(
          `A link for ${user.username} to choose a new password (valid ${duration(RESET_PASSWORD_TOKEN_TTL_SECONDS)}, once):\n${link}`,
        );
        return 0;
      }
      // As a reset link does: the new password ends every other session, and older links die.
      const passwordHash = await hashPassword(password);
      await inTransaction(db, async (trx) => {
        await updateUser(trx, user.id, { passwordHash });
        await withdrawTokens(trx, user.id, 'RESET_PASSWORD', new Date().toISOString());
        await auditCommand(trx, user, 'PASSWORD_RESET', [
          { field: 'password', before: REDACTED, after: REDACTED },
        ]);
      });
      io.out(`The password of ${user.username} is changed; their other sessions are ended.`);
      return 0;
    });
  },

  async 'reset-two-factor'(config, _values, [email = ''], io) {
    return withDatabase(config, async (db) => {
      await requireMigrated(db);
      const user = await findUserByEmail(db, email.trim());
      if (!user) throw new Error(`no account has the email address ${email}`);
      if (!user.twoFactorEnabled) {
        throw new Error(`${user.username} does not use two-factor sign-in`);
      }
      // Whoever held a session of theirs signed in with the lost app: those end too.
      await inTransaction(db, async (trx) => {
        await disableTwoFactor(trx, user.id);
        await endEverySession(trx, user.id);
        await auditCommand(trx, user, 'TWO_FACTOR_RESET', [
          { field: 'twoFactorEnabled', before: true, after: false },
        ]);
      });
      io.out(
        `Two-factor sign-in of ${user.username} is off and their sessions are ended: they sign ` +
          'in with their password and set it up again (at once, if the organization requires it).',
      );
      return 0;
    });
  },

  async backup(config, _values, [file = ''], io) {
    if (isPostgresUrl(config.databaseUrl)) {
      throw new Error(
        'backup copies the embedded SQLite database; on PostgreSQL use pg_dump (see the README)',
      );
    }
    const source = join(config.dataDir, SQLITE_FILE_NAME);
    if (!existsSync(source)) throw new Error(`no database at ${source}`);
    const target = resolve(file);
    if (!existsSync(dirname(target))) throw new Error(`no folder ${dirname(target)}`);
    const live = realpathSync(source);
    const named = existsSync(target) ? realpathSync(target) : target;
    if ([live, `${live}-wal`, `${live}-shm`].includes(named)) {
      throw new Error(`${file} is the live database: back up to another file`);
    }
    // SQLite's online backup: a consistent copy while the server writes. Into a temporary file
    // renamed at the end, so a failed backup never leaves a half-written FILE behind.
    const partial = `${target}.partial-${randomBytes(4).toString('hex')}`;
    const sqlite = new SqliteDatabase(source, { readonly: true, fileMustExist: true });
    try {
      // All pages in one step: copied in small steps, a busy server's writes would restart it.
      const { totalPages } = await sqlite.backup(partial, { progress: () => ALL_PAGES });
      // Owner-only: the copy holds password hashes and tokens, as the data folder does.
      await chmod(partial, 0o600);
      await rename(partial, target);
      io.out(`Backed up ${source} to ${target} (${totalPages} pages).`);
      return 0;
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    } finally {
      sqlite.close();
    }
  },

  async export(config, values, _positionals, io) {
    const siteId = values['site'];
    if (typeof siteId !== 'string' || siteId === '') {
      throw new UsageError(
        'export: --site SITE_ID is required (Configure → Organization and sites shows the ids)',
      );
    }
    return withDatabase(config, async (db) => {
      await requireMigrated(db);
      // Each piece is whole JSON tokens: written a line each, the whole is one JSON document;
      // the next read waits for the output to take the piece (a slow pipe slows the export).
      await exportSite(db, siteId, (piece) => (io.write ? io.write(`${piece}\n`) : io.out(piece)));
      return 0;
    });
  },

  async import(config, values, [format = '', file = ''], io) {
    const siteId = values['site'];
    if (typeof siteId !== 'string' || siteId === '') {
      throw new UsageError(
        'import: --site SITE_ID is required (Configure → Organization and sites shows the ids)',
      );
    }
    if (!(IMPORT_FORMAT_NAMES as readonly string[]).includes(format)) {
      throw new UsageError(
        `import: unknown format "${format}" (one of ${IMPORT_FORMAT_NAMES.join(', ')})`,
      );
    }
    const rewriteOrigins = new Map<string, string>();
    for (const pair of (values['rewrite-origin'] as unknown as string[] | undefined) ?? []) {
      const [from = '', to = ''] = pair.split('=');
      const origins = [from, to].map((text) => {
        try {
          return new URL(text).origin;
        } catch {
          return undefined;
        }
      });
      if (origins[0] === undefined || origins[1] === undefined || pair.split('=').length !== 2) {
        throw new UsageError(
          `import: --rewrite-origin takes OLD=NEW origins (https://old.example=https://new.example), not "${pair}"`,
        );
      }
      rewriteOrigins.set(origins[0], origins[1]);
    }
    try {
      closeSync(openSync(file, 'r'));
    } catch (error) {
      throw new ParleyError('INVALID_INPUT', `Cannot read ${file}: ${(error as Error).message}`, {
        field: 'file',
      });
    }
    return withDatabase(config, async (db) => {
      await requireMigrated(db);
      try {
        const report = await importFile(db, format, file, {
          siteId,
          dryRun: values['dry-run'] === true,
          rewriteOrigins,
          keepIdentities: values['keep-identities'] === true,
          onProgress: ({ comments }) =>
            io.err(`… ${comments.imported + comments.already} comments so far`),
        });
        io.out(formatReport(report));
        return 0;
      } catch (error) {
        // What the batches before the failure did is written: say so, then why it stopped.
        const partial = partialReport(error);
        if (partial !== undefined) io.out(`Stopped. ${formatReport(partial)}`);
        throw error;
      }
    });
  },
};

/** The wizard's fields as `parley install` names them. */
const INSTALL_OPTIONS: Readonly<Record<string, string>> = {
  'organization.name': '--org-name',
  'organization.url': '--site-url',
  'organization.contactEmail': '--admin-email',
  'site.name': '--site-name',
  'site.url': '--site-url',
  'admin.email': '--admin-email',
  'admin.username': '--admin-username',
  'admin.password': '--admin-password-stdin',
};

/** `work`, its INVALID_INPUT naming the option rather than the wizard's field. */
async function asOptions<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const field = error instanceof ParleyError ? error.extensions['field'] : undefined;
    if (typeof field === 'string' && INSTALL_OPTIONS[field]) {
      throw new ParleyError((error as ParleyError).code, (error as ParleyError).message, {
        field: INSTALL_OPTIONS[field],
      });
    }
    throw error;
  }
}

/** The first line of piped input, without its line ending. */
function firstLine(text: string): string {
  return text.split(/\r?\n/)[0] ?? '';
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
