import { validateLeg } from '../golden/validate.js';
import type { Leg } from '../schema.js';
import { forbiddenTitles } from '../audit/title-leaks.js';
import type { Variant } from './config.js';
import type { DraftLeg, StepModes, StepResult } from './draft.js';
import { dropped, kept } from './draft.js';
import type { Ledger, StepName } from './ledger.js';
import type { LevelSpec } from './levels.js';
import { writeLeg, type Provenance } from './leg-writer.js';
import type { ModelClient } from './model/client.js';
import { augment } from './steps/augment.js';
import { build } from './steps/build.js';
import type { Crawl } from './steps/crawl.js';
import { addDetours } from './steps/detours.js';
import { execute } from './steps/execute.js';
import { link } from './steps/link.js';
import { plan, planView } from './steps/plan.js';
import { prevalidate } from './steps/prevalidate.js';
import type { GenerationTools } from './tool-runner.js';
import { clueView } from './verbalize/clues.js';
import { verbalize } from './verbalize/verbalize.js';

/**
 * One attempt at one leg, steps 2 to 8 on a crawl: plan, build, pre-validate, detours, link, augment
 * (DAG), execute (then the golden executor as validator), verbalize. Each step that drops the leg says
 * why, in the ledger under its name.
 */

export interface AttemptContext {
  crawl: Crawl;
  level: LevelSpec;
  variant: Variant;
  tools: GenerationTools;
  model: ModelClient | undefined;
  random: () => number;
  ledger: Ledger;
  /** Titles of pages accepted legs used (the planner avoids them). */
  used: ReadonlySet<string>;
  verbalizeOptions: { minAlignment: number; attempts: number };
  provenance: (modes: StepModes, alignment: number, implied: number) => Provenance;
  sampleId: string;
}

/** The written leg through the golden executor (`aar tasks validate`): the first mismatch drops it. */
export function goldenCheck(leg: Leg, id: string): StepResult<Leg> {
  const validation = validateLeg({ id, file: id, leg });
  return validation.mismatches.length ? dropped(`the golden executor disagrees: ${validation.mismatches[0]!.path}: ${validation.mismatches[0]!.message}`) : kept(leg);
}

const between = (random: () => number, [lo, hi]: readonly [number, number]): number => lo + Math.floor(random() * (hi - lo + 1));

/** Fails the leg at a step, recording why. */
function fail<T>(ctx: AttemptContext, step: StepName, reason: string): StepResult<T> {
  ctx.ledger.drop(step, 'legs', reason);
  return dropped(`${step}: ${reason}`);
}

export async function attemptLeg(ctx: AttemptContext): Promise<StepResult<{ leg: Leg; draft: DraftLeg }>> {
  const { crawl, level, tools, model, random, ledger } = ctx;
  const roadblocks = between(random, level.roadblocks);
  let detours = between(random, level.detours);
  const stops = Math.max(between(random, level.stops), roadblocks + detours + 2);
  const pagesWanted = stops - roadblocks - detours - 1;
  const view = planView(crawl, pagesWanted, level.extraction.filter((k) => k !== 'prose' || model?.steps.has('extract')), ctx.used, Math.floor(random() * 1e9));
  const offering = view.pages.filter((p) => p.facts.length).length;
  if (offering < pagesWanted) return fail(ctx, 'plan', `the crawl offers ${offering} pages with facts; the leg needs ${pagesWanted}`);

  const planned = await plan(crawl, view, model);
  if (!planned.ok) return fail(ctx, 'plan', planned.reason);
  ledger.keep('plan', 'legs');

  const built = await build(crawl, planned.value, model, random, ledger);
  if (!built.ok) return fail(ctx, 'build', built.reason);
  ledger.keep('build', 'legs');

  const checked = await prevalidate(built.value.pages, built.value.candidates, { min: level.roadblocks[0], want: roadblocks }, tools, ledger);
  if (!checked.ok) return fail(ctx, 'prevalidate', checked.reason);
  ledger.keep('prevalidate', 'legs');
  const held = checked.value.filter((s) => s.type === 'tool').length;
  // Fewer roadblocks held than drawn: more detours keep the leg within the level's stops, as far as the level allows.
  detours = Math.min(level.detours[1], detours + Math.max(0, level.stops[0] - (pagesWanted + held + detours + 1)));
  const withDetours = addDetours(checked.value, detours, random, ledger);
  if (!withDetours.ok) return fail(ctx, 'build', withDetours.reason);
  const count = withDetours.value.length + 1;
  if (count < level.stops[0]) return fail(ctx, 'prevalidate', `${count} stops after pre-validation; the level needs ${level.stops[0]}`);

  const linked = await link(withDetours.value, crawl, tools, ledger);
  if (!linked.ok) return fail(ctx, 'link', linked.reason);
  ledger.keep('link', 'legs');

  let shaped = linked.value;
  if (ctx.variant === 'dag') {
    const augmented = await augment(shaped, crawl, { min: Math.max(1, level.diamonds[0]), want: between(random, level.diamonds) }, tools, random, ledger);
    if (!augmented.ok) return fail(ctx, 'augment', augmented.reason);
    ledger.keep('augment', 'legs');
    shaped = augmented.value;
  }

  const executed = await execute(shaped, tools, random);
  if (!executed.ok) return fail(ctx, 'execute', executed.reason);
  const modes: StepModes = {
    plan: model?.steps.has('plan') ? 'model' : 'rule',
    extract: shaped.some((s) => s.role.kind === 'page' && s.role.fact.by === 'model') ? 'model' : 'rule',
    verbalize: model?.steps.has('verbalize') ? 'model' : 'rule',
    roundtrip: model?.steps.has('roundtrip') ? 'model' : 'rule',
  };
  const draft: DraftLeg = { seedUrl: crawl.seed.url, seedTitle: crawl.seed.title, level, variant: ctx.variant, theme: planned.value.theme, stops: executed.value, pagesCrawled: crawl.pages.size, modes };
  const unworded = writeLeg(draft, '', ctx.sampleId, ctx.provenance(modes, 0, draft.stops.at(-1)!.value as number));
  const golden = goldenCheck(unworded, ctx.sampleId);
  if (!golden.ok) return fail(ctx, 'execute', golden.reason);
  ledger.keep('execute', 'legs');

  const worded = await verbalize(unworded, clueView(draft, crawl, forbiddenTitles(unworded)), model, ctx.verbalizeOptions, ledger);
  if (!worded.ok) return fail(ctx, 'verbalize', worded.reason);
  ledger.keep('verbalize', 'legs');
  return kept({ leg: writeLeg(draft, worded.value.riddle, ctx.sampleId, ctx.provenance(modes, worded.value.alignment, worded.value.implied)), draft });
}
