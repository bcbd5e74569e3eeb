import type * as FsPromises from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import {
  ASSET_CACHE_CONTROL,
  IMMUTABLE_CACHE_CONTROL,
  cacheControlFor,
} from '../../../runtime/serveStatic';
import { tinyPng } from '../../../uploads/testImages';
import { AVATAR_MAX_BYTES, ORPHAN_UPLOAD_GRACE_MS } from '../../../defaults';
import { sweepOrphanAvatars } from '../../../uploads/storeAvatar';
import { testDialects } from '../../../db/testDatabases';
import { PUBLIC_URL, useApi } from '../../testing/useApi';
import { postUpload } from '../../testing/postUpload';
import { codeOf } from './accountTestKit';

const UPLOAD = `mutation ($file: File!) {
  uploadAvatar(file: $file) { user { id avatarUrl large: avatarUrl(size: LARGE) } }
}`;

/** A file's name in a URL. */
const nameOf = (url: unknown) => (url as string).split('/').at(-1) ?? '';

describe.each(testDialects())('uploadAvatar on %s', (dialect) => {
  const api = useApi(dialect);
  const avatarDir = () => join(api.deps.dataDir, 'uploads', 'avatars');
  // The data dir lives as long as the file's database; user ids are fresh in every test.
  const filesOf = (userId: string) =>
    existsSync(avatarDir()) ? readdirSync(avatarDir()).filter((f) => f.startsWith(userId)) : [];

  const upload = (bytes: Uint8Array, name: string, token?: string) =>
    postUpload(api.yoga, UPLOAD, {}, { bytes, name }, token);

  it('stores a photo re-encoded as two square WebP sizes, upright and without its metadata', async () => {
    await api.install();
    const { token, userId } = await api.signUp('reader_1');
    // A 1200×800 JPEG saying where and with what it was taken, stored rotated (EXIF orientation 6).
    const photo = await sharp({
      create: { width: 1200, height: 800, channels: 3, background: '#3a7' },
    })
      .jpeg()
      .withExif({ IFD0: { Make: 'SpyCam', Copyright: 'Lois Lane, Metropolis' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(JSON.stringify(await sharp(photo).metadata())).toContain('"orientation":6');
    const answer = await upload(photo, 'me.png', token);
    expect(answer.errors).toBe(undefined);
    const { avatarUrl: small, large } = answer.data?.uploadAvatar.user as Record<string, string>;
    const base = `^${PUBLIC_URL}/uploads/avatars/${userId}-[0-9a-f]{16}`;
    expect(large).toMatch(new RegExp(`${base}-256\\.webp$`));
    expect(small).toBe(large!.replace(/-256\.webp$/, '-64.webp'));
    for (const [url, side] of [
      [large, 256],
      [small, 64],
    ] as const) {
      const bytes = readFileSync(join(avatarDir(), nameOf(url)));
      const meta = await sharp(bytes).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: side, height: side });
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(bytes.includes('SpyCam')).toBe(false);
      expect(bytes.length).toBeLessThan(photo.length);
    }
    expect(filesOf(userId).sort()).toEqual([nameOf(large), nameOf(small)].sort());
    // A new upload is a new name: each rendering may be kept for a year.
    for (const url of [large, small]) {
      expect(cacheControlFor(`/uploads/avatars/${nameOf(url)}`, 'image/webp')).toBe(
        IMMUTABLE_CACHE_CONTROL,
      );
    }
    expect(cacheControlFor('/uploads/avatars/u-1-0123456789abcdef.png', 'image/png')).toBe(
      ASSET_CACHE_CONTROL,
    );
  });

  it('refuses bytes that claim an image but do not decode, and a pixel bomb', async () => {
    await api.install();
    const { token, userId } = await api.signUp('reader_1');
    // A PNG signature and header, then garbage: the sniffer says PNG, libvips cannot read it.
    const broken = Buffer.concat([tinyPng().subarray(0, 33), Buffer.alloc(64, 7)]);
    expect(codeOf(await upload(broken, 'x.png', token))).toBe('UPLOAD_TYPE_NOT_ALLOWED');
    // 10,000 × 10,000 of one colour compresses to a few hundred kilobytes.
    const bomb = await sharp({
      create: { width: 10_000, height: 10_000, channels: 3, background: '#fff' },
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(AVATAR_MAX_BYTES);
    expect(codeOf(await upload(bomb, 'bomb.png', token))).toBe('UPLOAD_TOO_LARGE');
    expect(filesOf(userId)).toEqual([]);
  });

  it('replaces the previous avatar file with the new one', async () => {
    await api.install();
    const { token, userId } = await api.signUp('reader_1');
    const first = await upload(tinyPng(), 'one.png', token);
    const second = await upload(tinyPng(), 'two.png', token);
    const firstUser = first.data?.uploadAvatar.user as Record<string, string>;
    const secondUser = second.data?.uploadAvatar.user as Record<string, string>;
    expect(nameOf(secondUser.large)).not.toBe(nameOf(firstUser.large));
    for (const url of [firstUser.large, firstUser.avatarUrl]) {
      expect(existsSync(join(avatarDir(), nameOf(url)))).toBe(false);
    }
    expect(filesOf(userId).sort()).toEqual(
      [nameOf(secondUser.large), nameOf(secondUser.avatarUrl)].sort(),
    );
  });

  it('refuses a text file named .png: UPLOAD_TYPE_NOT_ALLOWED, nothing stored', async () => {
    await api.install();
    const { token, userId } = await api.signUp('reader_1');
    const answer = await upload(Buffer.from('<script>alert(1)</script>\n'), 'cat.png', token);
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'UPLOAD_TYPE_NOT_ALLOWED',
      field: 'file',
    });
    expect(filesOf(userId)).toEqual([]);
    const user = await api.db
      .selectFrom('users')
      .select('avatar_url')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(user.avatar_url).toBeNull();
  });

  it('refuses an image over 2 MB: UPLOAD_TOO_LARGE', async () => {
    await api.install();
    const { token, userId } = await api.signUp('reader_1');
    const big = Buffer.concat([tinyPng(), Buffer.alloc(AVATAR_MAX_BYTES)]);
    const answer = await upload(big, 'big.png', token);
    expect(codeOf(answer)).toBe('UPLOAD_TOO_LARGE');
    expect(filesOf(userId)).toEqual([]);
  });

  it('refuses a signed-out upload: UNAUTHENTICATED', async () => {
    await api.install();
    const before = existsSync(avatarDir()) ? readdirSync(avatarDir()) : [];
    const answer = await upload(tinyPng(), 'me.png');
    expect(codeOf(answer)).toBe('UNAUTHENTICATED');
    expect(existsSync(avatarDir()) ? readdirSync(avatarDir()) : []).toEqual(before);
  });

  // Ten parallel uploads once left 19 MB, one file referenced.
  it('leaves exactly one file, the referenced one, after ten parallel uploads', async () => {
    await api.install();
    const { token, userId } = await api.signUp('reader_1');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => upload(tinyPng(), `p${i}.png`, token)),
    );
    expect(answers.map((answer) => answer.errors)).toEqual(Array(10).fill(undefined));
    const stored = await api.db
      .selectFrom('users')
      .select('avatar_url')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const large = nameOf(stored.avatar_url);
    expect(filesOf(userId).sort()).toEqual([large, large.replace('-256.webp', '-64.webp')].sort());
    expect(readdirSync(avatarDir()).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('limits uploads per user: the eleventh in an hour is RATE_LIMITED, nothing stored', async () => {
    await api.install();
    const { token, userId } = await api.signUp('reader_1');
    for (let i = 0; i < 10; i += 1) {
      expect((await upload(tinyPng(), 'me.png', token)).errors).toBe(undefined);
    }
    const before = filesOf(userId);
    const refused = await upload(tinyPng(), 'me.png', token);
    expect(codeOf(refused)).toBe('RATE_LIMITED');
    expect(filesOf(userId)).toEqual(before);
  });

  it('answers STORAGE_FULL when the disk has no room, leaving no file', async () => {
    await api.install();
    const { token, userId } = await api.signUp('reader_1');
    // The disk fills up halfway through the write. (The module object itself, as the server's
    // code sees it: a namespace import would be a copy.)
    const fsPromises = jest.requireActual<typeof FsPromises>('node:fs/promises');
    const write = jest.spyOn(fsPromises, 'writeFile').mockImplementationOnce(async (path) => {
      await fsPromises.appendFile(path as string, 'partial');
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
      });
    });
    try {
      const answer = await upload(tinyPng(), 'me.png', token);
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'STORAGE_FULL', field: 'file' });
    } finally {
      write.mockRestore();
    }
    expect(filesOf(userId)).toEqual([]);
    expect(readdirSync(avatarDir()).filter((name) => name.includes(userId))).toEqual([]);
  });

  it('sweeps files no user names at start, sparing young ones (an upload in flight)', async () => {
    await api.install();
    const { token, userId } = await api.signUp('reader_1');
    const kept = await upload(tinyPng(), 'me.png', token);
    const keptUser = kept.data?.uploadAvatar.user as Record<string, string>;
    writeFileSync(join(avatarDir(), `${userId}-orphan.png`), 'x');
    writeFileSync(join(avatarDir(), `.upload-${userId}-crashed.png`), 'x');
    const deps = { ...api.deps, logger: api.deps.logger };
    expect(await sweepOrphanAvatars(deps)).toBe(0); // all younger than the grace period
    const later = Date.now() + ORPHAN_UPLOAD_GRACE_MS + 1000;
    // Files of earlier tests' users (their rows are gone) are orphans too.
    expect(await sweepOrphanAvatars(deps, { now: later })).toBeGreaterThanOrEqual(2);
    expect(readdirSync(avatarDir()).sort()).toEqual(
      [nameOf(keptUser.large), nameOf(keptUser.avatarUrl)].sort(),
    );
  });
});
