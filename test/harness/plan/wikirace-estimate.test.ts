import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadJobConfig } from '../../../harness/config/load.js';
import { previewJob } from '../../../harness/plan/preview.js';
import { formatPreview } from '../../../harness/plan/text.js';
import { writeCraftedWikiraceJob } from '../../helpers/crafted-wikirace.js';
import { wikiraceJobSetup } from '../../helpers/wikirace-job.js';

const NO_KEYS = { ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', GOOGLE_API_KEY: '', SERPER_API_KEY: '' };
const PAIRS = [
  { split: 'easy', source: 'Page 1', target: 'Page 3' },
  { split: 'easy', source: 'Page 10', target: 'Page 40' },
] as const;
// The llm adapter's check wants its key in the host environment to plan at all; the keys plan reports are NO_KEYS.
const savedKey = process.env.OPENAI_API_KEY;
const { tmp, writeConfig } = wikiraceJobSetup('aar-wikirace-estimate-', PAIRS, {}, () => (process.env.OPENAI_API_KEY = 'sk-test'));
afterAll(() => (savedKey === undefined ? delete process.env.OPENAI_API_KEY : (process.env.OPENAI_API_KEY = savedKey)));
const AGENTS = [{ name: 'llm', model: 'gpt-5' }, { name: 'claude-code', model: 'claude-sonnet-4-6' }];

describe('aar plan on WikiRace: the llm agent is estimated per move', () => {
  test("no earlier games: the paper's 2,000 tokens per move (500 prompt) over the 30 moves each game allows", async () => {
    const preview = await previewJob(loadJobConfig(writeConfig('prior', { output: path.join(tmp.dir, 'empty'), agents: AGENTS })), NO_KEYS);
    const [llm, claude] = preview.estimates;
    // 2 games x 30 moves = 60 moves; 60 x 2,000 tokens; gpt-5 at $1.25 in / $10 out per M: 500 x 1.25 + 1,500 x 10 = $0.015625 per move.
    expect(llm).toMatchObject({ agentId: 'llm@gpt-5', trials: 2, unit: 'move', stepBudget: 60, basis: 'paper', perStep: { input: 500, output: 1500, cached: 0 }, maxTokens: 120_000 });
    expect(llm.maxCostUsd).toBeCloseTo(0.9375, 12);
    // Claude Code keeps its framework's per-model-call figure over the model-call budget (90 a game).
    expect(claude).toMatchObject({ unit: 'step', stepBudget: 180, basis: 'paper', maxTokens: 3_600_000 });
    const text = formatPreview(preview);
    expect(text).toMatch(/llm@gpt-5\s+2 trials, moves allowed 60: at most 120 K tokens, \$0\.94/);
    expect(text).toContain('2,000 tokens/move (LLM-WikiRace paper, Table 1');
  });

  test('earlier games of llm@gpt-5: tokens per move made (not per model call), and the share of the moves allowed', async () => {
    const jobs = path.join(tmp.dir, 'jobs');
    // 4 moves in 8 calls (4,000 in, 2,000 out) and 6 moves in 12 calls (6,000 in, 3,000 out): 1,000 in and 500 out per move; 10 of 60 moves used.
    writeCraftedWikiraceJob(path.join(jobs, 'earlier'), 'llm', [
      { split: 'easy', pair: 1, source: 'A', target: 'T', optimal: 2, moves: ['B', 'C', 'D', 'E'], calls: 8, tokens: { input: 4000, output: 2000 } },
      { split: 'easy', pair: 2, source: 'A', target: 'T', optimal: 2, moves: ['B', 'C', 'D', 'E', 'F', 'T'], calls: 12, tokens: { input: 6000, output: 3000 } },
    ], 'gpt-5');
    const preview = await previewJob(loadJobConfig(writeConfig('measured', { output: jobs, agents: [AGENTS[0]] })), NO_KEYS);
    const [llm] = preview.estimates;
    expect(llm).toMatchObject({ unit: 'move', stepBudget: 60, basis: 'measured', perStep: { input: 1000, output: 500, cached: 0 }, maxTokens: 90_000, expectedTokens: 15_000 });
    expect(llm.measured).toMatchObject({ jobs: ['earlier'], trials: 2 });
    expect(llm.measured!.budgetUsed).toBeCloseTo(1 / 6, 12);
    // (1,000 x 1.25 + 500 x 10) / 1e6 = $0.00625 per move.
    expect(llm.maxCostUsd).toBeCloseTo(0.375, 12);
    expect(llm.expectedCostUsd).toBeCloseTo(0.0625, 12);
    expect(formatPreview(preview)).toContain('1,500 tokens/move (measured: 2 trials in earlier; 17% of the moves allowed used)');
  });

  test('earlier games answered by a stand-in (a scripted model on loopback) are left out when games against the provider exist, and named when they are all there is', async () => {
    const jobs = path.join(tmp.dir, 'jobs-stand-in');
    const scripted = path.join(jobs, 'scripted');
    // A test's scripted model: 10 tokens a move, nothing like a real model's.
    writeCraftedWikiraceJob(scripted, 'llm', [{ split: 'easy', pair: 1, source: 'A', target: 'T', optimal: 2, moves: ['B', 'T'], calls: 2, tokens: { input: 16, output: 4 } }], 'gpt-5');
    const jobFile = path.join(scripted, 'job.json');
    const job = JSON.parse(readFileSync(jobFile, 'utf8'));
    job.config.models = { anthropic_base_url: 'https://api.anthropic.com', openai_base_url: 'http://127.0.0.1:40123/v1' };
    writeFileSync(jobFile, JSON.stringify(job));
    const only = await previewJob(loadJobConfig(writeConfig('only-stand-in', { output: jobs, agents: [AGENTS[0]] })), NO_KEYS);
    expect(only.estimates[0]!.measured).toMatchObject({ jobs: ['scripted'], upstream: 'stand-in', standIns: ['scripted: openai_base_url http://127.0.0.1:40123/v1'], leftOut: [] });
    expect(formatPreview(only)).toContain("10 tokens/move (measured: 1 trials in scripted; 7% of the moves allowed used; answered by a stand-in, not the model's provider (scripted: openai_base_url http://127.0.0.1:40123/v1): say little of llm@gpt-5's real tokens)");
    // A job against the provider's own endpoint: its figures alone.
    writeCraftedWikiraceJob(path.join(jobs, 'real'), 'llm', [{ split: 'easy', pair: 1, source: 'A', target: 'T', optimal: 2, moves: ['B', 'C', 'T'], calls: 3, tokens: { input: 1500, output: 4500 } }], 'gpt-5');
    const both = await previewJob(loadJobConfig(writeConfig('with-real', { output: jobs, agents: [AGENTS[0]] })), NO_KEYS);
    expect(both.estimates[0]).toMatchObject({ basis: 'measured', perStep: { input: 500, output: 1500, cached: 0 } });
    expect(both.estimates[0]!.measured).toMatchObject({ jobs: ['real'], upstream: 'provider', leftOut: ['scripted'] });
    expect(formatPreview(both)).toContain('left out, answered by a stand-in model: scripted)');
  });
});
