import { createParleyServer } from '../src/createParleyServer';
import { createTestDatabase, testDialects } from '../src/db/testDatabases';
import type { TestDatabase } from '../src/db/testDatabases';
import type { ParleyServer } from '../src/createParleyServer';
import { loadConfig } from '../src/runtime/loadConfig';
import { createMemoryLogger } from '../src/runtime/testing/createTestYoga';
import { freePort } from '../src/runtime/testing/freePort';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';
import { hashPassword } from '../src/auth/passwords';
import { createUser, findUserById } from '../src/db/store/users';
import { identitiesOf } from '../src/db/store/signInProviders';
import { confirmEnrolment, startEnrolment } from '../src/db/store/twoFactor';
import { deleteAccount } from '../src/db/store/accountDeletion';
import { updateSettings } from '../src/db/store/organization';
import { totpCode } from '../src/auth/twoFactor';
import { matchFromOutbox } from '../src/runtime/testing/readOutbox';
import { forgetDiscoveries } from '../src/auth/providers/providerClients';
import {
  startTestOidcProvider,
  testProviderEmail,
} from '../src/auth/providers/testing/testOidcProvider';
import type { TestOidcProvider } from '../src/auth/providers/testing/testOidcProvider';
import { codeOf, graphqlAnswer } from '../src/runtime/testing/graphqlAs';

// Provider sign-in against a genuine OpenID Connect provider (oidc-provider) and a real Parley
// server: the popup's journey is walked with fetch, cookies kept per origin as a browser does.

const SITE = 'https://site.example';
const PASSWORD = 'correct horse battery';
const CLIENT = { clientId: 'parley-test', clientSecret: 'a-client-secret-of-the-test' };

/** Cookies per origin, and redirects followed by hand, as a browser would. */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    const origin = new URL(url).origin;
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    this.jars.set(origin, jar);
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (gone) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }

  /** Follows redirects from `url`; stops at a page, or at the first URL `stopAt` accepts. */
  async follow(
    url: string,
    init: { method?: string; form?: Record<string, string> } = {},
    stopAt: (url: URL) => boolean = () => false,
  ): Promise<{ url: URL; response: Response }> {
    let current = new URL(url);
    let response = await this.request(current.href, init);
    for (let hops = 0; hops < 20; hops++) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) break;
      current = new URL(location, current);
      if (stopAt(current)) return { url: current, response };
      response = await this.request(current.href);
    }
    return { url: current, response };
  }
}

describe.each(testDialects())('signing in with an OpenID Connect provider on %s', (dialect) => {
  let database: TestDatabase;
  let dir: string;
  let server: ParleyServer;
  let url: string;
  let provider: TestOidcProvider;
  let adminToken: string;
  let siteId: string;
  let providerId: string;

  const graphql = (query: string, variables: object = {}, token?: string) =>
    graphqlAnswer(url, query, variables, token);

  async function addProvider(issuerUrl: string, siteIds = [siteId]) {
    const answer = await graphql(
      `mutation ($input: CreateSignInProviderInput!) {
        createSignInProvider(input: $input) { signInProvider { id callbackUrl clientSecretSet } }
      }`,
      { input: { kind: 'OIDC', name: 'Test ID', issuerUrl, ...CLIENT, siteIds } },
      adminToken,
    );
    expect(answer.errors).toBeUndefined();
    return answer.data.createSignInProvider.signInProvider as {
      id: string;
      callbackUrl: string;
      clientSecretSet: boolean;
    };
  }

  const atPopup = (target: URL) => target.pathname === '/embed/auth';

  /** From the popup's button (which names the story, not the site) to the provider's login page. */
  async function start(browser: Browser, query: Record<string, string> = {}) {
    const search = new URLSearchParams({
      story: `${SITE}/an-article`,
      locale: 'es',
      theme: 'dark',
      ...query,
    });
    return browser.follow(`${url}/auth/providers/${providerId}/start?${search}`, {}, atPopup);
  }

  /** Signs in as `login` at the provider and consents; answers the popup URL Parley ends on. */
  async function signInAt(browser: Browser, login: string, query: Record<string, string> = {}) {
    const page = await start(browser, query);
    // Signed in at the provider before, and consented: it answers at once.
    if (atPopup(page.url)) return page.url;
    expect(page.url.origin).toBe(provider.issuer);
    let at = await browser.follow(
      page.url.href,
      { method: 'POST', form: { prompt: 'login', login, password: 'anything' } },
      atPopup,
    );
    if (!atPopup(at.url)) {
      expect(at.url.pathname).toMatch(/^\/interaction\//);
      at = await browser.follow(
        at.url.href,
        { method: 'POST', form: { prompt: 'consent' } },
        atPopup,
      );
    }
    expect(atPopup(at.url)).toBe(true);
    return at.url;
  }

  async function redeem(code: string, token?: string) {
    return graphql(
      `mutation ($input: RedeemProviderSignInInput!) {
        redeemProviderSignIn(input: $input) { token connectedProvider user { id username } }
      }`,
      { input: { code } },
      token,
    );
  }

  const VIEWER = `{ viewer { id username email emailVerified hasPassword identities { email provider { name } } } }`;

  beforeAll(async () => {
    database = await createTestDatabase(dialect, { sqliteFile: true });
    dir = database.dataDir;
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = await createParleyServer({
      config: loadConfig({
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: url,
        PARLEY_DATA_DIR: dir,
        DATABASE_URL: dialect === 'postgres' ? database.url : undefined,
        LOG_LEVEL: 'silent',
      }),
      logger: createMemoryLogger().logger,
    });
    await server.listen();
    adminToken = await installOverHttp(url, { site: SITE, password: PASSWORD });
    siteId = (await graphql('{ sites { id } }', {}, adminToken)).data.sites[0].id;
    const providerPort = await freePort();
    const added = await addProvider(`http://127.0.0.1:${providerPort}`);
    providerId = added.id;
    provider = await startTestOidcProvider({
      port: providerPort,
      ...CLIENT,
      redirectUris: [added.callbackUrl],
    });
  });
  afterAll(async () => {
    await provider.close();
    await server.close();
    forgetDiscoveries();
    await database.close();
  });

  it('offers the provider on its site, its secret write-only', async () => {
    const offered = await graphql(
      `query ($siteId: ID!) { signInProviders(siteId: $siteId) { id kind name clientId } }`,
      { siteId },
    );
    expect(offered.data.signInProviders).toEqual([
      { id: providerId, kind: 'OIDC', name: 'Test ID', clientId: null },
    ]);
    // The popup knows the story, not the site: its URL's origin finds the site.
    const byStory = await graphql(
      `query ($url: String!) { signInProviders(storyURL: $url) { id } }`,
      { url: `${SITE}/2026/11/an-article` },
    );
    expect(byStory.data.signInProviders).toEqual([{ id: providerId }]);
    const elsewhere = await graphql(
      `query ($url: String!) { signInProviders(storyURL: $url) { id } }`,
      { url: 'https://not-a-site.example/article' },
    );
    expect(elsewhere.data.signInProviders).toEqual([]);
    const configured = await graphql(
      `{ configuredSignInProviders { clientId clientSecretSet callbackUrl } }`,
      {},
      adminToken,
    );
    expect(configured.data.configuredSignInProviders).toEqual([
      {
        clientId: CLIENT.clientId,
        clientSecretSet: true,
        callbackUrl: `${url}/auth/providers/${providerId}/callback`,
      },
    ]);
  });

  it('makes an account on the first sign-in, and signs the same person into it after', async () => {
    const browser = new Browser();
    const popup = await signInAt(browser, 'ann');
    // The popup comes back as it was opened.
    expect(popup.searchParams.get('locale')).toBe('es');
    expect(popup.searchParams.get('theme')).toBe('dark');
    const first = await redeem(popup.searchParams.get('provider_code') ?? '');
    expect(first.errors).toBeUndefined();
    const token = first.data.redeemProviderSignIn.token as string;
    const viewer = (await graphql(VIEWER, {}, token)).data.viewer;
    expect(viewer).toMatchObject({
      username: 'ann',
      email: testProviderEmail('ann'),
      emailVerified: true,
      hasPassword: false,
      identities: [{ email: testProviderEmail('ann'), provider: { name: 'Test ID' } }],
    });
    // A code is good once.
    expect(codeOf(await redeem(popup.searchParams.get('provider_code') ?? ''))).toBe(
      'SIGN_IN_EXPIRED',
    );

    const again = await signInAt(browser, 'ann');
    const second = await redeem(again.searchParams.get('provider_code') ?? '');
    expect(second.data.redeemProviderSignIn.user.id).toBe(viewer.id);
  });

  it('gives a new account a placeholder address when the provider has not verified one', async () => {
    const popup = await signInAt(new Browser(), 'unverified-bob');
    const { token } = (await redeem(popup.searchParams.get('provider_code') ?? '')).data
      .redeemProviderSignIn;
    const viewer = (await graphql(VIEWER, {}, token)).data.viewer;
    expect(viewer.email).toMatch(/@signin\.invalid$/);
    expect(viewer.emailVerified).toBe(false);
    expect(viewer.identities).toEqual([{ email: null, provider: { name: 'Test ID' } }]);
  });

  it("refuses a new account from a banned network, not an existing account's sign-in", async () => {
    const browser = new Browser();
    const known = await signInAt(browser, 'dora');
    expect(codeOf(await redeem(known.searchParams.get('provider_code') ?? ''))).toBeUndefined();
    const BAN = `mutation ($input: BanIpRangeInput!) { banIpRange(input: $input) { ipBan { id } } }`;
    const { id } = (await graphql(BAN, { input: { range: '127.0.0.1', hours: 1 } }, adminToken))
      .data.banIpRange.ipBan;
    try {
      const refused = await signInAt(new Browser(), 'erin');
      expect(refused.searchParams.get('error')).toBe('IP_BANNED');
      expect(refused.searchParams.get('provider_code')).toBeNull();
      // Dora has her account: signing in is not signing up.
      const again = await signInAt(browser, 'dora');
      expect(again.searchParams.get('provider_code')).not.toBeNull();
    } finally {
      const LIFT = `mutation ($id: ID!) { liftIpBan(input: { id: $id }) { ipBan { id } } }`;
      await graphql(LIFT, { id }, adminToken);
    }
  });

  it('says so when the reader refuses on the provider', async () => {
    const browser = new Browser();
    const page = await start(browser);
    const html = await page.response.text();
    const abort = /href="([^"]*\/abort)"/.exec(html)?.[1];
    expect(abort).toBeDefined();
    const end = await browser.follow(new URL(abort ?? '', page.url).href, {}, atPopup);
    expect(end.url.searchParams.get('error')).toBe('SIGN_IN_DENIED');
    expect(end.url.searchParams.get('locale')).toBe('es');
  });

  it('refuses an answer that comes back to another browser, or a second time', async () => {
    const browser = new Browser();
    const page = await start(browser);
    let callback: URL | undefined;
    await browser
      .follow(
        page.url.href,
        { method: 'POST', form: { prompt: 'login', login: 'carol', password: 'x' } },
        (target) => {
          if (target.pathname.endsWith('/callback')) callback = target;
          return atPopup(target);
        },
      )
      .then(async (at) => {
        if (callback === undefined) {
          await browser.follow(
            at.url.href,
            { method: 'POST', form: { prompt: 'consent' } },
            (t) => {
              if (t.pathname.endsWith('/callback')) callback = t;
              return t.pathname.endsWith('/callback');
            },
          );
        }
      });
    expect(callback).toBeDefined();
    // Another browser (no state cookie): a forged or stolen link signs nobody in.
    const elsewhere = await new Browser().follow(callback?.href ?? '', {}, atPopup);
    expect(elsewhere.url.searchParams.get('error')).toBe('SIGN_IN_EXPIRED');
    // The right browser once: fine; twice: the flow was taken.
    const once = await browser.follow(callback?.href ?? '', {}, atPopup);
    expect(once.url.searchParams.get('provider_code')).toBeTruthy();
    const twice = await browser.follow(callback?.href ?? '', {}, atPopup);
    expect(twice.url.searchParams.get('error')).toBe('SIGN_IN_EXPIRED');
  });

  it('never joins an existing account silently: its password, then straight in', async () => {
    // An account with the provider's address, made here with a password.
    const created = await createUser(server.deps.db, {
      username: 'dana_here',
      email: testProviderEmail('dana'),
      passwordHash: await hashPassword(PASSWORD),
      emailVerified: true,
    });
    const browser = new Browser();
    const popup = await signInAt(browser, 'dana');
    const code = popup.searchParams.get('provider_code') ?? '';
    const refused = await redeem(code);
    expect(codeOf(refused)).toBe('SIGN_IN_LINK_REQUIRED');
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      email: testProviderEmail('dana'),
      provider: 'Test ID',
    });
    const connect = (password: string) =>
      graphql(
        `mutation ($input: ConnectProviderWithPasswordInput!) {
          connectProviderWithPassword(input: $input) { token user { id } }
        }`,
        { input: { code, password } },
      );
    expect(codeOf(await connect('wrong password here'))).toBe('INVALID_CREDENTIALS');
    const joined = await connect(PASSWORD);
    expect(joined.data.connectProviderWithPassword.user.id).toBe(created.id);
    // Connected: the next sign-in goes straight to the account.
    const next = await signInAt(browser, 'dana');
    const straight = await redeem(next.searchParams.get('provider_code') ?? '');
    expect(straight.data.redeemProviderSignIn.user.id).toBe(created.id);
  });

  it('connects an existing account by a link emailed to its address', async () => {
    const owner = await createUser(server.deps.db, {
      username: 'erin_here',
      email: testProviderEmail('erin'),
      passwordHash: null,
      emailVerified: true,
    });
    const popup = await signInAt(new Browser(), 'erin');
    const code = popup.searchParams.get('provider_code') ?? '';
    expect(codeOf(await redeem(code))).toBe('SIGN_IN_LINK_REQUIRED');
    const sent = await graphql(
      `mutation ($input: EmailProviderLinkInput!) { emailProviderLink(input: $input) { email } }`,
      { input: { code } },
    );
    expect(sent.data.emailProviderLink.email).toBe(testProviderEmail('erin'));
    const link = await linkFromOutbox(testProviderEmail('erin'));
    // Opening the link connects nothing (mail scanners open links); its button does.
    const page = await fetch(link);
    expect(await page.text()).toContain('<button type="submit">Connect</button>');
    const key = new URL(link).searchParams.get('key') ?? '';
    const posted = await fetch(`${url}/auth/providers/link`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key }).toString(),
    });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain('Test ID account is now connected');
    const next = await signInAt(new Browser(), 'erin');
    const straight = await redeem(next.searchParams.get('provider_code') ?? '');
    expect(straight.data.redeemProviderSignIn.user.id).toBe(owner.id);
  });

  it('connects a provider from the profile, and keeps the last way to sign in', async () => {
    const popup = await signInAt(new Browser(), 'frank');
    const { token } = (await redeem(popup.searchParams.get('provider_code') ?? '')).data
      .redeemProviderSignIn;
    const identities = (await graphql(VIEWER, {}, token)).data.viewer.identities;
    expect(identities).toHaveLength(1);
    const listed = await graphql(`{ viewer { identities { id } } }`, {}, token);
    const disconnect = await graphql(
      `mutation ($input: DisconnectProviderInput!) { disconnectProvider(input: $input) { user { id } } }`,
      { input: { identityId: listed.data.viewer.identities[0].id } },
      token,
    );
    expect(codeOf(disconnect)).toBe('FORBIDDEN');

    // The admin (password account) connects the provider account "admin-idp".
    const started = await graphql(
      `mutation ($input: StartProviderConnectionInput!) { startProviderConnection(input: $input) { url } }`,
      { input: { providerId, siteId } },
      adminToken,
    );
    const browser = new Browser();
    const startUrl = new URL(started.data.startProviderConnection.url);
    const page = await browser.follow(startUrl.href, {}, atPopup);
    let at = await browser.follow(
      page.url.href,
      { method: 'POST', form: { prompt: 'login', login: 'admin-idp', password: 'x' } },
      atPopup,
    );
    if (!atPopup(at.url)) {
      at = await browser.follow(
        at.url.href,
        { method: 'POST', form: { prompt: 'consent' } },
        atPopup,
      );
    }
    // A connection comes back for the frame that asked: the popup alone, or another account,
    // cannot finish it.
    const connectCode = at.url.searchParams.get('connect_code') ?? '';
    expect(at.url.searchParams.get('provider_code')).toBeNull();
    expect(codeOf(await redeem(connectCode))).toBe('FORBIDDEN');
    expect(codeOf(await redeem(connectCode, token))).toBe('FORBIDDEN');
    const connected = await redeem(connectCode, adminToken);
    expect(connected.data.redeemProviderSignIn).toMatchObject({
      token: null,
      connectedProvider: 'Test ID',
    });
    const admin = (await graphql(VIEWER, {}, adminToken)).data.viewer;
    expect(admin.identities).toEqual([
      { email: testProviderEmail('admin-idp'), provider: { name: 'Test ID' } },
    ]);
    // Someone else's provider account cannot be connected to the admin.
    const again = await graphql(
      `mutation ($input: StartProviderConnectionInput!) { startProviderConnection(input: $input) { url } }`,
      { input: { providerId, siteId } },
      adminToken,
    );
    const second = new Browser();
    const login = await second.follow(again.data.startProviderConnection.url, {}, atPopup);
    let end = await second.follow(
      login.url.href,
      { method: 'POST', form: { prompt: 'login', login: 'frank', password: 'x' } },
      atPopup,
    );
    if (!atPopup(end.url)) {
      end = await second.follow(
        end.url.href,
        { method: 'POST', form: { prompt: 'consent' } },
        atPopup,
      );
    }
    expect(end.url.searchParams.get('error')).toBe('SIGN_IN_IDENTITY_TAKEN');
  });

  it('gives an address never confirmed here to the provider’s person, whose mailbox it is', async () => {
    // Someone typed another person's address into their own account and never confirmed it.
    const squatter = await createUser(server.deps.db, {
      username: 'squatter',
      email: testProviderEmail('gina'),
      passwordHash: await hashPassword(PASSWORD),
      emailVerified: false,
    });
    const popup = await signInAt(new Browser(), 'gina');
    const signedIn = await redeem(popup.searchParams.get('provider_code') ?? '');
    expect(signedIn.errors).toBeUndefined();
    const gina = (await graphql(VIEWER, {}, signedIn.data.redeemProviderSignIn.token)).data.viewer;
    expect(gina).toMatchObject({ username: 'gina', email: testProviderEmail('gina') });
    expect(gina.id).not.toBe(squatter.id);
    const left = await findUserById(server.deps.db, squatter.id);
    expect(left?.email).toMatch(/@signin\.invalid$/);
    expect(left?.passwordHash).toBe(squatter.passwordHash);
  });

  it('asks a two-factor account for its code before connecting by password', async () => {
    const user = await createUser(server.deps.db, {
      username: 'hank_here',
      email: testProviderEmail('hank'),
      passwordHash: await hashPassword(PASSWORD),
      emailVerified: true,
    });
    const secret = await startEnrolment(server.deps.db, server.deps.box, user.id);
    const sealed =
      (
        await server.deps.db
          .selectFrom('users')
          .select('totp_secret')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow()
      ).totp_secret ?? '';
    await confirmEnrolment(server.deps.db, user.id, sealed, new Date());
    const popup = await signInAt(new Browser(), 'hank');
    const code = popup.searchParams.get('provider_code') ?? '';
    const connect = (extra: Record<string, string> = {}) =>
      graphql(
        `mutation ($input: ConnectProviderWithPasswordInput!) {
          connectProviderWithPassword(input: $input) { token user { id } }
        }`,
        { input: { code, password: PASSWORD, ...extra } },
      );
    expect(codeOf(await connect())).toBe('TWO_FACTOR_CODE_REQUIRED');
    expect(await identitiesOf(server.deps.db, user.id)).toEqual([]);
    expect(codeOf(await connect({ secondFactorCode: '000000' }))).toBe('TWO_FACTOR_CODE_INVALID');
    const joined = await connect({ secondFactorCode: totpCode(secret, new Date()) });
    expect(joined.data.connectProviderWithPassword.user.id).toBe(user.id);
    expect(await identitiesOf(server.deps.db, user.id)).toHaveLength(1);
    // The account's address hears of it.
    await expect(
      messageTo(testProviderEmail('hank'), /was just connected to yours/),
    ).resolves.toContain('Test ID');
  });

  it('voids a connection ticket when its account signs out everywhere', async () => {
    const popup = await signInAt(new Browser(), 'ivy');
    const { token } = (await redeem(popup.searchParams.get('provider_code') ?? '')).data
      .redeemProviderSignIn;
    const started = await graphql(
      `mutation ($input: StartProviderConnectionInput!) { startProviderConnection(input: $input) { url } }`,
      { input: { providerId, siteId } },
      token,
    );
    await graphql(`mutation { signOutEverywhere { ok } }`, {}, token);
    const end = await new Browser().follow(started.data.startProviderConnection.url, {}, atPopup);
    expect(end.url.searchParams.get('error')).toBe('SIGN_IN_EXPIRED');
  });

  it('connects nothing by an emailed link once the account is erased', async () => {
    const owner = await createUser(server.deps.db, {
      username: 'jude_here',
      email: testProviderEmail('jude'),
      passwordHash: await hashPassword(PASSWORD),
      emailVerified: true,
    });
    const popup = await signInAt(new Browser(), 'jude');
    const code = popup.searchParams.get('provider_code') ?? '';
    await graphql(
      `mutation ($input: EmailProviderLinkInput!) { emailProviderLink(input: $input) { email } }`,
      { input: { code } },
    );
    const link = await linkFromOutbox(testProviderEmail('jude'));
    await server.deps.db
      .updateTable('users')
      .set({ deletion_requested_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', owner.id)
      .execute();
    await deleteAccount(server.deps.db, owner.id);
    const posted = await fetch(`${url}/auth/providers/link`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: new URL(link).searchParams.get('key') ?? '' }).toString(),
    });
    expect(posted.status).toBe(400);
    expect(await identitiesOf(server.deps.db, owner.id)).toEqual([]);
  });

  it('asks staff signed in by a provider for two-factor sign-in when the organization requires it', async () => {
    const popup = await signInAt(new Browser(), 'kim');
    const { token, user } = (await redeem(popup.searchParams.get('provider_code') ?? '')).data
      .redeemProviderSignIn;
    await server.deps.db
      .updateTable('users')
      .set({ role: 'MODERATOR' })
      .where('id', '=', user.id)
      .execute();
    // Saved in the store, then announced as the console's save announces it (the server keeps
    // the settings between requests).
    const setRule = async (requireStaffTwoFactor: boolean) => {
      await updateSettings(server.deps.db, { requireStaffTwoFactor });
      server.deps.organizationCache?.invalidate();
    };
    await setRule(true);
    try {
      const access = await graphql(`{ viewer { staffAccess } }`, {}, token);
      expect(access.data.viewer.staffAccess).toBe('ENROLMENT_NEEDED');
    } finally {
      await setRule(false);
    }
  });

  it('says which provider is off, and which cannot be reached', async () => {
    const off = await new Browser().follow(
      `${url}/auth/providers/${providerId}/start?site=another-site`,
      {},
      atPopup,
    );
    expect(off.url.searchParams.get('error')).toBe('SIGN_IN_PROVIDER_DISABLED');
    const nowhere = await addProvider(`http://127.0.0.1:${await freePort()}`);
    const down = await new Browser().follow(
      `${url}/auth/providers/${nowhere.id}/start?site=${siteId}`,
      {},
      atPopup,
    );
    expect(down.url.searchParams.get('error')).toBe('SIGN_IN_PROVIDER_UNREACHABLE');
  });

  /** The text of the latest message to `to` that matches `pattern`. */
  const messageTo = async (to: string, pattern: RegExp) =>
    (await matchFromOutbox(dir, to, pattern)).text;

  /** The connection link in the latest message to `to` that has one. */
  const linkFromOutbox = async (to: string) =>
    (await matchFromOutbox(dir, to, /http:\/\/\S+\/auth\/providers\/link\?key=[\w%-]+/)).match[0];
});
