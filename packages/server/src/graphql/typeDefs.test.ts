import { buildSchema, getNamedType, isEnumType, isInputObjectType, isNonNullType } from 'graphql';
import type { GraphQLObjectType } from 'graphql';
import { SERVER_ERROR_CODES } from '@parley/contract';
import { typeDefs } from './typeDefs';

// The public contract (packages/contract/schema.graphql): these names are what integrators and our
// own clients rely on.
const schema = buildSchema(typeDefs);
const fieldsOf = (name: string) =>
  Object.keys((schema.getType(name) as GraphQLObjectType).getFields());
const enumValues = (name: string) => {
  const type = schema.getType(name);
  return isEnumType(type) ? type.getValues().map((v) => v.name) : [];
};

describe('the GraphQL contract', () => {
  it('has every query the clients rely on', () => {
    expect(fieldsOf('Query')).toEqual(
      expect.arrayContaining([
        'viewer',
        'settings',
        'sites',
        'story',
        'comment',
        'moderationQueue',
        'moderationCounts',
        'users',
        'stories',
        'dashboard',
      ]),
    );
    const story = schema.getQueryType()!.getFields().story!;
    expect(story.args.map((a) => a.name)).toEqual(expect.arrayContaining(['id', 'url']));
  });

  it('has every mutation, each taking one input object (or a file) and returning a payload', () => {
    const mutations = schema.getMutationType()!.getFields();
    const expected = [
      'install',
      'signUp',
      'confirmSignUp',
      'signIn',
      'signOut',
      'createComment',
      'editComment',
      'createReaction',
      'removeReaction',
      'reportComment',
      'approveComment',
      'rejectComment',
      'featureComment',
      'unfeatureComment',
      'pinComment',
      'unpinComment',
      'vote',
      'uploadCommentImage',
      'banUser',
      'unbanUser',
      'suspendUser',
      'setUserPremod',
      'setUserRole',
      'updateSettings',
      'updateStory',
      'createSite',
      'updateSite',
      'rotateSsoKey',
      'updateUsername',
      'updateEmail',
      'updatePassword',
      'updateNotificationSettings',
      'uploadAvatar',
      'requestPasswordReset',
      'resetPassword',
      'confirmEmail',
      'sendEmailConfirmation',
      'unsubscribe',
      'requestCommentsDownload',
      'requestAccountDeletion',
      'cancelAccountDeletion',
      'ignoreUser',
      'unignoreUser',
      'signInSecondFactor',
      'startTwoFactorEnrolment',
      'confirmTwoFactorEnrolment',
      'regenerateRecoveryCodes',
      'disableTwoFactor',
      'endSession',
    ];
    expect(Object.keys(mutations)).toEqual(expect.arrayContaining(expected));
    for (const field of Object.values(mutations)) {
      expect(field.args.length).toBeLessThanOrEqual(1);
      const [arg] = field.args;
      if (arg && arg.name === 'input') {
        expect(isNonNullType(arg.type) && isInputObjectType(arg.type.ofType)).toBe(true);
      } else if (arg) {
        expect([field.name, arg.name, getNamedType(arg.type).name]).toEqual([
          'uploadAvatar',
          'file',
          'File',
        ]);
      }
      expect(getNamedType(field.type).name).toMatch(/Payload$/);
    }
    const createComment = schema.getType('CreateCommentInput');
    expect(Object.keys((createComment as GraphQLObjectType).getFields())).toEqual([
      'storyId',
      'body',
      'parentId',
      'clientMutationId',
    ]);
  });

  it('has the three subscriptions', () => {
    expect(fieldsOf('Subscription')).toEqual([
      'commentCreated',
      'commentUpdated',
      'moderationQueueUpdated',
    ]);
  });

  it('gives Story and Comment the fields and sorts of the contract, with Relay connections', () => {
    expect(fieldsOf('Story')).toEqual(
      expect.arrayContaining([
        'id',
        'url',
        'title',
        'status',
        'commentCount',
        'comments',
        'featuredComments',
        'settings',
      ]),
    );
    expect(fieldsOf('Comment')).toEqual(
      expect.arrayContaining([
        'id',
        'body',
        'author',
        'parent',
        'replies',
        'replyCount',
        'status',
        'tags',
        'createdAt',
        'editedAt',
        'editableUntil',
        'reactionCount',
        'viewerReacted',
        'story',
        'bodySource',
        'reports',
        'heldBecause',
        'revisions',
      ]),
    );
    expect(fieldsOf('CommentConnection')).toEqual(['edges', 'pageInfo']);
    expect(fieldsOf('CommentEdge')).toEqual(['cursor', 'node']);
    expect(fieldsOf('PageInfo')).toEqual(['hasNextPage', 'endCursor']);
    expect(enumValues('CommentSort')).toEqual([
      'CREATED_AT_DESC',
      'CREATED_AT_ASC',
      'REPLIES_DESC',
      'REACTIONS_DESC',
      'BEST',
    ]);
    expect(enumValues('ModerationQueue')).toEqual([
      'PENDING',
      'REPORTED',
      'UNMODERATED',
      'APPROVED',
      'REJECTED',
    ]);
  });

  it('shares the error codes the issue lists with the clients', () => {
    expect(SERVER_ERROR_CODES).toEqual(
      expect.arrayContaining([
        'UNAUTHENTICATED',
        'FORBIDDEN',
        'INVALID_INPUT',
        'NOT_FOUND',
        'USERNAME_TAKEN',
        'EMAIL_TAKEN',
        'INVALID_CREDENTIALS',
        'COMMENT_EMPTY',
        'COMMENT_TOO_LONG',
        'BANNED_WORD',
        'EDIT_WINDOW_EXPIRED',
        'STORY_CLOSED',
        'USER_BANNED',
        'USER_SUSPENDED',
        'RATE_LIMITED',
        'ORIGIN_NOT_PERMITTED',
        'ALREADY_INSTALLED',
        'NOT_INSTALLED',
        'TOKEN_INVALID',
        'TOKEN_EXPIRED',
        'UPLOAD_TOO_LARGE',
        'UPLOAD_TYPE_NOT_ALLOWED',
        'INTERNAL',
      ]),
    );
  });

  it('lets the SMTP password be written but never read', () => {
    expect(fieldsOf('Settings')).toEqual(
      expect.arrayContaining(['smtpHost', 'smtpPasswordSet', 'smtpFromEnvironment']),
    );
    expect(fieldsOf('Settings')).not.toContain('smtpPassword');
    const input = schema.getType('UpdateSettingsInput');
    expect(isInputObjectType(input) && Object.keys(input.getFields())).toEqual(
      expect.arrayContaining(['smtpHost', 'smtpPort', 'smtpSecure', 'smtpUser', 'smtpPassword']),
    );
  });
});
