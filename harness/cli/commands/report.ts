import type { Command } from 'commander';
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .argument('<job-dir>', 'a job folder (jobs/<job>)')
    .description('aggregate a job: per agent x model x variant x level, FA/PVR/RCR with 95% intervals and more')
    .option('--format <format>', 'md, csv, json or html (one self-contained page: charts, trials, trial pages)', 'md')
    .option('--out <file>', 'write to this file instead of standard output')
    .action(async (jobDir: string, flags: { format: string; out?: string }) => {
      if (flags.out) requireWritableFolder(flags.out);
      const { REPORT_FORMATS, renderReport } = await import('../../../verifier/report.js');
      if (flags.format !== 'html' && !(REPORT_FORMATS as readonly string[]).includes(flags.format)) {
        throw new Error(`--format: expected one of ${[...REPORT_FORMATS, 'html'].join(', ')}, got ${flags.format}`);
      }
      const { tamperWarnings, loadJobResults, readJobResults } = await import('../../../verifier/results.js');
      const { requireTrialDirs } = await import('../../../trial/folder.js');
      const { aggregate } = await import('../../../verifier/aggregate.js');
      let text: string;
      if (flags.format === 'html') {
        text = await (await import('../../../verifier/html/build.js')).buildHtmlReport([jobDir]);
        for (const line of tamperWarnings(loadJobResults(jobDir))) process.stderr.write(line + '\n');
      } else {
        const { results, unreadable } = readJobResults(requireTrialDirs(jobDir));
        for (const line of unreadable) process.stderr.write(`aar: skipped unreadable trial: ${line}\n`);
        for (const line of tamperWarnings(results)) process.stderr.write(line + '\n');
        if (unreadable.length) process.exitCode = 1;
        if (!results.length) throw new Error(`${jobDir}: no readable trial to report`);
        text = renderReport(aggregate(results), flags.format as 'md' | 'csv' | 'json');
      }
      if (flags.out) {
        writeFileSync(flags.out, text);
        process.stdout.write(`wrote ${flags.out}\n`);
      } else {
        process.stdout.write(text);
      }
    });
}

/** `--out` into a folder that is not there fails before the report is built, naming the folder. */
function requireWritableFolder(file: string): void {
  const folder = path.dirname(path.resolve(file));
  const stat = statSync(folder, { throwIfNoEntry: false });
  if (!stat) throw new Error(`--out ${file}: the folder ${folder} does not exist`);
  if (!stat.isDirectory()) throw new Error(`--out ${file}: ${folder} is a file, not a folder`);
}
