import { Command, CommanderError } from 'commander';
import { registerCompareCommand } from './commands/compare.js';
import { registerReportCommands } from './commands/report.js';
import { registerScoreCommand } from './commands/score.js';
import { registerTasksCommands } from './commands/tasks.js';
import { registerToolsCommands } from './commands/tools.js';
import { registerWorldCommands } from './commands/world.js';
import { registerRunCommands } from './commands/run.js';
import { registerImagesCommands } from './commands/images.js';
import { registerViewCommand } from './commands/view.js';
import { registerWikiraceCommands } from './commands/wikirace.js';
import { HARNESS_VERSION } from '../version.js';

/** `aar`: one command per operation; each command's module loads what it needs only when it runs. */
export function buildProgram(): Command {
  const program = new Command('aar')
    .description('Run and score AI agent frameworks on The Amazing Agent Race (AAR).')
    .version(HARNESS_VERSION)
    .showHelpAfterError('(run with --help for usage)');
  registerRunCommands(program);
  registerTasksCommands(program);
  registerScoreCommand(program);
  registerReportCommands(program);
  registerViewCommand(program);
  registerCompareCommand(program);
  registerToolsCommands(program);
  registerWorldCommands(program);
  registerImagesCommands(program);
  registerWikiraceCommands(program);
  return program;
}

export async function runCli(argv: string[] = process.argv): Promise<void> {
  const program = buildProgram().exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode;
      return;
    }
    process.stderr.write(`aar: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}


