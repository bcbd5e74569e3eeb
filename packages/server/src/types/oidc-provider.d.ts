// oidc-provider ships no types (and @types/oidc-provider lags its majors): only what the test
// provider (auth/providers/testing/testOidcProvider.ts) uses is declared.
declare module 'oidc-provider' {
  import type { Server } from 'node:http';

  interface ProviderAccount {
    accountId: string;
    claims(): Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  interface ProviderConfiguration {
    clients?: Record<string, unknown>[];
    claims?: Record<string, string[]>;
    pkce?: { required?: () => boolean };
    ttl?: Record<string, number>;
    findAccount?: (ctx: unknown, id: string) => ProviderAccount | Promise<ProviderAccount>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: ProviderConfiguration);
    proxy: boolean;
    listen(port: number, host: string): Server;
  }
}
