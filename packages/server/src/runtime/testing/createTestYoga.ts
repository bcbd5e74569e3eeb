import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createPubSub } from '../../pubsub/createPubSub';
import type { ParleyPubSub } from '../../pubsub/createPubSub';
import { createLogger } from '../createLogger';
import { createYogaApp } from '../createYogaApp';
import type { CreateYogaAppOptions, ParleyYoga } from '../createYogaApp';
import { createOriginPolicy } from '../plugins/originPolicy';
import type { OriginPolicyOptions } from '../plugins/originPolicy';
import { createTestContext, createTestSchema } from './createTestSchema';

/** The origin the test sites permit. */
export const TEST_SITE_ORIGIN = 'https://site.example';
/** The test server's public URL. */
export const TEST_PUBLIC_URL = 'http://127.0.0.1:3000';

/** What {@link createTestYoga} returns. */
export interface TestYoga {
  /** The app; call `yoga.fetch('http://test/graphql', …)`. */
  yoga: ParleyYoga;
  /** Parsed log lines written at level error and above. */
  logs: Array<Record<string, unknown>>;
  /** A logger that writes into `logs`. */
  logger: Logger;
  /** The in-process pub/sub behind the test schema. */
  pubsub: ParleyPubSub;
}

/** A logger whose lines are kept in memory, so tests can assert what was logged. */
export function createMemoryLogger(): { logger: Logger; logs: Array<Record<string, unknown>> } {
  const logs: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ level: 'warn', destination }), logs };
}

/** A schema (the test schema unless given) in yoga with every runtime plugin, for in-process tests. */
export function createTestYoga(
  options: Partial<
    Pick<CreateYogaAppOptions, 'production' | 'maxRequestBodyBytes' | 'schema' | 'trustedDocuments'>
  > &
    Partial<OriginPolicyOptions> = {},
): TestYoga {
  const { logger, logs } = createMemoryLogger();
  const pubsub = createPubSub();
  const originPolicy = createOriginPolicy({
    getAllowedOrigins: async () => [TEST_SITE_ORIGIN],
    publicUrl: TEST_PUBLIC_URL,
    logger,
    ...options,
  });
  const yoga = createYogaApp({
    schema: options.schema ?? createTestSchema(),
    context: createTestContext(pubsub),
    originPolicy,
    logger,
    production: options.production,
    maxRequestBodyBytes: options.maxRequestBodyBytes,
    trustedDocuments: options.trustedDocuments,
  });
  return { yoga, logs, logger, pubsub };
}

/** POSTs a GraphQL request to the in-process app. */
export function postGraphQL(
  yoga: ParleyYoga,
  body: { query: string; variables?: Record<string, unknown> },
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(
    yoga.fetch('http://test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );
}

/** Media type of the GraphQL-over-HTTP spec's response format. */
export const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json';
