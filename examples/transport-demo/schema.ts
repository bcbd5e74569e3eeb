import { createPubSub, createSchema } from 'graphql-yoga';

/** A counter everyone shares: enough schema to exercise queries, mutations and subscriptions. */
export function createDemoSchema() {
  const pubsub = createPubSub<{ counterChanged: [{ id: string; value: number }] }>();
  const counter = { id: 'demo', value: 0 };
  // The server side of the transport's retry contract: a mutation retried with the same
  // Idempotency-Key returns the first answer instead of counting twice.
  const seenKeys = new Map<string, { id: string; value: number }>();

  const schema = createSchema<{ request: Request }>({
    typeDefs: /* GraphQL */ `
      type Counter {
        id: ID!
        value: Int!
      }
      type Query {
        counter: Counter!
      }
      type Mutation {
        increment(by: Int = 1): Counter!
      }
      type Subscription {
        counterChanged: Counter!
      }
    `,
    resolvers: {
      Query: { counter: () => ({ ...counter }) },
      Mutation: {
        increment: (_root, { by }: { by: number }, { request }) => {
          const key = request.headers.get('idempotency-key');
          const earlier = key ? seenKeys.get(key) : undefined;
          if (earlier) return earlier;
          counter.value += by;
          const snapshot = { ...counter };
          if (key) seenKeys.set(key, snapshot);
          pubsub.publish('counterChanged', snapshot);
          return snapshot;
        },
      },
      Subscription: {
        counterChanged: {
          subscribe: () => pubsub.subscribe('counterChanged'),
          resolve: (payload: { id: string; value: number }) => payload,
        },
      },
    },
  });
  return schema;
}
