import type { FamilyDeclaration } from '../family.js';
import { packagePath } from '../../paths.js';
import { wikiraceCli } from './cli.js';
import { WIKIRACE_TRIAL_FILES } from './trial-files.js';

/** LLM-WikiRace as the registry lists it (tasks/families.ts); its commands are `aar wikirace` (./cli.ts). */
export const wikiraceDeclaration: FamilyDeclaration = {
  name: 'wikirace',
  family: async () => (await import('./family.js')).wikiraceFamily,
  scorer: async () => (await import('./scoring/stored-trial.js')).wikiraceScorer,
  cli: wikiraceCli,
  trialFiles: WIKIRACE_TRIAL_FILES,
  htmlView: true,
  examples: packagePath('tasks', 'examples-wikirace'),
};
