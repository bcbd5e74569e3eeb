import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import {
  COMMENT_IMAGE_MAX_BYTES,
  ORPHAN_UPLOAD_GRACE_MS,
  UNUSED_IMAGE_GRACE_MS,
  UNUSED_IMAGES_MAX,
} from '../../defaults';
import { sweepOrphanImages } from '../../uploads/commentImages';
import { IMMUTABLE_CACHE_CONTROL, cacheControlFor } from '../../runtime/serveStatic';
import { tinyPng } from '../../uploads/testImages';
import { testDialects } from '../../db/testDatabases';
import { PUBLIC_URL, SITE_ORIGIN, useApi } from '../testing/useApi';
import type { Api, GraphQLAnswer } from '../testing/useApi';
import { postUpload } from '../testing/postUpload';

const UPLOAD = `mutation ($input: UploadCommentImageInput!) {
  uploadCommentImage(input: $input) { image { url width height } }
}`;
const POST = `mutation ($input: CreateCommentInput!) {
  createComment(input: $input) { comment { id body } }
}`;
const DELETE = `mutation ($input: CommentIdInput!) { deleteComment(input: $input) { comment { id } } }`;
const ALLOW = `mutation ($on: Boolean!) {
  updateSettings(input: { commentImages: $on }) { settings { commentImages } }
}`;

const codeOf = (answer: GraphQLAnswer) => answer.errors?.[0]?.extensions?.code;
const urlOf = (answer: GraphQLAnswer) =>
  (answer.data?.uploadCommentImage as { image: { url: string } }).image.url;

/** Uploads `bytes` as an image for `storyId`. */
const upload = (api: Api, storyId: string, bytes: Uint8Array, token?: string) =>
  postUpload(
    api.yoga,
    UPLOAD,
    { input: { storyId } },
    { bytes, name: 'photo.png', inInput: true },
    token,
  );

describe.each(testDialects())('images in comments on %s', (dialect) => {
  const api = useApi(dialect);
  const imageDir = () => join(api.deps.dataDir, 'uploads', 'images');
  const files = () => (existsSync(imageDir()) ? readdirSync(imageDir()) : []);
  const rows = () => api.db.selectFrom('comment_images').selectAll().execute();
  // The data folder lives as long as the file's database: each test starts without images.
  beforeEach(() => rmSync(imageDir(), { recursive: true, force: true }));

  async function setup() {
    const { adminToken } = await api.install();
    const reader = await api.signUp('painter');
    const { story } = await api.ok(`query ($url: String!) { story(url: $url) { id } }`, {
      url: `${SITE_ORIGIN}/gallery`,
    });
    return { adminToken, reader, storyId: story.id as string };
  }

  it('refuses uploads until the site allows images, then stores a resized WebP without metadata', async () => {
    const { adminToken, reader, storyId } = await setup();
    const photo = await sharp({
      create: { width: 3200, height: 1800, channels: 3, background: '#c63' },
    })
      .jpeg()
      .withExif({ IFD0: { Make: 'SpyCam', Copyright: 'Lois Lane, Metropolis' } })
      .toBuffer();
    expect(codeOf(await upload(api, storyId, photo, reader.token))).toBe('FORBIDDEN');
    expect(files()).toEqual([]);

    await api.ok(ALLOW, { on: true }, adminToken);
    expect(codeOf(await upload(api, storyId, photo))).toBe('UNAUTHENTICATED');
    const answer = await upload(api, storyId, photo, reader.token);
    expect(answer.errors).toBe(undefined);
    const { url, width, height } = answer.data?.uploadCommentImage.image as Record<string, unknown>;
    expect({ width, height }).toEqual({ width: 1600, height: 900 });
    expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/uploads/images/[0-9a-f]{16}-1600x900\\.webp$`));
    const name = (url as string).split('/').at(-1)!;
    expect(files()).toEqual([name]);
    const stored = readFileSync(join(imageDir(), name));
    const metadata = await sharp(stored).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 1600, height: 900 });
    expect(metadata.exif).toBe(undefined);
    expect(stored.includes('Lois Lane')).toBe(false);
    // Its name never holds other bytes: browsers and CDNs may keep it for a year.
    expect(cacheControlFor(`/uploads/images/${name}`, 'image/webp')).toBe(IMMUTABLE_CACHE_CONTROL);

    // Posted: the comment shows it, sized; a remote image in the same comment is only a link.
    const { createComment } = await api.ok(
      POST,
      {
        input: {
          storyId,
          body: `![sunset](${url}) and ![pixel](https://tracker.example/p.gif)`,
        },
      },
      reader.token,
    );
    expect(createComment.comment.body).toContain(
      `<img src="${url}" alt="sunset" width="1600" height="900" loading="lazy" />`,
    );
    expect(createComment.comment.body).not.toContain('<img src="https://tracker');
    expect((await rows()).map((row) => row.comment_id)).toEqual([createComment.comment.id]);

    // Deleting the comment deletes the image.
    await api.ok(DELETE, { input: { commentId: createComment.comment.id } }, reader.token);
    expect(files()).toEqual([]);
    expect(await rows()).toEqual([]);
  });

  it('refuses what is not an image, too big, or for a closed story, with coded errors, writing nothing', async () => {
    const { adminToken, reader, storyId } = await setup();
    await api.ok(ALLOW, { on: true }, adminToken);
    const html = new TextEncoder().encode('<html><script>alert(1)</script></html>');
    const notImage = await upload(api, storyId, html, reader.token);
    expect(codeOf(notImage)).toBe('UPLOAD_TYPE_NOT_ALLOWED');
    expect(notImage.errors?.[0]?.extensions?.field).toBe('file');
    const big = new Uint8Array(COMMENT_IMAGE_MAX_BYTES + 1);
    big.set(tinyPng());
    expect(codeOf(await upload(api, storyId, big, reader.token))).toBe('UPLOAD_TOO_LARGE');
    expect(codeOf(await upload(api, 'no-such-story', tinyPng(), reader.token))).toBe('NOT_FOUND');
    await api.ok(
      `mutation ($id: ID!) { updateStory(input: { storyId: $id, status: CLOSED }) { story { id } } }`,
      { id: storyId },
      adminToken,
    );
    expect(codeOf(await upload(api, storyId, tinyPng(), reader.token))).toBe('STORY_CLOSED');
    expect(files()).toEqual([]);
    expect(await rows()).toEqual([]);
  });

  it('deletes an upload no comment used after a week, at the uploader’s next upload', async () => {
    const { adminToken, reader, storyId } = await setup();
    await api.ok(ALLOW, { on: true }, adminToken);
    const start = new Date('2026-11-01T00:00:00Z');
    api.setNow(start);
    const unused = await upload(api, storyId, tinyPng(), reader.token);
    const used = await upload(api, storyId, tinyPng(), reader.token);
    await api.ok(POST, { input: { storyId, body: `![](${urlOf(used)})` } }, reader.token);
    api.setNow(new Date(start.getTime() + UNUSED_IMAGE_GRACE_MS + 1000));
    const later = await upload(api, storyId, tinyPng(), reader.token);
    const names = files().sort();
    expect(names).toEqual([urlOf(used), urlOf(later)].map((url) => url.split('/').at(-1)).sort());
    expect(names).not.toContain(urlOf(unused).split('/').at(-1));
  });

  it('shows only the author’s own uploads; one image in two comments stays until both are gone', async () => {
    const { adminToken, reader, storyId } = await setup();
    await api.ok(ALLOW, { on: true }, adminToken);
    const other = await api.signUp('copier');
    const url = urlOf(await upload(api, storyId, tinyPng(), reader.token));
    const post = async (body: string, token: string) =>
      (await api.ok(POST, { input: { storyId, body: body } }, token)).createComment.comment as {
        id: string;
        body: string;
      };
    // Someone else pointing at it gets a link, not the image; its size comes from the record.
    expect((await post(`![mine now](${url})`, other.token)).body).not.toContain('<img');
    const first = await post(`![](${url})`, reader.token);
    expect(first.body).toContain('width="1" height="1"');
    // An edit that adds it to another comment of theirs.
    const second = await post('no image yet', reader.token);
    const EDIT = `mutation ($input: EditCommentInput!) { editComment(input: $input) { comment { body } } }`;
    const edited = await api.ok(
      EDIT,
      { input: { commentId: second.id, body: `now: ![](${url})` } },
      reader.token,
    );
    expect(edited.editComment.comment.body).toContain(`<img src="${url}"`);
    await api.ok(DELETE, { input: { commentId: first.id } }, reader.token);
    expect(files()).toHaveLength(1);
    expect((await rows()).map((row) => row.comment_id)).toEqual([second.id]);
    // A moderator rejecting the last comment that shows it: the file goes at once.
    await api.ok(
      `mutation ($input: RejectCommentInput!) { rejectComment(input: $input) { comment { id } } }`,
      { input: { commentId: second.id } },
      adminToken,
    );
    expect(files()).toEqual([]);
    expect(await rows()).toEqual([]);
  });

  it('lets at most 20 uploads wait for a comment', async () => {
    const { adminToken, reader, storyId } = await setup();
    await api.ok(ALLOW, { on: true }, adminToken);
    for (let i = 0; i < UNUSED_IMAGES_MAX; i += 1) {
      expect((await upload(api, storyId, tinyPng(), reader.token)).errors).toBe(undefined);
    }
    const refused = await upload(api, storyId, tinyPng(), reader.token);
    expect(codeOf(refused)).toBe('RATE_LIMITED');
    expect(files()).toHaveLength(UNUSED_IMAGES_MAX);
  });

  it('sweeps image files no row names (left by a crash) at start, keeping the others', async () => {
    const { adminToken, reader, storyId } = await setup();
    await api.ok(ALLOW, { on: true }, adminToken);
    const kept = urlOf(await upload(api, storyId, tinyPng(), reader.token))
      .split('/')
      .at(-1)!;
    writeFileSync(join(imageDir(), 'fedcba9876543210-5x5.webp'), 'orphan');
    writeFileSync(join(imageDir(), '.upload-0123456789abcdef-5x5.webp'), 'half');
    const later = Date.now() + ORPHAN_UPLOAD_GRACE_MS + 1000;
    const logger = { info: () => undefined, warn: () => undefined };
    expect(await sweepOrphanImages({ ...api.deps, logger }, { now: later })).toBe(2);
    expect(files()).toEqual([kept]);
  });

  it('previews an image as it will post, and keeps image syntax as text while images are off', async () => {
    const { adminToken, reader, storyId } = await setup();
    await api.ok(ALLOW, { on: true }, adminToken);
    const url = urlOf(await upload(api, storyId, tinyPng(), reader.token));
    const PREVIEW = `query ($body: String!) { renderMarkdown(body: $body) }`;
    const on = await api.ok(PREVIEW, { body: `![a](${url})` }, reader.token);
    expect(on.renderMarkdown).toContain(`<img src="${url}" alt="a" width="1" height="1"`);
    // Signed out, nobody's uploads: no image.
    expect((await api.ok(PREVIEW, { body: `![a](${url})` })).renderMarkdown).not.toContain('<img');
    await api.ok(ALLOW, { on: false }, adminToken);
    const off = await api.ok(PREVIEW, { body: `![a](${url})` }, reader.token);
    expect(off.renderMarkdown).not.toContain('<img');
  });
});
