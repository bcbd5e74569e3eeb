import type { GraphQLSchema } from 'graphql';
import { createSchema } from 'graphql-yoga';
import { ParleyError } from '../../ParleyError';
import type { ParleyPubSub } from '../../pubsub/createPubSub';
import type { ContextFactory, ContextInit } from '../createYogaApp';

/**
 * A tiny schema for the runtime's tests (the real schema is built elsewhere): it echoes what the
 * context received, throws both kinds of error, nests without limit (for graphql-armor) and
 * publishes and subscribes through the pub/sub. Test support only; nothing in production uses it.
 */
export const TEST_TYPE_DEFS = /* GraphQL */ `
  type Query {
    hello: String!
    token: String
    transport: String!
    ip: String
    unexpected: String
    forbidden: String
    node: Node!
    "Answers after ms milliseconds (a request still in flight when the server closes)."
    slow(ms: Int!): String!
  }
  type Node {
    value: Int!
    child: Node!
  }
  type CommentEvent {
    commentId: ID!
    storyId: ID!
  }
  type Mutation {
    publishComment(storyId: ID!, commentId: ID!): Boolean!
  }
  type Subscription {
    commentCreated(storyId: ID!): CommentEvent!
    unexpected: String
  }
`;

/** The secret an unexpected error carries; tests assert it never reaches a client. */
export const SECRET_ERROR_TEXT = 'connection string postgres://admin:hunter2@db';

/** Context of the test schema. */
export interface TestContext extends ContextInit {
  /** Where mutations publish and subscriptions listen. */
  pubsub: ParleyPubSub;
}

/** A context factory for the test schema; it fails with TOKEN_INVALID for the token `bad`. */
export function createTestContext(pubsub: ParleyPubSub): ContextFactory {
  return async (init) => {
    if (init.token === 'bad') throw new ParleyError('TOKEN_INVALID', 'The token is not valid.');
    return { ...init, pubsub } satisfies TestContext;
  };
}

/** Builds the test schema. */
export function createTestSchema(): GraphQLSchema {
  const node = (value: number): { value: number; child: () => unknown } => ({
    value,
    child: () => node(value + 1),
  });
  return createSchema<TestContext>({
    typeDefs: TEST_TYPE_DEFS,
    resolvers: {
      Query: {
        hello: () => 'world',
        token: (_root, _args, ctx) => ctx.token,
        transport: (_root, _args, ctx) => ctx.transport,
        ip: (_root, _args, ctx) => ctx.ip ?? null,
        unexpected: () => {
          throw new Error(SECRET_ERROR_TEXT);
        },
        forbidden: () => {
          throw new ParleyError('FORBIDDEN', 'Moderators only.', { field: 'role' });
        },
        node: () => node(1),
        slow: (_root, { ms }: { ms: number }) =>
          new Promise<string>((resolve) => setTimeout(resolve, ms, 'done')),
      },
      Mutation: {
        publishComment: (_root, args: { storyId: string; commentId: string }, ctx) => {
          ctx.pubsub.publish('commentCreated', args.storyId, {
            commentId: args.commentId,
            storyId: args.storyId,
          });
          return true;
        },
      },
      Subscription: {
        commentCreated: {
          subscribe: (_root, args: { storyId: string }, ctx) =>
            ctx.pubsub.subscribe('commentCreated', args.storyId),
          resolve: (event: unknown) => event,
        },
        unexpected: {
          // eslint-disable-next-line require-yield
          subscribe: async function* () {
            throw new Error(SECRET_ERROR_TEXT);
          },
        },
      },
    },
  });
}
