import { programPath } from '../../container/program.js';
import { TOOLS } from '../../tools/catalog/index.js';
import type { TaskFamily } from '../family.js';
import { aarPaperTables } from './paper-tables/index.js';
import { seededRandom } from '../../common/random.js';
import { filterLegs, TaskFilterSchema } from './filter.js';
import { renderInstruction } from './instruction.js';
import type { LoadedLeg } from './load.js';
import { stepBudget } from './schema.js';
import { AAR_SLICE_KEYS } from './slices.js';
import { AAR_REPORT, type AarFigures } from './scoring/report.js';
import type { TrialScore } from './scoring/score.js';
import { aarScorer } from './scoring/stored-trial.js';
import { aarOutcome } from './scoring/outcome.js';

/** The oracle program (./oracle.ts) and the random baseline's (./random.ts): bundled by the build, in the base image. */
const ORACLE = programPath('oracle.cjs');
const RANDOM = programPath('aar-random.cjs');

/** The Amazing Agent Race: legs of stops, a passcode answer, FA/PVR/RCR. */
export const aarFamily: TaskFamily<LoadedLeg, TrialScore, AarFigures> = {
  name: 'aar',
  async load(paths) {
    // Loaded on first use: scoring and reports never read leg files through the family.
    const { loadLegs } = await import('./load.js');
    const { legs, problems } = await loadLegs([...paths]);
    return { tasks: legs, problems };
  },
  filterSchema: TaskFilterSchema,
  filter: (legs, filter) => filterLegs(legs, filter),
  describe: (leg) => ({ id: leg.id, variant: leg.variant, level: leg.level, file: leg.file }),
  sliceKeys: AAR_SLICE_KEYS,
  stepBudget: (leg) => stepBudget(leg.leg),
  renderInstruction: (leg, options) => renderInstruction(leg.leg, options),
  tools: TOOLS.map((t) => t.name),
  /** Every page of its page stops and every call of its golden tool chains (python runs in the container). */
  async storeGaps(leg, answer) {
    const { storeGaps } = await import('./world/coverage.js');
    return storeGaps(leg, answer);
  },
  /** Follows the golden trace through the `tools` command and writes the passcode. */
  oracle: (leg) => ({
    files: [{ path: '/opt/aar/leg.json', content: leg.source }],
    command: ['node', ORACLE, '/opt/aar/leg.json'],
    inProcess: true,
  }),
  /** A uniformly random digit as the passcode (./random.ts writes it). */
  randomBaseline(_leg, seed) {
    const digit = Math.floor(seededRandom(seed)() * 10);
    return {
      files: [],
      command: ['node', RANDOM, String(seed), String(digit)],
      inProcess: true,
    };
  },
  ...aarScorer,
  progress: { label: 'FA', success: (s) => s.fa, verdict: (s) => `${s.status}${s.fa ? '' : ` (${s.diagnosis})`}` },
  report: AAR_REPORT,
  paperTables: aarPaperTables,
  outcome: aarOutcome,
};
