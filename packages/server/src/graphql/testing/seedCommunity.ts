/**
 * A small community for moderation and admin tests: an installed organization, one user of each
 * role with a session token, a commenter to act on, a story and comments. Built through the
 * stores, not the API: no password hashing, so a table of a hundred cases stays fast. Test-only.
 */
import { testBox } from '../../db/testFixtures';
import { createComment } from '../../db/store/comments';
import type { Comment, CreateCommentInput } from '../../db/store/comments';
import { install } from '../../db/store/organization';
import type { Site } from '../../db/store/sites';
import { findOrCreateStory } from '../../db/store/stories';
import type { Story } from '../../db/store/stories';
import { createUser } from '../../db/store/users';
import type { User } from '../../db/store/users';
import type { UserRole } from '../../db/schema';
import type { Api } from './useApi';
import { SITE_ORIGIN } from './useApi';

/** A signed-in fixture user. */
export interface Member {
  user: User;
  token: string;
}

/** What {@link seedCommunity} created. */
export interface Community {
  site: Site;
  story: Story;
  admin: Member;
  moderator: Member;
  staff: Member;
  commenter: Member;
  /** A second commenter: the one moderators act on. */
  target: Member;
  /** Writes a comment by `target` on the story (a published one unless told otherwise). */
  comment(input?: Partial<CreateCommentInput>): Promise<Comment>;
  /** Creates another signed-in user. */
  member(username: string, role?: UserRole): Promise<Member>;
}

/** Seeds the community of one test on `api`'s fresh database. */
export async function seedCommunity(api: Api): Promise<Community> {
  const { site, admin: adminUser } = await install(
    api.db,
    {
      organization: { name: 'Example News', contactEmail: 'team@example.com', url: SITE_ORIGIN },
      site: { name: 'Example', url: SITE_ORIGIN, allowedOrigins: [SITE_ORIGIN] },
      admin: { email: 'admin@example.com', username: 'admin', passwordHash: 'not-a-hash' },
    },
    testBox,
  );
  const signed = async (user: User): Promise<Member> => ({
    user,
    token: await api.deps.tokens.sign({ userId: user.id, role: user.role }),
  });
  const member = async (username: string, role: UserRole = 'COMMENTER') =>
    signed(
      await createUser(api.db, {
        username,
        email: `${username}@example.com`,
        passwordHash: 'not-a-hash',
        role,
      }),
    );
  const { story } = await findOrCreateStory(api.db, {
    siteId: site.id,
    url: `${SITE_ORIGIN}/story`,
    title: 'A story',
  });
  const target = await member('target');
  return {
    site,
    story,
    admin: await signed(adminUser),
    moderator: await member('moderator', 'MODERATOR'),
    staff: await member('staff', 'STAFF'),
    commenter: await member('commenter'),
    target,
    member,
    comment: async (input = {}) =>
      (
        await createComment(api.db, {
          storyId: story.id,
          authorId: target.user.id,
          bodySource: 'text',
          bodyHtml: '<p>text</p>',
          ...input,
        })
      ).comment,
  };
}
