import type { Command } from 'commander';
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function registerReportCommands(program: Command): void {
  program
    .command('verify')
    .argument('<job-dir>', 'a job folder (jobs/<job>), or with --layout harbor a folder of Harbor trial folders')
    .description("check every trial's files against the hashes in its trial.json, re-score it from its files alone, and say what would change")
    .option('--fix', 'rewrite score.json where it changed (the previous one kept as score.prev.json); a trial with edited files is never re-scored')
    .option('--dry-run', 'write nothing (the default; kept for scripts)')
    .option('--workers <n>', 'worker threads (default: one per core for jobs of several thousand trials)')
    .option('--layout <layout>', 'job (this harness) or harbor (app/answer.txt, app/tool_log.jsonl, tests/trail.json, verifier/reward.json)', 'job')
    .option('--format <format>', "text, or json: the library's VerifySummary as one JSON object", 'text')
    .action(async (jobDir: string, flags: { fix?: boolean; dryRun?: boolean; workers?: string; layout: string; format: string }) => {
      if (flags.format !== 'text' && flags.format !== 'json') throw new Error(`--format: expected text or json, got ${flags.format}`);
      if (flags.layout === 'harbor') {
        const { printHarborVerify } = await import('./verify-harbor.js');
        return printHarborVerify(jobDir);
      }
      if (flags.layout !== 'job') throw new Error(`--layout: expected job or harbor, got ${flags.layout}`);
      if (flags.fix && flags.dryRun) throw new Error('--fix and --dry-run: choose one');
      const { verifyTrials, verifyFoundProblems } = await import('../../../verifier/verify.js');
      const { verifyText } = await import('../../../verifier/verify-text.js');
      const workers = flags.workers === undefined ? 'auto' : Number(flags.workers);
      if (workers !== 'auto' && !(Number.isInteger(workers) && workers > 0)) throw new Error(`--workers: expected a positive whole number, got ${flags.workers}`);
      const { requireTrialDirs } = await import('../../../trial/folder.js');
      const s = await verifyTrials(requireTrialDirs(jobDir), { fix: flags.fix, workers });
      for (const f of s.failures) process.stderr.write(`aar: ${f}\n`);
      process.stdout.write(flags.format === 'json' ? JSON.stringify(s, null, 2) + '\n' : verifyText(s, flags.fix ?? false));
      // Non-zero whenever a score is not what its files give (rewritten or not), a file was edited, or a trial could not be read.
      if (verifyFoundProblems(s)) process.exitCode = 1;
    });

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
      const { editedScoreWarnings, loadJobResults, readJobResults } = await import('../../../verifier/results.js');
      const { requireTrialDirs } = await import('../../../trial/folder.js');
      const { aggregate } = await import('../../../verifier/aggregate.js');
      let text: string;
      if (flags.format === 'html') {
        text = await (await import('../../../verifier/html/build.js')).buildHtmlReport([jobDir]);
        for (const line of editedScoreWarnings(loadJobResults(jobDir))) process.stderr.write(line + '\n');
      } else {
        const { results, unreadable } = readJobResults(requireTrialDirs(jobDir));
        for (const line of unreadable) process.stderr.write(`aar: skipped unreadable trial: ${line}\n`);
        for (const line of editedScoreWarnings(results)) process.stderr.write(line + '\n');
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
