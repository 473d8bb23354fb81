import path from 'node:path';
import { PREVIOUS_SCORE_FILE } from '../trial/file-hashes.js';
import type { ScoreChange, VerifySummary } from './verify.js';

/** Lines of one kind shown before `... and N more`. */
const SHOWN = 20;

function capped(lines: string[]): string[] {
  return lines.length > SHOWN ? [...lines.slice(0, SHOWN), `  ... and ${lines.length - SHOWN} more`] : lines;
}

const HOW = { changed: 'changed after the run', removed: 'removed after the run', added: 'not written by the harness' } as const;

function changeLine(c: ScoreChange, fix: boolean): string {
  const what = c.missing ? 'no score.json yet' : c.fields.join(', ');
  if (c.fromTamperedFiles) return `  edited files would give: ${path.basename(c.dir)}: ${what} (not written: a trial with edited files is never re-scored)`;
  if (!fix) return `  would change: ${path.basename(c.dir)}: ${what}`;
  return `  changed: ${path.basename(c.dir)}: ${what}${c.missing ? '' : ` (the previous score kept in ${PREVIOUS_SCORE_FILE})`}`;
}

/** What `aar verify` prints: a summary line, each tampered file, each score that changes and how, and what to do. */
export function verifyText(s: VerifySummary, fix: boolean): string {
  const fixable = s.changed.filter((c) => !c.fromTamperedFiles);
  const lines = [
    `${s.trials} trials: ${s.scored} scored, ${fixable.length} ${fix ? 'changed' : 'would change'}, ${s.tampered.length} tampered, ` +
      `${s.infraErrors} infrastructure errors (not scored)` + (s.failures.length ? `, ${s.failures.length} unreadable` : ''),
    ...capped(s.tampered.flatMap((t) => t.files.map((f) => `  tampered: ${path.join(t.dir, f.file)} (${HOW[f.how]})`))),
    ...capped(fixable.map((c) => changeLine(c, fix))),
    ...capped(s.changed.filter((c) => c.fromTamperedFiles).map((c) => changeLine(c, fix))),
  ];
  if (s.unsealed) lines.push(`${s.unsealed} trials were written before trial.json held file hashes: only their leg.json was checked`);
  if (fixable.length && !fix) lines.push(`nothing written: aar verify --fix rewrites the scores that would change (keeping each previous one in ${PREVIOUS_SCORE_FILE})`);
  return lines.join('\n') + '\n';
}
