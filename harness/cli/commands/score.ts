import type { Command } from 'commander';

export function registerScoreCommand(program: Command): void {
  program
    .command('score')
    .description('score one trial from its leg, answer file and tool log, and print the score JSON')
    .requiredOption('--leg <file>', 'the leg JSON')
    .option('--answer <file>', 'the answer file (a missing file means: not answered)')
    .option('--tool-log <file>', 'the tool log, JSON Lines (a missing file means: no tool calls)')
    .option('--reference', "print only the reference verifier's reward.json fields, in its order")
    .action(async (flags: { leg: string; answer?: string; toolLog?: string; reference?: boolean }) => {
      const { readOptionalText } = await import('../../../trial/folder.js');
      const { legView, scoreOnView, scoreToJson, referenceOnly } = await import('../../../tasks/aar/scoring/score.js');
      const legText = readOptionalText(flags.leg);
      if (legText === null) throw new Error(`${flags.leg}: no such leg file`);
      let view: ReturnType<typeof legView>;
      try {
        view = legView(legText);
      } catch (error) {
        throw new Error(`${flags.leg}: ${(error as Error).message}`);
      }
      // Each file's errors name that file (readOptionalText); scoring the log itself is total (a line it cannot read is skipped and counted).
      const answer = flags.answer === undefined ? null : readOptionalText(flags.answer);
      let score: ReturnType<typeof scoreOnView>;
      try {
        // The tool log is read line by line, never whole (a missing file: no calls).
        score = scoreOnView(view, answer, flags.toolLog === undefined ? null : { file: flags.toolLog });
      } catch (error) {
        throw new Error(`${flags.toolLog}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      process.stdout.write(scoreToJson(flags.reference ? referenceOnly(score) : score));
    });
}
