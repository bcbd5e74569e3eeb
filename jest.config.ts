/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

// ESM-only packages that Jest (CommonJS mode) must transform.
const ESM_ONLY = [
  'msw',
  '@mswjs',
  'rettime',
  'until-async',
  '@open-draft',
  'preact',
  'wouter',
  'regexparam',
  'mitt',
  'tiny-lru',
  'graphql-ws',
  'wonka',
  '@urql',
  '@0no-co',
  '@sentry',
  '@sentry-internal',
  'jose',
  'file-type',
  'strtok3',
  'token-types',
  'peek-readable',
  'uint8array-extras',
  '@tokenizer',
  '@borewit',
  'feed',
  'openid-client',
  'oauth4webapi',
  'arctic',
  '@oslojs',
  'oidc-provider',
  '@formatjs',
];

const transform: Config['transform'] = {
  '^.+\\.[cm]?[jt]sx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic' } },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};

export const shared = {
  transform,
  transformIgnorePatterns: [`node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  setupFiles: ['<rootDir>/jest.setup.ts'],
  rootDir: __dirname,
} satisfies Config;

// The widget's JSX and React code run on Preact, as in the rollup build.
const preactTransform: Config['transform'] = {
  '^.+\\.[cm]?[jt]sx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic', importSource: 'preact' } },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};
const preact = {
  ...shared,
  transform: preactTransform,
};

const config: Config = {
  // Against real databases, with scrypt for every password (sign-up, sign-in, install): on a
  // two-core machine running two workers, suites that took 3 s alone took 5 s and more on loaded
  // CI runs. Slowness is measured by the benchmarks, not by test timeouts. Global: Jest reads
  // `testTimeout` only here, not per project (set on the server project, tests still stopped at
  // the default 5 s: a 61-reaction test on PostgreSQL and the Sentry report test, in one CI run).
  testTimeout: 20_000,
  projects: [
    {
      ...shared,
      displayName: 'transport',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/packages/transport/**/*.test.ts'],
    },
    {
      // The same msw suite in a browser-like environment (jsdom's fetch, FormData, storage).
      ...shared,
      displayName: 'transport (jsdom)',
      testEnvironment: 'jest-fixed-jsdom',
      testMatch: ['<rootDir>/packages/transport/src/createTransport.test.ts'],
    },
    {
      // The message catalogs (locales/*/*.json) against English, and their compiler.
      ...shared,
      displayName: 'locales',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/locales/**/*.test.ts'],
    },
    {
      ...shared,
      displayName: 'contract',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/packages/contract/**/*.test.ts'],
    },
    {
      ...preact,
      displayName: 'embed',
      testEnvironment: 'jest-fixed-jsdom',
      testMatch: ['<rootDir>/packages/embed/**/*.test.ts'],
    },
    {
      // The site-builder snippets of examples/static-sites, run through the real loader. The
      // Docusaurus component names React itself (`@jsxImportSource react`).
      ...preact,
      displayName: 'examples',
      testEnvironment: 'jest-fixed-jsdom',
      testMatch: ['<rootDir>/examples/static-sites/**/*.test.ts'],
    },
    {
      // @parley/react on React itself (never aliased to Preact): what host apps run.
      ...shared,
      displayName: 'react',
      testEnvironment: 'jest-fixed-jsdom',
      testMatch: ['<rootDir>/packages/react/**/*.test.{ts,tsx}'],
    },
    {
      ...preact,
      displayName: 'stream',
      testEnvironment: 'jest-fixed-jsdom',
      testMatch: ['<rootDir>/packages/stream/src/**/*.test.{ts,tsx}'],
    },
    {
      ...shared,
      displayName: 'admin',
      testEnvironment: 'jest-fixed-jsdom',
      testMatch: ['<rootDir>/packages/admin/src/**/*.test.{ts,tsx}'],
    },
    {
      // Real server + real Chromium: the widget and the console end to end.
      ...shared,
      displayName: 'stream (browser)',
      testEnvironment: 'node',
      testMatch: [
        '<rootDir>/packages/stream/__integration-tests__/**/*.test.ts',
        '<rootDir>/packages/admin/__integration-tests__/**/*.test.ts',
      ],
    },
    {
      ...shared,
      displayName: 'server',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/packages/server/**/*.test.ts'],
    },
  ],
};

export default config;
