import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scoreTrialDir } from '../verifier/results.js';
import { scoreToJson, type TrialScore } from '../tasks/aar/scoring/score.js';
import { seededRandom } from '../common/random.js';
import { loadLegs, type LoadedLeg } from '../tasks/aar/load.js';
import { aarDataDir } from '../paths.js';
import { stepBudget } from '../tasks/aar/schema.js';
import { TRIAL_FORMAT, writeTrialFolder } from '../trial/folder.js';
import { readTrialRecord, type TrialRecordInput } from '../trial/record.js';
import { sealTrialFolder } from '../trial/file-hashes.js';
import { HARNESS_VERSION } from '../harness/version.js';

/**
 * Made-up trial folders for benchmarks: for each leg, an agent that follows most of the golden path,
 * with tool logs of realistic size (page previews of 2,000 characters, JSON tool results) and a
 * mix of right, wrong and missing answers. Deterministic for a given seed.
 */

const WORDS = 'the of and in to a was is for on as by with from at his her which an were its also this first city river year national league'.split(' ');

function prose(random: () => number, length: number): string {
  let out = '';
  while (out.length < length) out += WORDS[Math.floor(random() * WORDS.length)] + (random() < 0.1 ? '.\n' : ' ');
  return out.slice(0, length);
}

function entry(tool: string, args: Record<string, unknown>, result: string, success: boolean, ts: number): string {
  const e: Record<string, unknown> = { tool, args, success, result_preview: [...result].slice(0, 2000).join(''), result_len: [...result].length, ts };
  if (typeof args.url === 'string') e.url = args.url;
  return JSON.stringify(e);
}

export function syntheticToolLog(loaded: LoadedLeg, random: () => number): string {
  const lines: string[] = [];
  let ts = 1767225600;
  const tick = (): number => (ts += 1 + random() * 20);
  for (const stop of loaded.leg.stops) {
    const value = typeof stop.extracted_value === 'string' ? stop.extracted_value : JSON.stringify(stop.extracted_value);
    if (stop.stop_type === 'page' && stop.page_url && random() < 0.85) {
      const page = `# ${stop.page_url.split('/').pop()}\n\n${prose(random, 900)} ${random() < 0.8 ? value : ''} ${prose(random, 4000)}`;
      lines.push(entry('fetch_webpage', { url: random() < 0.1 ? stop.page_url.replace('://en.', '://en.m.') : stop.page_url }, page, true, tick()));
    }
    if (stop.stop_type === 'tool') {
      for (const step of stop.bridge.tool_chain) {
        const args = Object.fromEntries(Object.entries(step.arguments).filter(([k]) => !k.startsWith('__')));
        if (step.tool_name === 'maps_elevation') args.locations = [{ latitude: 40 + random(), longitude: -70 - random() }];
        const ok = random() < 0.9;
        const result = ok ? JSON.stringify({ results: [{ value: stop.extracted_value, note: prose(random, 200) }] }, null, 2) : 'Error: upstream returned 500';
        lines.push(entry(step.tool_name, args, result, ok, tick()));
      }
    }
    // Exploration off the golden path: searches and pages that hold nothing of the leg's values
    // (the paper reports 16.5 tool calls per correct trial and 21.7 per incorrect one).
    if (random() < 0.2) lines.push(entry('web_search', { query: prose(random, 30).trim() }, JSON.stringify({ organic: [{ title: prose(random, 40), snippet: prose(random, 300) }] }), true, tick()));
    if (random() < 0.1) {
      const url = `https://en.wikipedia.org/wiki/${prose(random, 12).trim().replace(/\W+/g, '_')}`;
      lines.push(entry('fetch_webpage', { url }, `# Elsewhere\n\n${prose(random, 6000)}`, true, tick()));
    }
  }
  lines.push(entry('python_execute_code', { code: 'print(1 + 1)' }, '2', true, tick()));
  return lines.join('\n') + '\n';
}

export interface SyntheticJobOptions {
  withScores?: boolean;
  /** The agent id of the trials (default `synthetic`). */
  agent?: string;
  /**
   * Writes job.json with this effective config (as `aar run` does), and gives trials what a model agent
   * spends: tokens and cost scaled by `spend`, and a few timeouts among the unanswered ones.
   */
  job?: Record<string, unknown>;
  spend?: number;
}

/** Tokens, cost and endings of a model agent, drawn from their own sequence so the folders' other contents do not move. */
function syntheticRun(random: () => number, spend: number, answered: boolean) {
  const input = Math.floor((50_000 + random() * 250_000) * spend);
  const output = Math.floor((2_000 + random() * 20_000) * spend);
  const timedOut = !answered && random() < 0.5;
  return { input, output, cost: (input * 2.5 + output * 15) / 1e6, timedOut };
}

/** The legs a benchmark runs on: the data folder given as its argument, or the released data; exits with a message when none load. */
export async function benchLegs(dataDir: string = process.argv[2] ?? aarDataDir()): Promise<LoadedLeg[]> {
  const { legs, problems } = await loadLegs(dataDir);
  if (problems.length || !legs.length) {
    console.error(`cannot load legs from ${dataDir} (${problems.length} problems); pass the AAR data folder as argument`);
    process.exit(1);
  }
  return legs;
}

/** Writes one synthetic trial folder per leg into jobDir; returns the number written. */
export function writeSyntheticJob(jobDir: string, legs: readonly LoadedLeg[], seed = 1, options: SyntheticJobOptions = {}): number {
  const random = seededRandom(seed);
  const spendRandom = seededRandom(seed + 7919);
  const agent = options.agent ?? 'synthetic';
  if (options.job) {
    mkdirSync(jobDir, { recursive: true });
    writeFileSync(path.join(jobDir, 'job.json'), JSON.stringify({ harness_version: HARNESS_VERSION, config_file: path.join(jobDir, 'job.yaml'), config: options.job }, null, 2) + '\n');
  }
  for (const loaded of legs) {
    const roll = random();
    const answer = roll < 0.4 ? String(loaded.leg.passcode) : roll < 0.9 ? String(Math.floor(random() * 10)) : null;
    const trialId = `${agent}__${loaded.id.replaceAll('/', '__')}__1`;
    const spent = options.job ? syntheticRun(spendRandom, options.spend ?? 1, answer !== null) : null;
    const record: TrialRecordInput = {
      format: TRIAL_FORMAT,
      trial_id: trialId,
      job: 'bench',
      agent: { id: agent, name: agent, model: null, version: null },
      leg: { id: loaded.id, variant: loaded.variant, level: loaded.level, file: loaded.file, sha256: createHash('sha256').update(loaded.source).digest('hex') },
      attempt: 1,
      status: spent?.timedOut ? 'timed_out' : 'completed',
      error: spent?.timedOut ? 'killed at the 600 s timeout' : null,
      started_at: new Date(0).toISOString(),
      finished_at: new Date(60_000).toISOString(),
      timings: { total_s: 60, agent_s: 59, overhead_s: 1 },
      step_budget: stepBudget(loaded.leg),
      run: {
        steps: Math.floor(random() * 30), step_limit_hit: null, exit_code: spent?.timedOut ? null : 0,
        input_tokens: spent?.input ?? null, output_tokens: spent?.output ?? null, cached_tokens: spent ? 0 : null, cost_usd: spent?.cost ?? null,
      },
      seed: null,
      harness_version: HARNESS_VERSION,
    };
    const files: Record<string, string | Buffer> = {
      'trial.json': JSON.stringify(record, null, 2) + '\n',
      'leg.json': loaded.source,
      'tool_log.jsonl': syntheticToolLog(loaded, random),
    };
    if (answer !== null) files['answer.txt'] = answer;
    const dir = writeTrialFolder(jobDir, trialId, files);
    // As the harness does at the end of a trial: score.json from the folder's own files, then trial.json with every file's sha256.
    if (options.withScores) {
      writeFileSync(path.join(dir, 'score.json'), scoreToJson(scoreTrialDir(dir) as TrialScore));
      sealTrialFolder(dir, readTrialRecord(dir));
    }
  }
  return legs.length;
}
