import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { reduceLeg, type Reducer } from '../../../common/reducers.js';
import type { PaperTrial as FamilyPaperTrial } from '../../family.js';
import { TRIAL_FILES } from '../../../trial/folder.js';
import type { LegView } from '../scoring/leg-view.js';
import { legView, type TrialScore } from '../scoring/score.js';
import { tallyToolLog } from '../scoring/tally.js';
import { aarSliceOf } from '../slices.js';
import { templateOf, type StopTemplate } from './templates.js';

/** One scored AAR trial of one configuration, as the paper's tables read it. */
export type PaperTrial = FamilyPaperTrial<TrialScore>;

/** What the tables need from a leg beyond its score: the templates of its tool stops. */
export interface LegFacts {
  /** Each `tool` stop's template, in the leg's order (the order of LegView.toolStopChains). */
  templates: StopTemplate[];
}

/** Only the part of a leg the tables read (the full leg was checked when the job loaded it). */
const ChainStepSchema = z.looseObject({ tool_name: z.string(), output_key: z.string().nullable().optional(), arguments: z.record(z.string(), z.unknown()).optional() });
const LegChainsSchema = z.looseObject({
  stops: z.array(z.looseObject({ stop_type: z.string(), bridge: z.looseObject({ tool_chain: z.array(ChainStepSchema) }) })),
});

export function legFactsOfText(text: string): LegFacts {
  const parsed = LegChainsSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  return { templates: parsed.data.stops.filter((s) => s.stop_type === 'tool').map((s) => templateOf(s.bridge.tool_chain)) };
}

/** Leg facts read from trial folders, once per leg content (sha256), however many configurations ran it. */
export class LegFactsCache {
  private readonly byHash = new Map<string, LegFacts>();
  private readonly views = new Map<string, LegView>();

  of(trial: PaperTrial): LegFacts {
    return this.cached(this.byHash, trial, legFactsOfText);
  }

  /**
   * Per tool stop of the trial's leg: its chain done, by METRICS.md's RCR rule. An RCR of 1 or 0 already
   * says it for every stop; only a partial one needs the trial's tool log read again.
   */
  toolStopsCompleted(trial: PaperTrial): boolean[] {
    const { templates } = this.of(trial);
    const { rcr } = trial.score;
    if (rcr === 1 || rcr === 0) return templates.map(() => rcr === 1);
    const view = this.cached(this.views, trial, (text) => {
      const built = legView(text);
      if (built.toolStopChains.length !== templates.length) throw new Error(`${templates.length} tool stops, but the scorer reads ${built.toolStopChains.length}`);
      return built;
    });
    return tallyToolLog(view, { file: path.join(trial.dir, TRIAL_FILES.toolLog) }).toolStopsCompleted;
  }

  private cached<T>(map: Map<string, T>, trial: PaperTrial, read: (text: string) => T): T {
    const key = trial.record.leg.sha256;
    let value = map.get(key);
    if (value === undefined) {
      const file = path.join(trial.dir, TRIAL_FILES.leg);
      try {
        value = read(readFileSync(file, 'utf8'));
      } catch (error) {
        throw new Error(`${file}: ${(error as Error).message}`);
      }
      map.set(key, value);
    }
    return value;
  }
}

/** Mean of the defined values; null when none is. */
export function meanDefined(values: readonly (number | null | undefined)[]): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (typeof v === 'number' && Number.isFinite(v)) {
      sum += v;
      n++;
    }
  }
  return n ? sum / n : null;
}

/**
 * The leg is the unit: each leg's defined values over its attempts are averaged first, then the legs'
 * means. With one attempt per leg (or the same number on every leg) it is the plain mean over trials; a leg
 * with an attempt lost to an infrastructure error still counts once. Null when no leg has a value.
 */
export function legMean<T>(items: readonly T[], legOf: (item: T) => string, value: (item: T) => number | null | undefined): number | null {
  return meanDefined([...groupBy(items, legOf).values()].map((ofLeg) => meanDefined(ofLeg.map(value))));
}

const legIdOf = (t: PaperTrial): string => t.record.leg.id;
/** Leg-weighted mean of a trial value (see legMean). */
export const perLeg = (ts: readonly PaperTrial[], value: (t: PaperTrial) => number | null | undefined): number | null => legMean(ts, legIdOf, value);
/** Leg-weighted share of trials meeting a condition: per leg the share of its attempts, then the mean over legs. */
export const legShare = (ts: readonly PaperTrial[], holds: (t: PaperTrial) => boolean): number | null => perLeg(ts, (t) => (holds(t) ? 1 : 0));
/** FA over legs, each leg's attempts reduced first by `reducer` (mean: the share right; pass@k: any right; pass^k: all right). */
export const faOf = (ts: readonly PaperTrial[], reducer: Reducer = 'mean'): number | null =>
  meanDefined([...groupBy(ts, legIdOf).values()].map((ofLeg) => reduceLeg(ofLeg.map((t) => t.score.fa), reducer, true)));
export const pvrOf = (ts: readonly PaperTrial[]): number | null => perLeg(ts, (t) => t.score.pvr);
export const rcrOf = (ts: readonly PaperTrial[]): number | null => perLeg(ts, (t) => t.score.rcr);
/** Distinct legs among the trials. */
export const legCount = (ts: readonly PaperTrial[]): number => new Set(ts.map(legIdOf)).size;

/** Groups in first-seen order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** The variant groups of a configuration's trials: every variant, then `*` (all) when there are several. */
export function byVariant(trials: readonly PaperTrial[]): [string, PaperTrial[]][] {
  const groups = [...groupBy(trials, (t) => aarSliceOf(t).variant)].sort(([a], [b]) => a.localeCompare(b));
  return groups.length > 1 ? [...groups, ['*', [...trials]]] : groups;
}
