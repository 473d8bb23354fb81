/**
 * What each step of the pipeline kept and dropped, and why: per step and unit (seeds, plans, chains,
 * legs...), counts and the reasons of the drops with a count and a first example each.
 */

export const STEPS = ['crawl', 'plan', 'build', 'prevalidate', 'link', 'augment', 'execute', 'verbalize', 'audit'] as const;
export type StepName = (typeof STEPS)[number];

export interface StepTally {
  kept: number;
  dropped: number;
  /** Reason (its general form) -> count and the first full message seen. */
  reasons: Record<string, { count: number; example: string }>;
}

/** The general form of a reason: quoted names, URLs and numbers folded, so that like drops count together. */
export function reasonKey(reason: string): string {
  return reason
    .replace(/https?:\/\/\S+/g, 'URL')
    .replace(/\(the reply began "[^]*?"\)/g, '(the reply began "…")')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/-?\d+(\.\d+)?/g, 'N')
    .slice(0, 160);
}

export class Ledger {
  /** step -> unit -> tally */
  readonly steps = new Map<StepName, Map<string, StepTally>>();

  private tally(step: StepName, unit: string): StepTally {
    let units = this.steps.get(step);
    if (!units) this.steps.set(step, (units = new Map()));
    let t = units.get(unit);
    if (!t) units.set(unit, (t = { kept: 0, dropped: 0, reasons: {} }));
    return t;
  }

  keep(step: StepName, unit: string, count = 1): void {
    this.tally(step, unit).kept += count;
  }

  drop(step: StepName, unit: string, reason: string): void {
    const t = this.tally(step, unit);
    t.dropped++;
    const k = reasonKey(reason);
    const r = (t.reasons[k] ??= { count: 0, example: reason });
    r.count++;
  }

  /** Step -> unit -> tally, steps in pipeline order, as plain JSON. */
  toJson(): Record<string, Record<string, StepTally>> {
    const out: Record<string, Record<string, StepTally>> = {};
    for (const step of STEPS) {
      const units = this.steps.get(step);
      if (units) out[step] = Object.fromEntries(units);
    }
    return out;
  }
}
