// `npm run codegen` writes every file generated from `packages/contract/schema.graphql`;
// `npm run codegen -- --check` (part of `npm test`) regenerates them aside and fails when a
// committed one differs, so a schema change cannot land without what derives from it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

interface Generated {
  /** The committed file. */
  file: string;
  /** Writes the file's fresh contents to `output`. */
  generate: (output: string) => void;
}

/** Runs a command of node_modules/.bin, showing its output only when it fails. */
function run(name: string, args: string[]): void {
  try {
    execFileSync(join('node_modules', '.bin', name), args, { stdio: 'pipe' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    console.error(`${name} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`);
    throw error;
  }
}

const GENERATED: Generated[] = [
  {
    // The schema as types, for gql.tada's typed documents in the stream and the console.
    file: 'packages/transport/src/graphql-env.d.ts',
    generate: (output) =>
      run('gql.tada', [
        'generate',
        'output',
        '--tsconfig',
        'packages/transport/tsconfig.json',
        '--output',
        output,
      ]),
  },
];

const check = process.argv.includes('--check');
const scratch = mkdtempSync(join(tmpdir(), 'parley-codegen-'));
const stale: string[] = [];
try {
  for (const [index, { file, generate }] of GENERATED.entries()) {
    const output = join(scratch, `${index}-${basename(file)}`);
    generate(output);
    const fresh = readFileSync(output, 'utf8');
    if (!check) writeFileSync(file, fresh);
    else if (readFileSync(file, 'utf8') !== fresh) stale.push(file);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (stale.length) {
  console.error(`Generated files are stale (run npm run codegen):\n  ${stale.join('\n  ')}`);
  process.exit(1);
}
console.log(check ? `codegen: ${GENERATED.length} generated files are current` : 'codegen: done');
