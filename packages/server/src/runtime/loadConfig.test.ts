import { ConfigError, loadConfig } from './loadConfig';

describe('loadConfig', () => {
  it('applies the defaults to an empty environment', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      examplePort: 8080,
      publicUrl: 'http://127.0.0.1:3000',
      dataDir: './.parley-data',
      databaseUrl: undefined,
      redisUrl: undefined,
      redisPrefix: 'parley:',
      smtpUrl: undefined,
      secret: undefined,
      previousSecret: undefined,
      logLevel: 'info',
      logFormat: undefined,
      production: false,
      trustedProxies: 0,
      metricsToken: undefined,
      allowArbitraryDocuments: true,
      migrate: true,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '4000',
      HOST: '0.0.0.0',
      EXAMPLE_PORT: '0',
      PUBLIC_URL: 'https://comments.example.com/',
      PARLEY_DATA_DIR: '/var/lib/parley',
      DATABASE_URL: 'postgres://parley@127.0.0.1:5432/parley',
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_PREFIX: 'news:',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      AKISMET_API_KEY: ' akismet-key ',
      AKISMET_URL: 'http://127.0.0.1:9999',
      PARLEY_SECRET: 's3cret',
      PARLEY_SECRET_PREVIOUS: 'old-s3cret',
      LOG_LEVEL: 'DEBUG',
      LOG_FORMAT: 'Pretty',
      NODE_ENV: 'production',
      TRUST_PROXY: '1',
      METRICS_TOKEN: 'm-secret',
      GRAPHQL_ALLOW_ARBITRARY: 'true',
      PARLEY_MIGRATE: 'false',
    });
    expect(config).toEqual({
      port: 4000,
      host: '0.0.0.0',
      examplePort: 0,
      publicUrl: 'https://comments.example.com',
      dataDir: '/var/lib/parley',
      databaseUrl: 'postgres://parley@127.0.0.1:5432/parley',
      redisUrl: 'redis://127.0.0.1:6379',
      redisPrefix: 'news:',
      smtpUrl: 'smtps://user:pass@mail.example.com:465',
      akismetApiKey: 'akismet-key',
      akismetUrl: 'http://127.0.0.1:9999',
      secret: 's3cret',
      previousSecret: 'old-s3cret',
      logLevel: 'debug',
      logFormat: 'pretty',
      production: true,
      trustedProxies: 1,
      metricsToken: 'm-secret',
      allowArbitraryDocuments: true,
      migrate: false,
    });
  });

  it('runs only trusted documents in production unless GRAPHQL_ALLOW_ARBITRARY=true', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).allowArbitraryDocuments).toBe(false);
    expect(
      loadConfig({ NODE_ENV: 'production', GRAPHQL_ALLOW_ARBITRARY: 'true' })
        .allowArbitraryDocuments,
    ).toBe(true);
    expect(loadConfig({ GRAPHQL_ALLOW_ARBITRARY: 'false' }).allowArbitraryDocuments).toBe(false);
    expect(() => loadConfig({ GRAPHQL_ALLOW_ARBITRARY: 'yes' })).toThrow(
      'Invalid GRAPHQL_ALLOW_ARBITRARY: expected `true` or `false`, received "yes".',
    );
  });

  it('derives PUBLIC_URL from HOST and PORT', () => {
    expect(loadConfig({ HOST: '::1', PORT: '5000' }).publicUrl).toBe('http://[::1]:5000');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
    });
  });

  it('is silent under Jest (NODE_ENV=test) unless LOG_LEVEL says otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).logLevel).toBe('silent');
    expect(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
  });

  it.each([
    ['REDIS_PREFIX', 'my app:', /Invalid REDIS_PREFIX: expected up to 64 printable characters/],
    ['LOG_FORMAT', 'text', /Invalid LOG_FORMAT: expected one of json, pretty, received "text"/],
    ['PORT', 'abc', /Invalid PORT: expected a port number from 0 to 65535, received "abc"/],
    ['PORT', '70000', /Invalid PORT/],
    ['PORT', '-1', /Invalid PORT/],
    ['EXAMPLE_PORT', '80.5', /Invalid EXAMPLE_PORT/],
    ['TRUST_PROXY', 'yes', /Invalid TRUST_PROXY: expected a number of proxy hops from 0 to 10/],
    [
      'PUBLIC_URL',
      'comments.example.com',
      /Invalid PUBLIC_URL: expected a URL starting with http:\/\//,
    ],
    ['PUBLIC_URL', 'ftp://example.com', /Invalid PUBLIC_URL/],
    [
      'DATABASE_URL',
      'mysql://root@localhost/db',
      /Invalid DATABASE_URL: expected a URL starting with postgres:\/\//,
    ],
    ['REDIS_URL', '127.0.0.1:6379', /Invalid REDIS_URL/],
    ['SMTP_URL', 'http://mail', /Invalid SMTP_URL/],
    ['AKISMET_URL', 'ftp://akismet', /Invalid AKISMET_URL/],
    ['LOG_LEVEL', 'loud', /Invalid LOG_LEVEL: expected one of fatal, error/],
  ])('rejects %s=%s with an error naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
  });

  it('never echoes a password from a rejected URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db/x' })).toThrow(
      'received "mysql://***@db/x"',
    );
  });
});
