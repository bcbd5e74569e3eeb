import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPOSITORY_ROOT } from '../../clientBuilds';
import { parleyNodeFlags } from './postingClients';

describe('parleyNodeFlags', () => {
  const folder = mkdtempSync(join(tmpdir(), 'parley-flags-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const flagsOf = (firstLine: string) => {
    const file = join(folder, 'parley.js');
    writeFileSync(file, `${firstLine}\nconsole.log(1);\n`);
    return parleyNodeFlags(file);
  };

  it('reads the flags of the first line, after node', () => {
    expect(flagsOf('#!/usr/bin/env -S node --max-semi-space-size=2 --x=1')).toEqual([
      '--max-semi-space-size=2',
      '--x=1',
    ]);
    expect(flagsOf('#!/usr/local/bin/node --y')).toEqual(['--y']);
    expect(flagsOf('#!/usr/bin/env node')).toEqual([]);
    expect(flagsOf('console.log(0);')).toEqual([]);
    expect(() => flagsOf('#!/bin/sh -e')).toThrow('runs no node');
  });

  it('gives the compiled parley the flags npm start runs the server with', () => {
    // The build writes the first line (scripts/buildServer.mjs); package.json's start runs
    // main.js; bench:read reads the latter, bench:scale and startParley the former.
    const build = readFileSync(join(REPOSITORY_ROOT, 'scripts/buildServer.mjs'), 'utf8');
    const banner = /banner: \{ js: '(#![^']*)' \}/.exec(build)?.[1];
    expect(banner).toBeDefined();
    const { scripts } = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
      scripts: { start: string };
    };
    const start = /&&\s*node\s+(.+)\s+packages\/server\/dist\/main\.js$/.exec(scripts.start)?.[1];
    expect(start).toBeDefined();
    expect(flagsOf(banner!)).toEqual(start!.trim().split(/\s+/));
    expect(flagsOf(banner!)).toContain('--heap-growing-percent=50');
  });
});
