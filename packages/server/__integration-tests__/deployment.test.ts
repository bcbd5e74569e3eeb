import { SHUTDOWN_DEADLINE_MS } from '../src/defaults';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPOSITORY_ROOT } from '../src/clientBuilds';
import { PORT } from '../src/defaults';
import { HEALTH_PATH } from '../src/runtime/createHttpServer';

// No Docker engine runs on the machines that test Parley, so the deployment files are checked
// here against the code: every service, port, volume, path and variable compose.yaml, the
// Dockerfile and the Caddyfile rely on must exist, so that no typo can hide in them.
const file = (path: string) => readFileSync(join(REPOSITORY_ROOT, path), 'utf8');

interface Service {
  build?: string;
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
}

const compose = parse(file('compose.yaml'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const dockerfile = file('Dockerfile');
const caddyfile = file('deploy/Caddyfile');

/** The variables loadConfig reads (its `read('NAME')` calls), the server's whole environment. */
const CONFIG_VARIABLES = new Set(
  [...file('packages/server/src/runtime/loadConfig.ts').matchAll(/read\('([A-Z_]+)'\)/g)].map(
    (m) => m[1]!,
  ),
);
/** `ENV` of the Dockerfile's last stage. */
const imageEnv = Object.fromEntries(
  [
    ...dockerfile
      .split(/^FROM /m)
      .at(-1)!
      .matchAll(/\b([A-Z_]+)=(\S+)/g),
  ].map((m) => [m[1]!, m[2]!]),
);
const parleyServices = Object.entries(compose.services).filter(([, s]) => s.build === '.');

describe('compose.yaml, the Dockerfile and the Caddyfile', () => {
  it('has every service the deployment needs', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['caddy', 'migrate', 'parley-1', 'parley-2', 'postgres', 'redis'].sort(),
    );
    expect(parleyServices.map(([name]) => name).sort()).toEqual([
      'migrate',
      'parley-1',
      'parley-2',
    ]);
  });

  it('gives the instances more time to stop than the server takes', () => {
    for (const [name, service] of parleyServices.filter(([n]) => n !== 'migrate')) {
      const grace = /^(\d+)s$/.exec(service.stop_grace_period ?? '');
      expect([name, Number(grace?.[1]) * 1000 > SHUTDOWN_DEADLINE_MS]).toEqual([name, true]);
    }
  });

  it('sets only variables the server reads, and the image only those too', () => {
    expect(CONFIG_VARIABLES.size).toBeGreaterThan(10);
    for (const [name, service] of parleyServices) {
      for (const variable of Object.keys(service.environment ?? {})) {
        expect([name, variable, CONFIG_VARIABLES.has(variable)]).toEqual([name, variable, true]);
      }
    }
    for (const variable of Object.keys(imageEnv)) {
      expect([variable, CONFIG_VARIABLES.has(variable)]).toEqual([variable, true]);
    }
  });

  it('points the instances at the database, Redis and the shared data folder that exist', () => {
    const postgres = compose.services['postgres']!.environment!;
    for (const [name, service] of parleyServices) {
      const database = new URL(service.environment!['DATABASE_URL']!.replace(/\$\{[^}]+\}/g, 'x'));
      expect([name, database.hostname, database.port]).toEqual([name, 'postgres', '5432']);
      expect(database.username).toBe(postgres['POSTGRES_USER']);
      expect(database.pathname).toBe(`/${postgres['POSTGRES_DB']}`);
      if (name === 'migrate') continue;
      expect(new URL(service.environment!['REDIS_URL']!).hostname).toBe('redis');
      // Avatars uploaded on one instance are served by the other: one volume at the data folder.
      expect(service.volumes).toEqual([`parley-data:${imageEnv['PARLEY_DATA_DIR']}`]);
      // They refuse a schema they do not know: the migrate service runs first.
      expect(service.environment!['PARLEY_MIGRATE']).toBe('false');
      expect(service.depends_on).toMatchObject({
        migrate: { condition: 'service_completed_successfully' },
      });
    }
    expect(compose.services['migrate']!.command).toEqual(['migrate']);
  });

  it('declares every named volume it mounts, and mounts files that exist', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const volume of service.volumes ?? []) {
        const [source] = volume.split(':');
        if (source!.startsWith('./'))
          expect([name, existsSync(join(REPOSITORY_ROOT, source!))]).toEqual([name, true]);
        else expect([name, source, source! in compose.volumes]).toEqual([name, source, true]);
      }
    }
  });

  it('runs the server as the command says, on the port and health path the code has', () => {
    expect(imageEnv['PORT']).toBe(String(PORT));
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${PORT}$`, 'm'));
    expect(dockerfile).toContain(`${HEALTH_PATH}'`);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/app\/node_modules\/\.bin\/parley"\]$/m);
    expect(dockerfile).toMatch(/^CMD \["start"\]$/m);
    // The same steps as `npm run test:package`.
    expect(dockerfile).toContain('npm pack -w packages/server');
    expect(dockerfile).toContain('npm install --omit=dev');
    const tested = file('scripts/strangerInstall.ts');
    expect(tested).toContain("'pack', '-w', 'packages/server'");
    expect(tested).toContain("'install', '--omit=dev'");
  });

  it('proxies to the instances by their service names and port, checking their health', () => {
    const upstreams = /reverse_proxy ([^{]+)\{/.exec(caddyfile)![1]!.trim().split(/\s+/);
    expect(upstreams).toEqual(['parley-1', 'parley-2'].map((name) => `${name}:${PORT}`));
    expect(caddyfile).toContain(`health_uri ${HEALTH_PATH}`);
    expect(caddyfile).toContain('{$PARLEY_DOMAIN}');
    expect(compose.services['caddy']!.environment).toHaveProperty('PARLEY_DOMAIN');
    // TRUST_PROXY counts Caddy, the one proxy in front.
    for (const [name, service] of parleyServices.filter(([n]) => n !== 'migrate')) {
      expect([name, service.environment!['TRUST_PROXY']]).toEqual([name, '1']);
    }
  });
});
