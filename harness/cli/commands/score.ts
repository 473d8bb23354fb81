import type { Command } from 'commander';
import { FAMILY_DECLARATIONS } from '../../../tasks/families.js';
import { CLI_SERVICES } from '../services.js';

/** Each task family's own top-level commands (AAR: `aar score`; WikiRace: `aar wikirace`), in the registry's order, with the harness's services. */
export function registerScoreCommand(program: Command): void {
  for (const declaration of FAMILY_DECLARATIONS) declaration.cli?.program?.(program, CLI_SERVICES);
}
