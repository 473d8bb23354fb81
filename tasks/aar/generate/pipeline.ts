import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mixSeeds, seededRandom } from '../../../common/random.js';
import { ToolService } from '../../../tools/service.js';
import { ResponseStore } from '../../../tools/store/store.js';
import { auditLeg, INVARIANTS } from '../audit/invariants.js';
import type { Leg } from '../schema.js';
import { attemptLeg } from './attempt.js';
import { variantFolder, type LoadedGenerateConfig, type Variant } from './config.js';
import { dropped, kept, type PageInfo, type StepResult } from './draft.js';
import { Ledger } from './ledger.js';
import { PIPELINE_VERSION, type Provenance } from './leg-writer.js';
import type { LevelSpec } from './levels.js';
import type { ModelClient } from './model/client.js';
import { crawl, randomSeed, type Crawl } from './steps/crawl.js';
import type { GenerationTools } from './tool-runner.js';

/**
 * `aar legs generate`: for each variant and level, attempts until the level has its legs or its attempts
 * are spent. An attempt draws a seed, crawls (step 1), runs steps 2-8 (attempt.ts), then audits the leg's
 * six invariants against the answers the run stored; an accepted leg is written to
 * `<out>/legs/aar-<variant>/<level>/sample_NNN.json`.
 */

export interface GenerateRun {
  loaded: LoadedGenerateConfig;
  out: string;
  tools: GenerationTools;
  model?: ModelClient;
  /** The store folder the run writes (`<out>/store`). */
  storeDir: string;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface AcceptedLeg {
  id: string;
  file: string;
  leg: Leg;
  attempts: number;
}

export interface GenerateOutcome {
  accepted: AcceptedLeg[];
  attempts: number;
  /** Per variant/level: wanted, made, attempts. */
  slots: { variant: string; level: string; wanted: number; made: number; attempts: number }[];
  ledger: Ledger;
}

/**
 * The last gate: the six invariants against the answers the run stored (a fresh replay service, so an
 * answer stored after an earlier lookup missed is found). Every invariant must pass.
 */
export async function auditGate(leg: Leg, id: string, storeDir: string): Promise<StepResult<Leg>> {
  const audit = await auditLeg({ id, file: id, leg }, new ToolService({ mode: 'replay', store: new ResponseStore(storeDir) }));
  const failed = INVARIANTS.find((n) => audit.invariants[n].status !== 'pass');
  if (!failed) return kept(leg);
  const r = audit.invariants[failed];
  return dropped(`${failed}: ${r.problems[0] ?? r.notes[0] ?? 'not checked'}`);
}

/** What a run's attempts share: the ledger, the legs accepted, the pages they used, the crawls made. */
interface RunState {
  ledger: Ledger;
  accepted: AcceptedLeg[];
  /** Titles of pages accepted legs used (the planner avoids them). */
  used: Set<string>;
  /** Per seed and crawl shape: the crawl, or why it failed. */
  crawls: Map<string, Crawl | string>;
  nextSeed: number;
}

type Slot = GenerateOutcome['slots'][number];

export async function generateLegs(run: GenerateRun): Promise<GenerateOutcome> {
  const { loaded } = run;
  const { config } = loaded;
  const state: RunState = { ledger: new Ledger(), accepted: [], used: new Set(), crawls: new Map(), nextSeed: 0 };
  const slots: Slot[] = [];
  let attempts = 0;
  for (const [vi, variant] of config.variants.entries()) {
    for (const [li, level] of loaded.levels.entries()) {
      const slot: Slot = { variant: variantFolder(variant), level: level.name, wanted: config.legs_per_level, made: 0, attempts: 0 };
      slots.push(slot);
      while (slot.made < slot.wanted && slot.attempts < slot.wanted * config.attempts_per_leg) {
        slot.attempts++;
        attempts++;
        const random = seededRandom(mixSeeds(config.seed, vi, li, slot.attempts));
        const crawled = await crawlForAttempt(run, state, level, random);
        if (crawled) await attemptOnCrawl(run, state, { slot, variant, level, crawled, random });
      }
    }
  }
  return { accepted: state.accepted, attempts, slots, ledger: state.ledger };
}

/** Step 1: a seed (the config's next URL, or a random page) and its crawl, made once per seed and crawl shape; null when either failed (the ledger says why). */
async function crawlForAttempt(run: GenerateRun, state: RunState, level: LevelSpec, random: () => number): Promise<Crawl | null> {
  const { loaded, tools } = run;
  const { ledger, crawls } = state;
  let seed: PageInfo | string;
  if (loaded.seedUrls.length) seed = loaded.seedUrls[state.nextSeed++ % loaded.seedUrls.length]!;
  else {
    const drawn = await randomSeed(tools, loaded.config.seeds.random!, random, ledger, new Set());
    if (!drawn.ok) {
      ledger.drop('crawl', 'legs', drawn.reason);
      return null;
    }
    seed = drawn.value;
  }
  const key = `${typeof seed === 'string' ? seed : seed.url} ${level.crawl_depth} ${level.max_pages}`;
  if (!crawls.has(key)) {
    const crawled = await crawl(tools, seed, level, ledger);
    crawls.set(key, crawled.ok ? crawled.value : crawled.reason);
  }
  const crawled = crawls.get(key)!;
  if (typeof crawled === 'string') {
    ledger.drop('crawl', 'legs', crawled);
    return null;
  }
  ledger.keep('crawl', 'legs');
  return crawled;
}

/** Steps 2-8 and the audit on one crawl: an accepted leg is written to its slot's folder and its pages marked used. */
async function attemptOnCrawl(run: GenerateRun, state: RunState, at: { slot: Slot; variant: Variant; level: LevelSpec; crawled: Crawl; random: () => number }): Promise<void> {
  const { loaded, tools, model } = run;
  const { config } = loaded;
  const { slot, variant, level, crawled, random } = at;
  const { ledger, used } = state;
  const log = run.log ?? (() => {});
  const now = run.now ?? (() => new Date());
  const sampleId = `sample_${String(slot.made).padStart(3, '0')}`;
  const provenance = (modes: Provenance['steps'], alignment: number, implied: number): Provenance => ({
    pipeline: PIPELINE_VERSION,
    seed_url: crawled.seed.url,
    level: level.name,
    variant: slot.variant,
    model: model?.name ?? null,
    steps: modes,
    generated_at: now().toISOString(),
    tools: { mode: tools.mode, store: config.tools.store ?? null, world: config.tools.world ?? null },
    run_seed: config.seed,
    attempt: slot.attempts,
    roundtrip_alignment: alignment,
    implied_code: implied,
  });
  const outcome = await attemptLeg({ crawl: crawled, level, variant, tools, model, random, ledger, used, verbalizeOptions: { minAlignment: config.verbalize.min_alignment, attempts: config.verbalize.attempts }, provenance, sampleId });
  if (!outcome.ok) {
    log(`${slot.variant}/${level.name} attempt ${slot.attempts}: dropped at ${outcome.reason}`);
    return;
  }
  const id = `${slot.variant}/${level.name}/${sampleId}`;
  const dir = path.join(run.out, 'legs', slot.variant, level.name);
  const file = path.join(dir, `${sampleId}.json`);
  const audited = await auditGate(outcome.value.leg, id, run.storeDir);
  if (!audited.ok) {
    const reason = audited.reason;
    ledger.drop('audit', 'legs', reason);
    log(`${slot.variant}/${level.name} attempt ${slot.attempts}: dropped at audit: ${reason}`);
    return;
  }
  ledger.keep('audit', 'legs');
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(outcome.value.leg, null, 2)}\n`);
  for (const s of outcome.value.draft.stops) {
    const title = s.pageUrl ? crawled.pages.get(s.pageUrl)?.title : undefined;
    if (title) used.add(title);
  }
  state.accepted.push({ id, file, leg: outcome.value.leg, attempts: slot.attempts });
  slot.made++;
  log(`${id}: accepted (${outcome.value.leg.stops.length} stops, code ${outcome.value.leg.passcode}) after ${slot.attempts} attempts of this level`);
}
