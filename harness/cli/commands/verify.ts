import type { Command } from 'commander';

export function registerVerifyCommand(program: Command): void {
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
}
