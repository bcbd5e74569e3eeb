import { mkdtemp, readFile, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ENV_SECRET_MIN_LENGTH,
  SECRET_BYTES,
  SECRET_FILE_NAME,
  loadOrCreateSecret,
  loadServerSecrets,
} from './secrets';

describe('loadOrCreateSecret', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'parley-secret-'));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('generates 32 random bytes at first start, kept with mode 0600', async () => {
    const dataDir = join(root, 'data', 'nested');
    const secret = await loadOrCreateSecret(dataDir);
    expect(secret).toHaveLength(SECRET_BYTES);
    const file = join(dataDir, SECRET_FILE_NAME);
    expect(new Uint8Array(await readFile(file))).toEqual(secret);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('returns the same secret on later starts', async () => {
    const first = await loadOrCreateSecret(root);
    const second = await loadOrCreateSecret(root);
    expect(second).toEqual(first);
  });

  it('gives different installs different secrets', async () => {
    const other = await mkdtemp(join(tmpdir(), 'parley-secret-'));
    try {
      expect(await loadOrCreateSecret(other)).not.toEqual(await loadOrCreateSecret(root));
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('agrees with itself when several starts race', async () => {
    const secrets = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateSecret(root)));
    for (const secret of secrets) expect(secret).toEqual(secrets[0]);
    expect(new Uint8Array(await readFile(join(root, SECRET_FILE_NAME)))).toEqual(secrets[0]);
  });

  it('tightens a secret file whose mode was widened', async () => {
    await loadOrCreateSecret(root);
    const file = join(root, SECRET_FILE_NAME);
    await chmod(file, 0o644);
    await loadOrCreateSecret(root);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('refuses a damaged secret file instead of replacing it', async () => {
    await writeFile(join(root, SECRET_FILE_NAME), 'short');
    await expect(loadOrCreateSecret(root)).rejects.toThrow(/expected 32/);
  });

  it('derives the secret from PARLEY_SECRET without writing a file', async () => {
    const env = 'a long operator-chosen secret';
    const a = await loadOrCreateSecret(root, env);
    const b = await loadOrCreateSecret(join(root, 'elsewhere'), env);
    expect(a).toHaveLength(SECRET_BYTES);
    expect(b).toEqual(a);
    expect(await loadOrCreateSecret(root, `${env}!`)).not.toEqual(a);
    await expect(stat(join(root, SECRET_FILE_NAME))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('treats an empty PARLEY_SECRET as unset', async () => {
    const secret = await loadOrCreateSecret(root, '');
    expect(new Uint8Array(await readFile(join(root, SECRET_FILE_NAME)))).toEqual(secret);
  });

  it('refuses a PARLEY_SECRET that is too short to be safe', async () => {
    await expect(loadOrCreateSecret(root, 'x'.repeat(ENV_SECRET_MIN_LENGTH - 1))).rejects.toThrow(
      /at least/,
    );
  });
});

describe('loadServerSecrets', () => {
  let root: string;
  const sources = (over: Partial<Parameters<typeof loadServerSecrets>[0]> = {}) => ({
    dataDir: root,
    secret: undefined,
    previousSecret: undefined,
    production: false,
    ...over,
  });

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'parley-secret-'));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('refuses a production start without PARLEY_SECRET, saying how to make one, writing nothing', async () => {
    const error = await loadServerSecrets(sources({ production: true })).catch((e: Error) => e);
    expect(String(error)).toMatch(/PARLEY_SECRET is required when NODE_ENV=production/);
    expect(String(error)).toContain("randomBytes(32).toString('base64url')");
    await expect(stat(join(root, SECRET_FILE_NAME))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(
      loadServerSecrets(sources({ production: true, secret: 'x'.repeat(32) })),
    ).resolves.toBeDefined();
  });

  it('seals under a key of its own root: another install, or another PARLEY_SECRET, cannot open it', async () => {
    const fromFile = await loadServerSecrets(sources());
    const sealed = fromFile.box.seal('sso', 'sso_keys.secret:k1');
    const again = await loadServerSecrets(sources());
    expect(again.box.open(sealed, 'sso_keys.secret:k1')).toBe('sso');
    const other = await mkdtemp(join(tmpdir(), 'parley-secret-'));
    try {
      const stranger = await loadServerSecrets(sources({ dataDir: other }));
      expect(() => stranger.box.open(sealed, 'sso_keys.secret:k1')).toThrow(
        /another PARLEY_SECRET/,
      );
    } finally {
      await rm(other, { recursive: true, force: true });
    }
    const env = await loadServerSecrets(
      sources({ dataDir: join(root, 'x'), secret: 'e'.repeat(20) }),
    );
    expect(() => env.box.open(sealed, 'sso_keys.secret:k1')).toThrow(/another PARLEY_SECRET/);
  });

  it('opens what secret.key sealed once PARLEY_SECRET is set, and what PARLEY_SECRET_PREVIOUS sealed', async () => {
    const before = await loadServerSecrets(sources());
    const sealedByFile = before.box.seal('from the file', 'sso_keys.secret:k1');
    const first = await loadServerSecrets(sources({ secret: 'first secret value' }));
    expect(first.box.open(sealedByFile, 'sso_keys.secret:k1')).toBe('from the file');
    expect(first.box.needsResealing(sealedByFile, 'sso_keys.secret:k1')).toBe(true);
    // The token secret now comes from PARLEY_SECRET, not the file.
    expect(first.tokenSecret).not.toEqual(before.tokenSecret);

    const sealedByFirst = first.box.seal('from the first', 'sso_keys.secret:k1');
    const rotated = await loadServerSecrets(
      sources({ secret: 'second secret value', previousSecret: 'first secret value' }),
    );
    expect(rotated.box.open(sealedByFirst, 'sso_keys.secret:k1')).toBe('from the first');
    const forgot = await loadServerSecrets(sources({ secret: 'second secret value' }));
    expect(() => forgot.box.open(sealedByFirst, 'sso_keys.secret:k1')).toThrow(
      /PARLEY_SECRET_PREVIOUS/,
    );
  });

  it('refuses a PARLEY_SECRET_PREVIOUS that is too short', async () => {
    await expect(
      loadServerSecrets(sources({ secret: 'a'.repeat(20), previousSecret: 'short' })),
    ).rejects.toThrow(/PARLEY_SECRET_PREVIOUS must be at least/);
  });
});
