import type { FamilyDeclaration } from '../family.js';
import { packagePath } from '../../paths.js';
import { aarCli } from './cli.js';

/** The Amazing Agent Race as the registry lists it (tasks/families.ts). */
export const aarDeclaration: FamilyDeclaration = {
  name: 'aar',
  family: async () => (await import('./family.js')).aarFamily,
  scorer: async () => (await import('./scoring/stored-trial.js')).aarScorer,
  cli: aarCli,
  htmlView: true,
  examples: packagePath('tasks', 'examples'),
};
