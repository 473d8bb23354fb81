import PQueue from 'p-queue';
import type { LoadedLeg } from '../load.js';
import { LEVELS } from '../schema.js';
import { runChain } from './golden-calls.js';
import { answersOf, chainValue, sameGoldenValue } from './golden-value.js';
import { recomputeLeg } from './recompute.js';

/**
 * The drift audit (`aar world audit`): every leg's golden tool chains run again through the tool service (a
 * store, or live), each chain's value read as the golden executor read it, and the leg recomputed from the
 * values now (recompute.ts) to see whether its golden passcode still holds. A leg is:
 *   held              every tool value is the golden one
 *   value-drifted     a value changed, but the passcode is the same (the paper's modular arithmetic absorbs it)
 *   passcode-changed  the passcode an agent would now compute is another
 *   call-failed       a call of its chains failed (an error, a replay miss): its values cannot be known
 * Page stops and search bridges are not audited (their values are read from pages by the agent).
 */

export const LEG_STATUSES = ['held', 'value-drifted', 'passcode-changed', 'call-failed'] as const;
export type LegStatus = (typeof LEG_STATUSES)[number];

/** One tool call as the audit makes it: through the tool service, for `leg` (its own store answers first). */
export type AuditCall = (tool: string, args: Record<string, unknown>, leg: string) => Promise<{ ok: boolean; text: string }>;

export interface StopAudit {
  stop: number;
  /** The chain's tools, in order. */
  chain: string[];
  status: 'held' | 'drifted' | 'failed';
  golden: unknown;
  now?: unknown;
  /** Why the chain failed: the first failed call's answer, or why no value could be read. */
  reason?: string;
}

export interface LegAudit {
  id: string;
  variant: string;
  level: string;
  status: LegStatus;
  passcode: number;
  /** The passcode recomputed from today's values; null when a value it needs could not be had. */
  passcodeNow: number | null;
  stops: StopAudit[];
  /** Stops whose recomputed value (merges, conversions, reason and compute stops) changed. */
  recomputed: { stop: number; golden: unknown; now: unknown }[];
  notes: string[];
}

export interface ToolTally {
  /** Chains ending with this tool. */
  chains: number;
  held: number;
  drifted: number;
  failed: number;
}

export interface AuditReport {
  legs: LegAudit[];
  byStatus: Record<LegStatus, number>;
  byTool: Record<string, ToolTally>;
  byLevel: Record<string, Record<LegStatus, number>>;
  calls: number;
  seconds: number;
}

const emptyStatus = (): Record<LegStatus, number> => Object.fromEntries(LEG_STATUSES.map((s) => [s, 0])) as Record<LegStatus, number>;

/** Audits one leg. */
export async function auditLeg(loaded: LoadedLeg, call: AuditCall, countCall: () => void = () => {}): Promise<LegAudit> {
  const { leg } = loaded;
  const stops: StopAudit[] = [];
  const now = new Map<number, unknown>();
  for (const stop of leg.stops) {
    const chain = stop.bridge.tool_chain;
    if (stop.stop_type !== 'tool' || !chain.length || chain.at(-1)!.tool_name === 'python_execute_code') continue;
    const audit: StopAudit = { stop: stop.index, chain: chain.map((s) => s.tool_name), status: 'held', golden: stop.extracted_value };
    let failure: string | undefined;
    let texts: string[] = [];
    try {
      texts = await runChain(chain, async (c) => {
        countCall();
        const r = await call(c.tool, c.args, loaded.id);
        if (!r.ok) throw new Error(`${c.tool}: ${r.text.split('\n')[0]}`);
        return r.text;
      });
    } catch (error) {
      failure = (error as Error).message;
    }
    const last = chain.at(-1)!;
    // An answer holding several (a synthetic store's for a leg asking one call twice): the one giving the golden value.
    const values = failure === undefined ? answersOf(texts.at(-1) ?? '').map((t) => chainValue(last.tool_name, last.output_key, t)) : [];
    const value = failure !== undefined ? { ok: false as const, reason: failure } : (values.find((v) => v.ok && sameGoldenValue(v.value, stop.extracted_value)) ?? values[0]);
    if (!value.ok) {
      audit.status = 'failed';
      audit.reason = value.reason;
      now.set(stop.index, { failed: value.reason });
    } else {
      audit.now = value.value;
      audit.status = sameGoldenValue(value.value, stop.extracted_value) ? 'held' : 'drifted';
      now.set(stop.index, value.value);
    }
    stops.push(audit);
  }
  const re = recomputeLeg(leg, now);
  const last = [...leg.stops].reverse().find((s) => s.stop_type === 'compute');
  const passcodeValue = last ? re.values.get(last.index) : undefined;
  const passcodeNow = last && !re.unknown.has(last.index) && typeof passcodeValue === 'number' ? passcodeValue : null;
  const toolStops = new Set(stops.map((s) => s.stop));
  const recomputed = [...re.changed].filter((i) => !toolStops.has(i)).map((i) => ({ stop: i, golden: leg.stops.find((s) => s.index === i)!.extracted_value, now: re.values.get(i) }));
  let status: LegStatus;
  if (stops.some((s) => s.status === 'failed') || passcodeNow === null) status = 'call-failed';
  else if (passcodeNow !== leg.passcode) status = 'passcode-changed';
  else if (stops.some((s) => s.status === 'drifted') || recomputed.length) status = 'value-drifted';
  else status = 'held';
  return { id: loaded.id, variant: loaded.variant, level: loaded.level, status, passcode: leg.passcode, passcodeNow, stops, recomputed, notes: re.notes };
}

/** Audits legs, `concurrency` at a time; `progress` hears of each leg done. */
export async function auditLegs(legs: readonly LoadedLeg[], call: AuditCall, options: { concurrency?: number; progress?: (done: number, leg: LegAudit) => void } = {}): Promise<AuditReport> {
  const started = Date.now();
  const queue = new PQueue({ concurrency: options.concurrency ?? 8 });
  let calls = 0;
  let done = 0;
  const results = await Promise.all(
    legs.map((l) =>
      queue.add(async () => {
        const audit = await auditLeg(l, call, () => calls++);
        options.progress?.(++done, audit);
        return audit;
      }) as Promise<LegAudit>,
    ),
  );
  const report: AuditReport = { legs: results, byStatus: emptyStatus(), byTool: {}, byLevel: {}, calls, seconds: (Date.now() - started) / 1000 };
  for (const level of LEVELS) report.byLevel[level] = emptyStatus();
  for (const leg of results) {
    report.byStatus[leg.status]++;
    (report.byLevel[leg.level] ??= emptyStatus())[leg.status]++;
    for (const s of leg.stops) {
      const tool = s.chain.at(-1)!;
      const t = (report.byTool[tool] ??= { chains: 0, held: 0, drifted: 0, failed: 0 });
      t.chains++;
      t[s.status]++;
    }
  }
  return report;
}

/** Legs whose golden passcode does not hold now (changed, or a call failed): a `tasks.exclude` list. */
export const notHolding = (report: AuditReport): string[] => report.legs.filter((l) => l.status === 'passcode-changed' || l.status === 'call-failed').map((l) => l.id).sort();

const shown = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? 'none');

export function formatAudit(report: AuditReport, world: string): string {
  const n = report.legs.length;
  const pct = (k: number) => (n ? `${((100 * k) / n).toFixed(1)}%` : '-');
  const lines = [
    `world audit of ${n} legs against ${world}: ${report.calls} tool calls in ${report.seconds.toFixed(1)} s`,
    '',
    '| status | legs | share |',
    '|---|---|---|',
    ...LEG_STATUSES.map((s) => `| ${s} | ${report.byStatus[s]} | ${pct(report.byStatus[s])} |`),
    '',
    '| tool (last of the chain) | chains | held | drifted | failed |',
    '|---|---|---|---|---|',
    ...Object.entries(report.byTool).sort().map(([tool, t]) => `| ${tool} | ${t.chains} | ${t.held} | ${t.drifted} | ${t.failed} |`),
    '',
    `| level | ${LEG_STATUSES.join(' | ')} |`,
    `|---|${LEG_STATUSES.map(() => '---|').join('')}`,
    ...Object.entries(report.byLevel).filter(([, c]) => Object.values(c).some((x) => x > 0)).map(([level, c]) => `| ${level} | ${LEG_STATUSES.map((s) => c[s]).join(' | ')} |`),
  ];
  const notable = report.legs.filter((l) => l.status !== 'held');
  if (notable.length) lines.push('', 'Legs that did not hold:');
  for (const l of notable) {
    const why = [
      ...l.stops.filter((s) => s.status !== 'held').map((s) => `stop ${s.stop} ${s.chain.join('->')}: ${s.status === 'failed' ? `failed (${s.reason})` : `${shown(s.golden)} -> ${shown(s.now)}`}`),
      ...l.recomputed.map((r) => `stop ${r.stop}: ${shown(r.golden)} -> ${shown(r.now)}`),
    ];
    lines.push(`- ${l.id}: ${l.status}, passcode ${l.passcode}${l.passcodeNow === null ? ' -> unknown' : l.passcodeNow !== l.passcode ? ` -> ${l.passcodeNow}` : ''}; ${why.join('; ')}${l.notes.length ? ` (${l.notes.join('; ')})` : ''}`);
  }
  return lines.join('\n');
}
