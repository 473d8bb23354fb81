import type { ValidatableLeg } from '../golden/validate.js';
import type { ToolService } from '../../../tools/service.js';
import { auditLeg, INVARIANTS, type Invariant, type InvariantStatus, type LegAudit } from './invariants.js';

/**
 * `aar tasks audit`: the six invariants on many legs, counted per invariant and listed per leg, with the
 * title-leak figure spelled out (all leaks by the authors' rule; multi-word titles as whole words).
 */

export interface AuditReport {
  legs: number;
  /** Whether chains were dry-run and pages looked up in a store. */
  store: string | null;
  invariants: Record<Invariant, Record<InvariantStatus, number>>;
  titleLeaks: { legs: number; multiWordWholeWordLegs: number; titles: number };
  /** Legs failing at least one invariant. */
  failing: number;
  perLeg: LegAudit[];
}

export async function auditLegs(legs: readonly ValidatableLeg[], tools?: ToolService, store: string | null = null): Promise<AuditReport> {
  const perLeg: LegAudit[] = [];
  for (const leg of legs) perLeg.push(await auditLeg(leg, tools));
  const invariants = Object.fromEntries(INVARIANTS.map((name) => [name, { pass: 0, fail: 0, unchecked: 0 }])) as AuditReport['invariants'];
  for (const a of perLeg) for (const name of INVARIANTS) invariants[name][a.invariants[name].status]++;
  return {
    legs: perLeg.length,
    store,
    invariants,
    titleLeaks: {
      legs: perLeg.filter((a) => a.titleLeaks.length).length,
      multiWordWholeWordLegs: perLeg.filter((a) => a.titleLeaks.some((l) => l.multiWord && l.wholeWords)).length,
      titles: perLeg.reduce((n, a) => n + a.titleLeaks.length, 0),
    },
    failing: perLeg.filter((a) => INVARIANTS.some((n) => a.invariants[n].status === 'fail')).length,
    perLeg,
  };
}

const pct = (n: number, of: number): string => (of ? `${((100 * n) / of).toFixed(1)}%` : 'n/a');

/** The report as text: a table per invariant, the title-leak figure, then one line per problem. */
export function formatAudit(report: AuditReport, options: { notes?: boolean } = {}): string {
  const lines = [
    `audited ${report.legs} leg${report.legs === 1 ? '' : 's'}${report.store ? ` against the store ${report.store}` : ' (no store: chains not dry-run, page snapshots not checked)'}; ${report.failing} fail at least one invariant`,
    '',
    '| invariant | pass | fail | unchecked |',
    '|---|---:|---:|---:|',
    ...INVARIANTS.map((n) => `| ${n} | ${report.invariants[n].pass} | ${report.invariants[n].fail} | ${report.invariants[n].unchecked} |`),
    '',
    `title leaks (the authors' fix_title_leaks rule: seed or stop title, trailing parenthetical removed, >= 6 characters, anywhere in the riddle ignoring case): ${report.titleLeaks.legs} of ${report.legs} legs (${pct(report.titleLeaks.legs, report.legs)}), ${report.titleLeaks.titles} titles; a multi-word title as whole words: ${report.titleLeaks.multiWordWholeWordLegs} legs`,
  ];
  const problems = report.perLeg.flatMap((a) => INVARIANTS.flatMap((n) => a.invariants[n].problems.map((p) => `${a.file}: ${n}: ${p}`)));
  if (problems.length) lines.push('', ...problems);
  if (options.notes) lines.push('', ...report.perLeg.flatMap((a) => INVARIANTS.flatMap((n) => a.invariants[n].notes.map((p) => `${a.file}: ${n}: note: ${p}`))));
  return lines.join('\n');
}
