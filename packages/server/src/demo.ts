// `npm run demo`: installs a demo organization into the configured database (the same data
// folder `npm start` uses), with stories, threads, a moderator and an admin, and prints how to
// sign in. Refuses to touch an installed Parley.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  EXAMPLE_ARTICLES,
  EXAMPLE_SITE_ID_FILE,
  EXAMPLE_SSO_SECRET_FILE,
} from '../../../examples/host/createExampleServer';
import { hashPassword } from './auth/passwords';
import { loadServerSecrets } from './auth/secrets';
import type { SecretBox } from './auth/secretBox';
import { createDatabase } from './db/createDatabase';
import type { Db } from './db/inTransaction';
import { createComment } from './db/store/comments';
import { getOrganization, install } from './db/store/organization';
import { addSsoKey } from './db/store/sites';
import { findOrCreateStory } from './db/store/stories';
import { createUser } from './db/store/users';
import { moderateUser } from './db/store/userModeration';
import { renderComment } from './markdown/renderComment';
import { ConfigError, loadConfig } from './runtime/loadConfig';
import { createLogger } from './runtime/createLogger';
import { secureDataDir } from './runtime/secureDataDir';

/** Demo accounts: role, username, password (printed at the end; this is demo data). */
const ACCOUNTS = [
  { role: 'ADMIN', username: 'admin', password: 'parley-admin' },
  { role: 'MODERATOR', username: 'moderator', password: 'parley-moderator' },
  { role: 'COMMENTER', username: 'ada', password: 'parley-ada' },
  { role: 'COMMENTER', username: 'grace', password: 'parley-grace' },
] as const;

const THREAD = [
  { author: 'ada', body: 'What a **great** read. The part about caching made it click for me.' },
  { author: 'grace', body: 'Agreed — though I would measure before tuning anything.', replyTo: 0 },
  { author: 'moderator', body: 'Welcome, everyone! Please keep it kind.' },
  { author: 'ada', body: 'Does anyone have a link to the benchmark? https://example.com/bench' },
];

async function main(): Promise<void> {
  const config = loadConfig();
  // The demo may be the first to write the data folder: owner-only, as the server makes it.
  await secureDataDir({
    dataDir: config.dataDir,
    logger: createLogger({ level: config.logLevel }),
  });
  const { db, close, dialect } = await createDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
  });
  try {
    if (await getOrganization(db)) {
      console.error(
        `Parley is already installed in ${dialect === 'postgres' ? 'this database' : config.dataDir}. ` +
          'To start over with the demo, stop the server and remove that data folder.',
      );
      process.exitCode = 1;
      return;
    }
    const { box } = await loadServerSecrets(config);
    const { ssoSecret, siteId } = await fill(db, box, config.examplePort, config.host);
    // The example host site signs its SSO tokens with this (`npm start` reads it per request).
    // Demo data: in production the secret lives only in the host site's own configuration.
    writeFileSync(join(config.dataDir, EXAMPLE_SSO_SECRET_FILE), ssoSecret, { mode: 0o600 });
    // Its list page shows the site's latest comments (recent.js names the site by its id).
    writeFileSync(join(config.dataDir, EXAMPLE_SITE_ID_FILE), siteId, { mode: 0o600 });
    console.log(`Demo installed. The example host page (http://${config.host}:${config.examplePort}/) is a permitted origin;
its SSO page (/sso) signs tokens with the demo site's SSO key.
Accounts (email is <username>@demo.parley.test):
${ACCOUNTS.map((a) => `  ${a.role.padEnd(10)} ${a.username.padEnd(10)} password: ${a.password}`).join('\n')}`);
  } finally {
    await close();
  }
}

/** Fills the database; resolves the demo site's SSO secret and id. */
async function fill(
  db: Db,
  box: SecretBox,
  examplePort: number,
  host: string,
): Promise<{ ssoSecret: string; siteId: string }> {
  const example = `http://${host}:${examplePort}`;
  const origins = [example, `http://localhost:${examplePort}`];
  const [admin, ...others] = ACCOUNTS;
  const result = await install(
    db,
    {
      organization: { name: 'Parley Demo', contactEmail: 'team@demo.parley.test', url: example },
      site: { name: 'Example host', url: example, allowedOrigins: origins },
      admin: {
        email: `${admin.username}@demo.parley.test`,
        username: admin.username,
        passwordHash: await hashPassword(admin.password),
      },
    },
    box,
  );
  const ids = new Map<string, string>([[admin.username, result.admin.id]]);
  for (const account of others) {
    const user = await createUser(db, {
      username: account.username,
      email: `${account.username}@demo.parley.test`,
      passwordHash: await hashPassword(account.password),
      emailVerified: true,
    });
    ids.set(account.username, user.id);
    if (account.role !== 'COMMENTER') {
      await moderateUser(db, {
        userId: user.id,
        actorId: result.admin.id,
        action: 'ROLE',
        role: account.role,
      });
    }
  }
  // The example page's own URL, so its thread is not empty, and a second article (the third
  // stays empty: the list page then shows a zero count too).
  for (const { path, title } of EXAMPLE_ARTICLES.slice(0, 2)) {
    const { story } = await findOrCreateStory(db, {
      siteId: result.site.id,
      url: `${example}${path}`,
      title,
    });
    const posted: string[] = [];
    for (const [i, line] of THREAD.entries()) {
      const { comment } = await createComment(db, {
        storyId: story.id,
        authorId: ids.get(line.author) ?? result.admin.id,
        parentId: line.replyTo === undefined ? null : posted[line.replyTo],
        bodySource: line.body,
        bodyHtml: renderComment(line.body),
        tags: line.author === 'moderator' ? ['STAFF'] : [],
        createdAt: new Date(Date.now() - (THREAD.length - i) * 60_000).toISOString(),
      });
      posted.push(comment.id);
    }
  }
  return { ssoSecret: (await addSsoKey(db, result.site.id, box)).secret, siteId: result.site.id };
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration: ${error.message}` : error);
  process.exit(1);
});
