import type { Command } from 'commander';
import { FAMILY_DECLARATIONS } from '../../../tasks/families.js';
import { CLI_SERVICES } from '../services.js';

/** `aar tasks`: each task family's subcommands (AAR: list, show, validate), in the registry's order. */
export function registerTasksCommands(program: Command): void {
  const tasks = program.command('tasks').description("the task families' tasks");
  for (const declaration of FAMILY_DECLARATIONS) declaration.cli?.tasks?.(tasks, CLI_SERVICES);
}
