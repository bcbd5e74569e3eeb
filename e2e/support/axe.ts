// axe-core in the e2e suite: injects axe into a page or a frame (also a cross-origin one: the
// source is evaluated through the browser's debugging protocol, so the frame's CSP does not
// apply), runs it, and keeps what it found per checked screen so a file can assert and print a
// summary. Serious and critical violations fail; moderate and minor
// ones are reported, not failed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AxeResults, ImpactValue, RunOptions } from 'axe-core';
import type { Frame, Page } from 'playwright-core';
import { E2E_OUTPUT, screenshot } from '../harness';
import { REPOSITORY_ROOT } from './browser';

/** axe-core's browser build (installed as a dev dependency). */
export const AXE_SOURCE_PATH = join(REPOSITORY_ROOT, 'node_modules/axe-core/axe.min.js');

let source: string | undefined;
const axeSource = () => (source ??= readFileSync(AXE_SOURCE_PATH, 'utf8'));

/** Impacts that fail a check. */
export const FAILING_IMPACTS: readonly ImpactValue[] = Object.freeze(['serious', 'critical']);

/** One element a rule failed on. */
export interface AxeNode {
  /** CSS selector of the element (within its document). */
  target: string;
  /** Its opening markup, shortened. */
  html: string;
  /** axe's "Fix any of the following: …". */
  summary: string;
}

/** One rule that failed, with the elements it failed on. */
export interface AxeViolation {
  id: string;
  impact: ImpactValue;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}

/** What axe found on one screen. */
export interface AxeCheck {
  /** What was checked, e.g. "console /admin/community". */
  name: string;
  /** The document's URL. */
  url: string;
  violations: AxeViolation[];
}

/** The options every check runs with: violations only, the whole document. */
const RUN_OPTIONS: RunOptions = { resultTypes: ['violations'] };

/**
 * Runs axe on `target`'s whole document (a page, or a frame such as
 * `page.frame({ url: /\/embed\/stream/ })`), injecting it first when it is not there yet.
 */
export async function runAxe(target: Page | Frame): Promise<AxeViolation[]> {
  const present = await target.evaluate(() => 'axe' in window);
  // A string is evaluated as a script in the document's main world, as a <script> would be.
  if (!present) await target.evaluate(axeSource());
  return target.evaluate(async (options) => {
    const { axe } = window as unknown as { axe: { run(...args: unknown[]): Promise<AxeResults> } };
    const results = await axe.run(document, options);
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      helpUrl: violation.helpUrl,
      nodes: violation.nodes.map((node) => ({
        target: node.target.join(' '),
        html: node.html.length > 200 ? `${node.html.slice(0, 200)}…` : node.html,
        summary: node.failureSummary ?? '',
      })),
    }));
  }, RUN_OPTIONS);
}

/** The violations of `check` whose impact fails it. */
export function failingViolations(check: AxeCheck): AxeViolation[] {
  return check.violations.filter((violation) => FAILING_IMPACTS.includes(violation.impact));
}

/** A readable list of violations: rule, impact, help, and each element with axe's advice. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((violation) =>
      [
        `${violation.impact ?? 'no impact'} · ${violation.id}: ${violation.help} (${violation.helpUrl})`,
        ...violation.nodes.map(
          (node) =>
            `    ${node.target}\n      ${node.html}\n      ${node.summary.replace(/\n/g, '\n      ')}`,
        ),
      ].join('\n'),
    )
    .join('\n');
}

/** Counts of violations by impact, e.g. `{ serious: 1, minor: 2 }` (rules, not elements). */
export function countByImpact(violations: readonly AxeViolation[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const violation of violations) {
    const impact = violation.impact ?? 'none';
    counts[impact] = (counts[impact] ?? 0) + 1;
  }
  return counts;
}

/** Checks screens one after another and remembers each result, for one summary at the end. */
export interface AxeReport {
  /**
   * Runs axe on `target` and records it as `name`; screenshots the page (the frame's page) as
   * `a11y-<slug of name>.png`. It does not fail: assert on the answer (see failingViolations).
   */
  check(name: string, target: Page | Frame): Promise<AxeCheck>;
  /** Every check so far. */
  readonly checks: readonly AxeCheck[];
  /** One line per check (counts by impact), then the non-failing violations in detail. */
  summary(): string;
  /** Writes `test-output/e2e/<name>.json` and `.txt`; returns the text's path. */
  write(): string;
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** A report saved as `test-output/e2e/<name>.{json,txt}` by `write()`. */
export function createAxeReport(name: string): AxeReport {
  const checks: AxeCheck[] = [];
  const report: AxeReport = {
    checks,
    async check(checkName, target) {
      const violations = await runAxe(target);
      const check = { name: checkName, url: target.url(), violations };
      checks.push(check);
      await screenshot('page' in target ? target.page() : target, `a11y-${slug(checkName)}`);
      return check;
    },
    summary() {
      const lines = checks.map((check) => {
        const counts = countByImpact(check.violations);
        const text = Object.entries(counts)
          .map(([impact, n]) => `${n} ${impact}`)
          .join(', ');
        return `${check.name}: ${text || 'no violations'}`;
      });
      const reported = checks.filter((check) => check.violations.length > 0);
      if (reported.length > 0) {
        lines.push('', 'Violations (moderate and minor are reported, not failed):');
        for (const check of reported) {
          lines.push(`- ${check.name} (${check.url})`, describeViolations(check.violations));
        }
      }
      return lines.join('\n');
    },
    write() {
      mkdirSync(E2E_OUTPUT, { recursive: true });
      writeFileSync(join(E2E_OUTPUT, `${name}.json`), JSON.stringify(checks, null, 2) + '\n');
      const path = join(E2E_OUTPUT, `${name}.txt`);
      writeFileSync(path, report.summary() + '\n');
      return path;
    },
  };
  return report;
}
