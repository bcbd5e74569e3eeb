/** Stories as moderators manage them: the list, open/close and per-story overrides. */
import { findStoryById, listStories, updateStory } from '../../../db/store/stories';
import { inTransaction } from '../../../db/inTransaction';
import { diff } from '../../../db/store/auditLog';
import { audit } from '../../audit';
import type { StoryPatch } from '../../../db/store/stories';
import { requireRole } from '../../permissions';
import type { Resolvers, UpdateStoryInput } from '../resolverTypes.generated';

/**
 * The patch `input` asks for. For the two overrides, an explicit null means "follow the
 * organization again" and an absent field means "leave as is" — the only way to clear an
 * override through the contract. `status` has no such meaning: null leaves it as it is.
 */
export function storyPatch(input: UpdateStoryInput): StoryPatch {
  const patch: StoryPatch = {};
  if (input.status !== undefined && input.status !== null) patch.status = input.status;
  if (input.premod !== undefined) patch.premod = input.premod;
  if (input.liveUpdates !== undefined) patch.liveUpdates = input.liveUpdates;
  return patch;
}

/** Resolvers of `stories` and `updateStory` (MODERATOR and above). */
export const storyAdminResolvers = {
  Query: {
    stories: (_root, args, ctx) => {
      requireRole(ctx, 'MODERATOR');
      return listStories(
        ctx.db,
        { query: args.query?.trim(), status: args.status, siteId: args.siteId },
        { first: args.first, after: args.after },
      );
    },
  },

  Mutation: {
    // Nothing is published: a closed story refuses new comments when they are written, and the
    // widget reads the story's settings when it loads.
    updateStory: async (_root, { input }, ctx) => {
      requireRole(ctx, 'MODERATOR');
      const story = await inTransaction(ctx.db, async (trx) => {
        const before = await findStoryById(trx, input.storyId);
        const updated = await updateStory(trx, input.storyId, storyPatch(input));
        const changes = diff(before, updated, ['status', 'premod', 'liveUpdates']);
        if (changes.length > 0) {
          await audit(
            ctx,
            trx,
            'STORY_UPDATE',
            { type: 'story', id: updated.id, label: updated.url },
            changes,
          );
        }
        return updated;
      });
      ctx.loaders.story.clear(story.id);
      return { story };
    },
  },
} satisfies Resolvers;
