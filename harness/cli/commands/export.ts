import type { Command } from 'commander';
import path from 'node:path';
import { EXPORTERS, exporterNamed } from '../../../verifier/export/registry.js';
import { plural } from '../../../common/words.js';

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .argument('<job-dir>', 'a job folder (jobs/<job>)')
    .description(`write a job in another tool's format: ${EXPORTERS.map((e) => `${e.name} (${e.description})`).join('; ')}`)
    .requiredOption('--format <format>', EXPORTERS.map((e) => e.name).join(' or '))
    .option('--out <dir>', 'the folder to write into (default: <job-dir>.<format>, beside the job folder)')
    .action(async (jobDir: string, flags: { format: string; out?: string }) => {
      const { readExportJob } = await import('../../../verifier/export/job.js');
      const exporter = exporterNamed(flags.format);
      const { job, unreadable, skipped } = readExportJob(jobDir);
      for (const line of unreadable) process.stderr.write(`aar: skipped unreadable trial: ${line}\n`);
      const { tamperWarnings } = await import('../../../verifier/results.js');
      for (const line of tamperWarnings(job.trials.map((t) => t.result))) process.stderr.write(line + '\n');
      if (unreadable.length) process.exitCode = 1;
      if (!job.trials.length) throw new Error(`${jobDir}: no scored trial to export`);
      const out = flags.out ?? `${path.resolve(jobDir)}.${exporter.name}`;
      const written = exporter.write(job, out);
      process.stdout.write(`exported ${plural(job.trials.length, 'trial')}${skipped ? ` (${plural(skipped, 'infrastructure error')} left out)` : ''} as ${exporter.name} to ${out}\n${written.map((f) => `  ${f}\n`).join('')}`);
    });
}
