import { runSuite, type CheckOutcome } from '../../common/conformance.js';
import type { Plugin } from './api.js';
import { SEAMS } from './seams.js';

export interface SuiteResult {
  seam: string;
  entry: string;
  outcomes: CheckOutcome[];
}

/** Runs every entry of a (loaded) plugin through its seam's conformance suite, one after the other. */
export async function checkPlugin(plugin: Plugin, progress: (line: string) => void = () => {}): Promise<SuiteResult[]> {
  const results: SuiteResult[] = [];
  for (const seam of SEAMS) {
    for (const entry of seam.entries(plugin)) {
      const suite = seam.suite(entry, plugin);
      progress(`${suite.seam} ${suite.entry}: ${suite.checks.length} checks`);
      results.push({ seam: suite.seam, entry: suite.entry, outcomes: await runSuite(suite) });
    }
  }
  return results;
}

const MARK: Record<CheckOutcome['status'], string> = { passed: 'ok  ', failed: 'FAIL', skipped: 'skip' };

/** The results as text: a block per entry, a line per check (with why it failed or was skipped), and the counts. */
export function formatOutcomes(from: string, results: readonly SuiteResult[]): string {
  const lines = [`${from}`];
  if (!results.length) lines.push('  (no entries)');
  for (const { seam, entry, outcomes } of results) {
    lines.push('', `${seam} ${entry}`);
    for (const o of outcomes) lines.push(`  ${MARK[o.status]} ${o.check}${o.detail ? `\n       ${o.detail}` : ''}`);
  }
  const all = results.flatMap((r) => r.outcomes);
  const count = (status: CheckOutcome['status']) => all.filter((o) => o.status === status).length;
  lines.push('', `${count('passed')} checks passed, ${count('failed')} failed, ${count('skipped')} skipped (${results.length} entries)`);
  return `${lines.join('\n')}\n`;
}
