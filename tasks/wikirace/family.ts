import path from 'node:path';
import { programPath } from '../../container/program.js';
import { GAME_TOOLS } from '../../tools/catalog/index.js';
import type { TaskFamily } from '../family.js';
import { WIKIRACE_ESTIMATE } from './estimate.js';
import { wikiracePaperTables } from './paper-tables/index.js';
import { filterPairs, PairFilterSchema } from './filter.js';
import { WikiraceGame } from './game/game.js';
import { gameSeed } from './game/seed.js';
import { renderWikiraceInstruction } from './instruction.js';
import type { LoadedPair } from './load.js';
import { oraclePlan } from './oracle-plan.js';
import { linkLimitOf, modelCallBudgetOf, moveLimitOf } from './schema.js';
import { WIKIRACE_REPORT, type WikiraceFigures } from './scoring/report.js';
import { endText, type GameScore } from './scoring/score.js';
import { wikiraceScorer } from './scoring/stored-trial.js';
import { WIKIRACE_TRIAL_FILES } from './trial-files.js';
import { wikiraceOutcome } from './scoring/outcome.js';

/** The oracle and random players (./player.ts): bundled by the build, in the base image. */
const PLAYER = programPath('wikirace-player.cjs');

/** The task set a pair belongs to: the folder above its split folder (`examples-wikirace/easy/001.json`), else its graph folder's name. */
function taskSetOf(t: LoadedPair): string {
  const splitDir = path.dirname(path.resolve(t.file));
  return path.basename(splitDir) === t.pair.split ? path.basename(path.dirname(splitDir)) : path.basename(t.world.dir);
}

/** LLM-WikiRace: reach a target page by following links, one per step, on a fixed link graph. */
export const wikiraceFamily: TaskFamily<LoadedPair, GameScore, WikiraceFigures> = {
  name: 'wikirace',
  async load(paths) {
    // Loaded on first use (graph files and checksums): scoring and reports never load task files.
    const { loadPairs } = await import('./load.js');
    return loadPairs(paths);
  },
  filterSchema: PairFilterSchema,
  filter: (pairs, filter) => filterPairs(pairs, filter),
  // The task set and split under the names reports had before families named their slices (same bytes).
  describe: (t) => ({ id: t.id, variant: taskSetOf(t), level: t.pair.split, file: t.file }),
  sliceKeys: ['variant', 'level'],
  /** The model-call budget (budget.steps: auto): 3 per allowed move. The move limit is the game's own (moveLimitOf). */
  stepBudget: (t) => modelCallBudgetOf(t.pair),
  renderInstruction: (t, options) => renderWikiraceInstruction(t, options),
  tools: GAME_TOOLS.map((t) => t.name),
  toolSession: (t, trial) =>
    new WikiraceGame({
      graph: t.world.graph,
      distances: t.world.distances,
      source: t.pair.source,
      target: t.pair.target,
      // The game's move limit comes from the task, never from the trial's model-call budget.
      stepBudget: moveLimitOf(t.pair),
      linkLimit: linkLimitOf(t.pair),
      // By pair and attempt, not by trial: every configuration faces the same offered links.
      seed: gameSeed(t.id, trial.attempt),
      trajectoryPath: path.join(trial.dir, WIKIRACE_TRIAL_FILES.trajectory),
    }),
  /** Walks a shortest path through the game tools, whichever of its links each step offers. */
  oracle: (t) => ({
    files: [{ path: '/opt/aar/oracle-plan.json', content: JSON.stringify(oraclePlan(t.world, t.pair)) }],
    command: ['node', PLAYER, 'oracle', '/opt/aar/oracle-plan.json'],
    inProcess: true,
  }),
  /** A uniform choice among the offered links at every step, drawn from the trial's seed. */
  randomBaseline: (_t, seed) => ({ files: [], command: ['node', PLAYER, 'random', String(seed)], inProcess: true }),
  ...wikiraceScorer,
  progress: {
    label: 'success',
    success: (s) => s.success,
    verdict: (s) =>
      s.success
        ? `reached in ${s.steps} (optimal ${s.optimal_length})`
        : `not reached after ${s.steps} of ${s.move_limit} moves, ${endText(s)}${s.problem ? ` (${s.problem})` : ''}`,
  },
  report: WIKIRACE_REPORT,
  paperTables: wikiracePaperTables,
  estimate: WIKIRACE_ESTIMATE,
  outcome: wikiraceOutcome,
};
