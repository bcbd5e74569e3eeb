/**
 * Images in comments, while the site allows them (`Settings.commentImages`): the upload, and how
 * a comment's Markdown shows them (only this server's own uploads, uploads/commentImages.ts).
 */
import { countUnusedImages, deleteUnusedImages, imageSizes } from '../../db/store/commentImages';
import { COMMENT_IMAGE_MAX_BYTES, UNUSED_IMAGE_GRACE_MS, UNUSED_IMAGES_MAX } from '../../defaults';
import { renderComment } from '../../markdown/renderComment';
import { ParleyError } from '../../ParleyError';
import {
  imageNamesIn,
  imageUrlPrefix,
  removeImageFiles,
  storeCommentImage,
} from '../../uploads/commentImages';
import { renderCommentImage } from '../../uploads/renderCommentImage';
import { sniffImage } from '../../uploads/sniffImage';
import { ipKey } from '../context';
import type { ParleyContext } from '../context';
import { requireActiveUser, requireHomeSite } from '../permissions';
import type { Resolvers } from './resolverTypes.generated';
import { effectiveStoryStatus } from './stories';

/**
 * `authorId`'s `body` rendered as this site shows it now: when the site allows images, with those
 * of its images that `authorId` uploaded here, sized from their records (anyone else's upload, a
 * name never given, a size written into a URL: none of them becomes an image). `imageNames` are
 * the uploads it shows, which the comment then keeps (attachCommentImages).
 */
export async function renderCommentBody(
  ctx: ParleyContext,
  authorId: string | undefined,
  body: string,
): Promise<{ html: string; imageNames: string[] }> {
  const { commentImages } = await ctx.settings();
  if (!commentImages || authorId === undefined)
    return { html: renderComment(body), imageNames: [] };
  const prefix = imageUrlPrefix(ctx.publicUrl);
  const sizes = await imageSizes(ctx.db, authorId, imageNamesIn(prefix, body));
  const images = new Map(sizes.map(({ name, ...size }) => [prefix + name, size]));
  return { html: renderComment(body, { images }), imageNames: sizes.map((image) => image.name) };
}

export const commentImageResolvers = {
  Mutation: {
    uploadCommentImage: async (_root, { input: { storyId, file } }, ctx) => {
      const uploader = requireActiveUser(ctx);
      const settings = await ctx.settings();
      if (!settings.commentImages) {
        throw new ParleyError('FORBIDDEN', 'This site does not allow images in comments.');
      }
      const story = await ctx.loaders.story.load(storyId);
      if (!story)
        throw new ParleyError('NOT_FOUND', 'There is no such story.', { field: 'storyId' });
      requireHomeSite(uploader, story);
      if (effectiveStoryStatus(story, settings, ctx.now()) === 'CLOSED') {
        throw new ParleyError('STORY_CLOSED', 'Comments on this story are closed.');
      }
      // The File scalar parses nothing: a request that is not multipart can send any JSON value.
      const sent: Partial<File> | null | undefined = file;
      if (sent === null || sent === undefined || typeof sent.arrayBuffer !== 'function') {
        throw new ParleyError('INVALID_INPUT', 'Send the image as a multipart file upload.', {
          field: 'file',
        });
      }
      // Counted before reading: a refused upload costs no work.
      await ctx.rateLimiter.consume('imageUpload', `user:${uploader.id}`);
      await ctx.rateLimiter.consume('imageUploadPerIp', ipKey(ctx));
      // Uploads waiting for a comment are disk nobody reads yet: a few at a time.
      const now = ctx.now();
      const before = new Date(now.getTime() - UNUSED_IMAGE_GRACE_MS).toISOString();
      await removeImageFiles(ctx, await deleteUnusedImages(ctx.db, before, uploader.id));
      if ((await countUnusedImages(ctx.db, uploader.id)) >= UNUSED_IMAGES_MAX) {
        throw new ParleyError(
          'RATE_LIMITED',
          `At most ${UNUSED_IMAGES_MAX} images can wait to be posted: post some first (unused ones go after a week).`,
          { retryAfterSeconds: 3600 },
        );
      }
      // Bounded by the request body limit (3 MB), which yoga enforces before this runs.
      const bytes = new Uint8Array(await file.arrayBuffer());
      await sniffImage(bytes, { maxBytes: COMMENT_IMAGE_MAX_BYTES, what: 'An image' });
      const image = await renderCommentImage(bytes);
      const { url } = await storeCommentImage(
        ctx,
        { userId: uploader.id, storyId: story.id, createdAt: now.toISOString() },
        image,
      );
      return { image: { url, width: image.width, height: image.height } };
    },
  },
} satisfies Resolvers;
