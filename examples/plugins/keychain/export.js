import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const cell = (v) => {
  const text = v === null || v === undefined ? '' : String(v);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/**
 * `aar export --format csv`: one row per scored trial (its id, configuration, task, attempt, status) and the
 * family's headline figures, one column each.
 *
 * @type {import('aar-harness').Exporter}
 */
export const csvExporter = {
  name: 'csv',
  description: "one CSV row per trial: id, configuration, task, attempt, status and the family's headline figures",
  write(job, outDir) {
    mkdirSync(outDir, { recursive: true });
    const metrics = [...new Set(job.trials.flatMap((t) => Object.keys(t.metrics)))];
    const header = ['trial_id', 'agent', 'task', 'attempt', 'status', ...metrics];
    const rows = job.trials.map(({ result, metrics: m }) => [result.record.trial_id, result.record.agent.id, result.record.leg.id, result.record.attempt, result.record.status, ...metrics.map((k) => m[k])]);
    const file = path.join(outDir, `${job.name}.csv`);
    writeFileSync(file, [header, ...rows].map((r) => r.map(cell).join(',')).join('\n') + '\n');
    return [file];
  },
};
