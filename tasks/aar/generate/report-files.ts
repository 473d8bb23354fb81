import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Leg } from '../schema.js';
import type { LoadedGenerateConfig } from './config.js';
import type { StepTally } from './ledger.js';
import type { LevelSpec } from './levels.js';
import { PIPELINE_VERSION } from './leg-writer.js';
import type { StepUsage } from './model/client.js';
import type { GenerateOutcome } from './pipeline.js';
import { figure, legShape, meanJaccard, type RangeFigure } from './report.js';
import type { ToolStats } from './tool-runner.js';

/** `<out>/report.json` and its readable twin `<out>/report.md`. */

export interface GenerationReport {
  format: 'aar-harness/generation-report@1';
  pipeline: string;
  config: string;
  started_at: string;
  elapsed_s: number;
  legs_per_minute: number;
  /** The process's peak resident memory (the local model included when it ran in the process). */
  peak_rss_mb: number;
  accepted: number;
  attempts: number;
  slots: GenerateOutcome['slots'];
  /** cost_usd: the gateway's total over the priced requests; null when none could be priced (unpriced_requests: those without a price). */
  model: { name: string; steps: string[]; turns: number; input_tokens: number; output_tokens: number; cost_usd: number | null; unpriced_requests: number; by_step: Record<string, StepUsage> } | null;
  /** `store`: the output store's fingerprint (as `aar world info` prints it), the world the legs' golden values came from. */
  tools: ToolStats & { mode: string; source: { store: string | null; world: string | null }; store: { sha256: string; entries: number } };
  steps: Record<string, Record<string, StepTally>>;
  levels: { variant: string; level: string; legs: number; stops: RangeFigure; base_stops: RangeFigure; roadblocks: RangeFigure; detours: RangeFigure; diamonds: RangeFigure; tool_calls: RangeFigure }[];
  linear_share: Record<string, number>;
  jaccard: { within: ReturnType<typeof meanJaccard>; reference: (ReturnType<typeof meanJaccard> & { legs: number; path: string }) | null };
  legs: { id: string; file: string; seed: string; stops: number; passcode: number; attempts: number }[];
}

export interface ReportInputs {
  loaded: LoadedGenerateConfig;
  outcome: GenerateOutcome;
  startedAt: Date;
  elapsedS: number;
  peakRssMb: number;
  model: GenerationReport['model'];
  tools: GenerationReport['tools'];
  reference: { legs: readonly Leg[]; path: string } | null;
}

export function buildReport(r: ReportInputs): GenerationReport {
  const { outcome, loaded } = r;
  const legs = outcome.accepted.map((a) => a.leg);
  const levelOf = new Map<string, LevelSpec>(loaded.levels.map((l) => [l.name, l]));
  const levels = outcome.slots.map((slot) => {
    const shapes = outcome.accepted.filter((a) => a.id.startsWith(`${slot.variant}/${slot.level}/`)).map((a) => legShape(a.leg));
    const spec = levelOf.get(slot.level)!;
    const dag = slot.variant === 'aar-dag';
    return {
      variant: slot.variant,
      level: slot.level,
      legs: shapes.length,
      stops: figure(shapes.map((s) => s.stops), null),
      base_stops: figure(shapes.map((s) => s.baseStops), spec.stops),
      roadblocks: figure(shapes.map((s) => s.roadblocks), spec.roadblocks),
      detours: figure(shapes.map((s) => s.detours), spec.detours),
      diamonds: figure(shapes.map((s) => s.diamonds), dag ? spec.diamonds : [0, 0]),
      tool_calls: figure(shapes.map((s) => s.toolCalls), null),
    };
  });
  const variants = [...new Set(outcome.slots.map((s) => s.variant))];
  const linear_share = Object.fromEntries(variants.map((v) => {
    const of = outcome.accepted.filter((a) => a.id.startsWith(`${v}/`));
    return [v, of.length ? of.filter((a) => legShape(a.leg).linear).length / of.length : 0];
  }));
  return {
    format: 'aar-harness/generation-report@1',
    pipeline: PIPELINE_VERSION,
    config: loaded.file,
    started_at: r.startedAt.toISOString(),
    elapsed_s: Math.round(r.elapsedS * 10) / 10,
    legs_per_minute: Math.round((legs.length / Math.max(r.elapsedS / 60, 1e-9)) * 100) / 100,
    peak_rss_mb: r.peakRssMb,
    accepted: legs.length,
    attempts: outcome.attempts,
    slots: outcome.slots,
    model: r.model,
    tools: r.tools,
    steps: outcome.ledger.toJson(),
    levels,
    linear_share,
    jaccard: { within: meanJaccard(legs), reference: r.reference ? { ...meanJaccard(legs, r.reference.legs), legs: r.reference.legs.length, path: r.reference.path } : null },
    legs: outcome.accepted.map((a) => ({ id: a.id, file: a.file, seed: a.leg.seed_url, stops: a.leg.stops.length, passcode: a.leg.passcode, attempts: a.attempts })),
  };
}

const f = (x: RangeFigure): string => `${x.mean} (${x.min}-${x.max})${x.range ? ` [${x.range[0]}-${x.range[1]}: ${x.inRange}]` : ''}`;

export function reportMarkdown(r: GenerationReport): string {
  const lines = [
    `# Generation report`,
    '',
    `${r.accepted} legs accepted of ${r.attempts} attempts in ${r.elapsed_s} s (${r.legs_per_minute} legs per minute), peak memory ${r.peak_rss_mb} MB. Config ${r.config}; pipeline ${r.pipeline}; tools ${r.tools.mode} (${r.tools.calls} calls, ${r.tools.failed} failed, ${r.tools.stored} answers stored; the store's fingerprint sha256 ${r.tools.store.sha256.slice(0, 16)}..., ${r.tools.store.entries} entries).`,
    r.model ? `Model ${r.model.name} (steps: ${r.model.steps.join(', ') || 'none'}): ${r.model.turns} requests, ${r.model.input_tokens} input and ${r.model.output_tokens} output tokens, cost ${r.model.cost_usd === null ? 'unknown (the model has no price in the price table)' : `$${r.model.cost_usd.toFixed(4)}${r.model.unpriced_requests ? ` (${r.model.unpriced_requests} requests unpriced)` : ''}`}.` : 'No model: every step in its rule form (plan by rule, infobox and section extraction, template verbalizer, rule round-trip).',
    '',
    '## Per level (mean (min-max) [level range: legs inside])',
    '',
    '| variant | level | legs | stops | stops before diamonds | roadblocks | detours | diamonds | tool calls |',
    '|---|---|---:|---|---|---|---|---|---|',
    ...r.levels.map((l) => `| ${l.variant} | ${l.level} | ${l.legs} | ${f(l.stops)} | ${f(l.base_stops)} | ${f(l.roadblocks)} | ${f(l.detours)} | ${f(l.diamonds)} | ${f(l.tool_calls)} |`),
    '',
    `Linear share: ${Object.entries(r.linear_share).map(([v, s]) => `${v} ${(100 * s).toFixed(0)}%`).join(', ')}.`,
    `Mean pairwise Jaccard similarity of visited pages: ${r.jaccard.within.mean?.toFixed(4) ?? 'n/a'} over ${r.jaccard.within.pairs} pairs of generated legs` +
      (r.jaccard.reference ? `; ${r.jaccard.reference.mean?.toFixed(6) ?? 'n/a'} over ${r.jaccard.reference.pairs} pairs against the ${r.jaccard.reference.legs} legs of ${r.jaccard.reference.path}.` : '.'),
    '',
    '## Kept and dropped, per step',
    '',
    '| step | unit | kept | dropped | reasons (count: first example) |',
    '|---|---|---:|---:|---|',
  ];
  for (const [step, units] of Object.entries(r.steps)) {
    for (const [unit, t] of Object.entries(units)) {
      const reasons = Object.values(t.reasons).sort((a, b) => b.count - a.count).map((x) => `${x.count}: ${x.example.replace(/\|/g, '\\|')}`).join('<br>');
      lines.push(`| ${step} | ${unit} | ${t.kept} | ${t.dropped} | ${reasons} |`);
    }
  }
  if (r.model) {
    lines.push('', '## Model use per step', '', '| step | requests | failed | input tokens | output tokens |', '|---|---:|---:|---:|---:|');
    for (const [step, u] of Object.entries(r.model.by_step)) lines.push(`| ${step} | ${u.requests} | ${u.failed} | ${u.inputTokens} | ${u.outputTokens} |`);
  }
  return `${lines.join('\n')}\n`;
}

export function writeReport(out: string, report: GenerationReport): void {
  writeFileSync(path.join(out, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(out, 'report.md'), reportMarkdown(report));
}
