/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

// ESM-only packages that Jest (CommonJS mode) must transform (STACK.md trap 4).
const ESM_ONLY = [
  'msw',
  '@mswjs',
  'rettime',
  'until-async',
  '@open-draft',
  'preact',
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
];

const transform: Config['transform'] = {
  '^.+\\.[cm]?[jt]sx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};

const shared = {
  transform,
  transformIgnorePatterns: [`node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  moduleNameMapper: {
    '^@parley/transport$': '<rootDir>/packages/transport/src/index.ts',
    '^@parley/server/error-codes$': '<rootDir>/packages/server/src/errorCodes.ts',
  },
  setupFiles: ['<rootDir>/jest.setup.ts'],
  rootDir: __dirname,
} satisfies Config;

const config: Config = {
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
      ...shared,
      displayName: 'server',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/packages/server/**/*.test.ts'],
    },
  ],
};

export default config;
