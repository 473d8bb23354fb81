import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { PaperTrial as FamilyPaperTrial } from '../../family.js';
import { TRIAL_FILES } from '../../../trial/folder.js';
import type { TrialScore } from '../scoring/score.js';

/** One scored AAR trial of one configuration, as the paper's tables read it. */
export type PaperTrial = FamilyPaperTrial<TrialScore>;

/** What the tables need from a leg beyond its score: the roadblock templates it contains. */
export interface LegFacts {
  /** Each `tool` stop's template: its tool chain's tool names in order, e.g. `maps_geocode > maps_elevation`. */
  templates: string[];
}

/** Only the part of a leg the tables read (the full leg was checked when the job loaded it). */
const LegChainsSchema = z.looseObject({
  stops: z.array(z.looseObject({ stop_type: z.string(), bridge: z.looseObject({ tool_chain: z.array(z.looseObject({ tool_name: z.string() })) }) })),
});

export function legFactsOfText(text: string): LegFacts {
  const parsed = LegChainsSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  const templates = parsed.data.stops
    .filter((s) => s.stop_type === 'tool')
    .map((s) => s.bridge.tool_chain.map((step) => step.tool_name).join(' > '))
    .filter((t) => t.length > 0);
  return { templates };
}

/** Leg facts read from trial folders, once per leg content (sha256), however many configurations ran it. */
export class LegFactsCache {
  private readonly byHash = new Map<string, LegFacts>();

  of(trial: PaperTrial): LegFacts {
    const key = trial.record.leg.sha256;
    let facts = this.byHash.get(key);
    if (!facts) {
      const file = path.join(trial.dir, TRIAL_FILES.leg);
      try {
        facts = legFactsOfText(readFileSync(file, 'utf8'));
      } catch (error) {
        throw new Error(`${file}: ${(error as Error).message}`);
      }
      this.byHash.set(key, facts);
    }
    return facts;
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

export const faOf = (ts: readonly PaperTrial[]): number | null => meanDefined(ts.map((t) => t.score.fa));
export const pvrOf = (ts: readonly PaperTrial[]): number | null => meanDefined(ts.map((t) => t.score.pvr));
export const rcrOf = (ts: readonly PaperTrial[]): number | null => meanDefined(ts.map((t) => t.score.rcr));

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
  const groups = [...groupBy(trials, (t) => t.record.leg.variant)].sort(([a], [b]) => a.localeCompare(b));
  return groups.length > 1 ? [...groups, ['*', [...trials]]] : groups;
}
