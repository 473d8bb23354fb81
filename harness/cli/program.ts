import { Command, CommanderError } from 'commander';
import { registerCompareCommand } from './commands/compare.js';
import { registerReportCommand } from './commands/report.js';
import { registerExportCommand } from './commands/export.js';
import { registerVerifyCommand } from './commands/verify.js';
import { registerScoreCommand } from './commands/score.js';
import { registerTasksCommands } from './commands/tasks.js';
import { registerToolsCommands } from './commands/tools.js';
import { registerWorldCommands } from './commands/world.js';
import { registerRunCommands } from './commands/run.js';
import { registerImagesCommands } from './commands/images.js';
import { registerViewCommand } from './commands/view.js';
import { registerCleanupCommand } from './commands/cleanup.js';
import { registerModelsCommands } from './commands/models.js';
import { registerDataCommands } from './commands/data.js';
import { HARNESS_VERSION } from '../version.js';

/** `aar`: one command per operation; each command's module loads what it needs only when it runs. */
export function buildProgram(): Command {
  const program = new Command('aar')
    .description('Run and score AI agent frameworks on The Amazing Agent Race (AAR).')
    .version(HARNESS_VERSION)
    // Commander's own errors are printed by runCli as one `aar:` line, like every other error.
    .configureOutput({ outputError: () => {} })
    .exitOverride();
  registerRunCommands(program);
  registerTasksCommands(program);
  registerScoreCommand(program);
  registerVerifyCommand(program);
  registerReportCommand(program);
  registerExportCommand(program);
  registerViewCommand(program);
  registerCompareCommand(program);
  registerToolsCommands(program);
  registerWorldCommands(program);
  registerImagesCommands(program);
  registerCleanupCommand(program);
  registerModelsCommands(program);
  registerDataCommands(program);
  program
    .command('version')
    .description('print the version of aar-harness (as aar --version)')
    .action(() => void process.stdout.write(`${HARNESS_VERSION}\n`));
  return program;
}

export async function runCli(argv: string[] = process.argv): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (!SILENT_CODES.has(error.code)) process.stderr.write(`aar: ${commanderLine(error, program, argv)}\n`);
      process.exitCode = error.exitCode;
      return;
    }
    process.stderr.write(`aar: ${errorLine(error as Error)}\n`);
    process.exitCode = 1;
  }
}

/** Help and version output end in a CommanderError too; they have printed what they had to. */
const SILENT_CODES = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version', 'commander.executeSubCommandAsync']);

/** `error: unknown command 'verfy'\n(Did you mean verify?)` as `unknown command 'verfy' (did you mean verify?); see aar --help`. */
export function commanderLine(error: CommanderError, program: Command, argv: string[]): string {
  const text = error.message.replace(/^error: /, '').replace(/\n\(Did you mean (.+)\?\)/, ' (did you mean $1?)').replace(/\s*\n\s*/g, '; ');
  const words: string[] = [];
  let command = program;
  for (const token of argv.slice(2)) {
    if (token.startsWith('-')) continue;
    const sub = command.commands.find((c) => c.name() === token || c.aliases().includes(token));
    if (!sub) break;
    words.push(token);
    command = sub;
  }
  return `${text}; see ${['aar', ...words, '--help'].join(' ')}`;
}

const ERRNO_WORDS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of this path is a file, not a folder',
  EISDIR: 'is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EEXIST: 'already exists',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
};

/** A Node file-system error names its path first and says what went wrong in words; any other error is its message. */
export function errorLine(error: Error): string {
  const e = error as NodeJS.ErrnoException;
  if (!e.code || !e.path) return e.message;
  const words = ERRNO_WORDS[e.code] ?? e.code;
  const doing = e.syscall === 'open' || e.syscall === 'scandir' || e.syscall === 'mkdir' ? ` (${e.syscall === 'scandir' ? 'listing' : e.syscall === 'mkdir' ? 'creating' : 'opening'} it)` : '';
  return `${e.path}: ${words}${doing}`;
}


