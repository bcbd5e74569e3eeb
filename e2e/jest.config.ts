/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';
import { shared } from '../jest.config';

// The end-to-end suite (`npm run test:e2e`): every user journey in Debian's Chromium against the
// real server built from the packages, one file at a time (each starts its own server and browser;
// the machine has two cores).
const config: Config = {
  ...shared,
  displayName: 'e2e',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/e2e/**/*.e2e.ts'],
  // A journey waits on a real browser and server: generous, but bounded.
  testTimeout: 120_000,
  maxWorkers: 1,
};

export default config;
