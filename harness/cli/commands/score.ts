import type { Command } from 'commander';
import { FAMILY_DECLARATIONS } from '../../../tasks/families.js';

/** Each task family's own top-level commands (AAR: `aar score`), in the registry's order. */
export function registerScoreCommand(program: Command): void {
  for (const declaration of FAMILY_DECLARATIONS) declaration.cli?.program?.(program);
}
