import path from 'node:path';
import { compareConfigurations } from '../../../verifier/compare/compare.js';
import { loadConfigurations } from '../../../verifier/compare/select.js';
import { writeCraftedWikiraceJob, type CraftedGame } from '../../helpers/crafted-wikirace.js';
import { tempDir } from '../../helpers/data.js';

const tmp = tempDir('aar-wikirace-steps-');
afterAll(() => tmp.cleanup());

const game = (pair: number, moves: string[], calls: number): CraftedGame => ({ split: 'easy', pair, source: 'A', target: 'T', optimal: 2, moves, calls });

test("compare's steps column is WikiRace's moves per game, not the model calls", () => {
  const job = path.join(tmp.dir, 'job');
  // alpha: 2 and 4 moves (7 and 12 model calls); beta: 3 and 1 moves (3 and 5 calls).
  writeCraftedWikiraceJob(job, 'alpha', [game(1, ['B', 'T'], 7), game(2, ['B', 'C', 'D', 'T'], 12)]);
  writeCraftedWikiraceJob(job, 'beta', [game(1, ['C', 'B', 'T'], 3), game(2, ['Z'], 5)]);
  const result = compareConfigurations(loadConfigurations([job]), { seed: 1 });
  expect(result.effort.map((e) => [e.label, e.steps])).toEqual([['alpha', 3], ['beta', 2]]);
  const effort = result.tables.find((t) => t.id === 'effort')!;
  expect(effort.notes).toContain("steps: moves made per game (the game's trajectory), not model calls.");
});
