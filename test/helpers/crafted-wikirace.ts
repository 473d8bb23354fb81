import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HARNESS_VERSION } from '../../harness/version.js';
import type { WikiraceTask } from '../../tasks/wikirace/schema.js';
import { trajectoryLineText } from '../../tasks/wikirace/game/trajectory.js';
import { TRIAL_FORMAT, writeTrialFolder } from '../../trial/folder.js';
import type { TrialRecordInput } from '../../trial/record.js';
import { scoreTrialDir } from '../../verifier/results.js';

/** One crafted game: its pair and the pages it moved to, in order; `calls` the model calls, `tokens` input + output split 10:1. */
export interface CraftedGame {
  split: WikiraceTask['split'];
  /** Pair number within the split (the task id is `<split>/pair_<n>`). */
  pair: number;
  source: string;
  target: string;
  optimal: number;
  moves: readonly string[];
  calls?: number;
  tokens?: { input: number; output: number };
  attempt?: number;
  /** The task's max_links (links offered per step); absent: unset (50). */
  maxLinks?: number;
}

/**
 * Writes one agent's WikiRace trial folders as the harness would: the task as leg.json, trajectory.jsonl
 * with the moves given, trial.json (model `model`) and the score.json the family's scorer writes for them.
 */
export function writeCraftedWikiraceJob(jobDir: string, agent: string, games: readonly CraftedGame[], model: string | null = 'scripted'): void {
  mkdirSync(jobDir, { recursive: true });
  const job = { name: 'crafted-wikirace', timeout_s: 600, budget: { steps: 'auto' }, tools: { mode: 'live', output_limit: 8000 }, tasks: { family: 'wikirace' } };
  writeFileSync(path.join(jobDir, 'job.json'), JSON.stringify({ harness_version: HARNESS_VERSION, config_file: path.join(jobDir, 'job.yaml'), config: job }, null, 2) + '\n');
  for (const g of games) {
    const id = `${g.split}/pair_${String(g.pair).padStart(3, '0')}`;
    const task: WikiraceTask = { family: 'wikirace', id, split: g.split, source: g.source, target: g.target, optimal_length: g.optimal, graph: '../graph', graph_sha256: '0'.repeat(64), synthetic: true, ...(g.maxLinks ? { max_links: g.maxLinks } : {}) };
    const taskText = JSON.stringify(task, null, 2) + '\n';
    const attempt = g.attempt ?? 1;
    const trialId = `${agent}__${id.replace('/', '__')}__${attempt}`;
    const record: TrialRecordInput = {
      format: TRIAL_FORMAT, trial_id: trialId, job: 'crafted-wikirace', family: 'wikirace',
      agent: { id: agent, name: agent, model, version: null },
      leg: { id, variant: 'wikirace', level: g.split, file: `${id}.json`, sha256: createHash('sha256').update(taskText).digest('hex') },
      attempt, status: 'completed', error: null,
      started_at: new Date(0).toISOString(), finished_at: new Date(60_000).toISOString(),
      timings: { total_s: 60, agent_s: 59, overhead_s: 1 },
      step_budget: 90,
      run: { steps: g.calls ?? g.moves.length, step_limit_hit: null, exit_code: 0, input_tokens: g.tokens?.input ?? null, output_tokens: g.tokens?.output ?? null, cached_tokens: 0, cost_usd: null },
      seed: 1, harness_version: HARNESS_VERSION,
    };
    let at = g.source;
    const trajectory = g.moves.map((to, i) => {
      const line = trajectoryLineText({ step: i + 1, from: at, to, offered: 3, ts: i });
      at = to;
      return line;
    }).join('');
    const dir = writeTrialFolder(jobDir, trialId, { 'trial.json': JSON.stringify(record, null, 2) + '\n', 'leg.json': taskText, 'trajectory.jsonl': trajectory });
    writeFileSync(path.join(dir, 'score.json'), JSON.stringify(scoreTrialDir(dir), null, 2) + '\n');
  }
}

/** Two configurations' games whose paper figures the tests compute by hand (test/tasks/wikirace/paper-tables.test.ts). */
const g = (pair: number, split: CraftedGame['split'], optimal: number, moves: string[], extra: Partial<CraftedGame> = {}): CraftedGame => ({ split, pair, source: 'A', target: 'T', optimal, moves, ...extra });

// Both play the same four pairs (pair 1 offers 30 links a step, the others 50).
// alpha: easy 3 moves (opt 3, 900 tokens), easy 6 moves with B twice (opt 4, 1,200 tokens), medium fails
// visiting A three times, hard fails after 2 moves without a loop.
export const ALPHA_GAMES: CraftedGame[] = [
  g(1, 'easy', 3, ['B', 'C', 'T'], { tokens: { input: 600, output: 300 }, maxLinks: 30 }),
  g(2, 'easy', 4, ['B', 'C', 'B', 'D', 'E', 'T'], { tokens: { input: 1200, output: 0 } }),
  g(3, 'medium', 5, ['B', 'A', 'B', 'A']),
  g(4, 'hard', 7, ['B', 'C']),
];
// beta: easy 4 moves (opt 3), easy fails revisiting A, medium 5 moves (opt 5), hard fails looping B and C.
export const BETA_GAMES: CraftedGame[] = [
  g(1, 'easy', 3, ['B', 'C', 'D', 'T'], { maxLinks: 30 }),
  g(2, 'easy', 4, ['B', 'A', 'C']),
  g(3, 'medium', 5, ['B', 'C', 'D', 'E', 'T']),
  g(4, 'hard', 7, ['B', 'C', 'B', 'C']),
];
