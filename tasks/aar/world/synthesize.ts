import type { LoadedLeg } from '../load.js';
import type { Stop } from '../schema.js';
import { checkToolArgs, findTool } from '../../../tools/catalog/index.js';
import { formatPage } from '../../../tools/catalog/web-page.js';
import { jsonText } from '../../../tools/providers/formats.js';
import { callIdentity, canonicalUrl, type CallIdentity } from '../../../tools/store/canonical.js';
import { legFolder, ResponseStore } from '../../../tools/store/store.js';
import { runChain, type ConcreteCall } from './golden-calls.js';

/**
 * The synthetic "golden world": stored responses made from the legs' golden traces alone, so that an
 * agent following a leg's golden path obtains its golden values, with no network. It exists for smoke
 * and load tests of the whole pipeline; it says nothing about the real world (every entry is marked
 * `source: synthetic`, and pages say so in their text).
 */

export const SYNTHETIC_NOTE = 'Synthetic response of the AAR Harness golden world, made from a leg golden trace for testing; not real data.';

export interface SynthesisReport {
  legs: number;
  pages: number;
  toolResponses: number;
  /** Calls two legs need different answers to: the first leg's answer is shared, the others get their own. */
  conflicts: string[];
  /** Answers written for one leg only (under the store's per-leg/), where a leg disagrees with the shared answer. */
  legEntries: number;
  /** Calls one leg's golden path needs two answers to: its own entry holds them all, one per line. */
  merged: string[];
  /** The legs with such a merged answer: a step reading it sees every value the leg expects from that call. */
  mergedLegs: string[];
  /** Calls whose answer, as a leg's trial reads it (its own entry, else the shared one), lacks an answer the leg needs: none, checked. */
  keptFirst: string[];
  /** Steps that cannot be synthesised (a tool no golden chain uses). */
  skipped: string[];
}

/** The output of one golden call: intermediate steps get the tool's made-up data, the last step yields the stop's value. */
function outputFor(call: ConcreteCall, isLast: boolean, value: unknown, outputKey?: string | null): string | undefined {
  if (isLast && value !== null && typeof value === 'object') return jsonText(value);
  return findTool(call.tool)?.synthetic?.(call.args as Record<string, unknown>, value, outputKey);
}

function titleOf(url: string): string {
  const last = decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).pop() ?? url);
  return last.replace(/_/g, ' ');
}

/** Pages: every page stop's URL, holding every fact extracted from it by any leg, and its onward links. */
function collectPages(legs: readonly LoadedLeg[]): Map<string, { url: string; facts: Set<string>; links: Set<string> }> {
  const pages = new Map<string, { url: string; facts: Set<string>; links: Set<string> }>();
  const page = (url: string) => {
    const key = canonicalUrl(url);
    let p = pages.get(key);
    if (!p) pages.set(key, (p = { url: key, facts: new Set(), links: new Set() }));
    return p;
  };
  for (const { leg } of legs) {
    page(leg.seed_url);
    for (const stop of leg.stops) {
      if (stop.stop_type !== 'page' || !stop.page_url) continue;
      const p = page(stop.page_url);
      const value = typeof stop.extracted_value === 'string' ? stop.extracted_value : JSON.stringify(stop.extracted_value);
      p.facts.add(`${stop.extraction_target}: ${value}`);
      if (stop.bridge.target_url) p.links.add(stop.bridge.target_url);
    }
  }
  return pages;
}

/** Every answer one call needs: per leg (in leg order), the distinct texts its golden path needs, in order. */
interface CallAnswers {
  id: CallIdentity;
  byLeg: Map<string, { texts: string[]; where: string }>;
}

export async function synthesizeWorld(legs: readonly LoadedLeg[], store: ResponseStore): Promise<SynthesisReport> {
  // Every leg's per-leg folder is checked before anything is written: a refused id leaves the store as it was.
  for (const leg of legs) {
    try {
      legFolder(leg.id);
    } catch (error) {
      throw new Error(`${leg.file}: id: ${(error as Error).message}`);
    }
  }
  const report: SynthesisReport = { legs: legs.length, pages: 0, toolResponses: 0, conflicts: [], legEntries: 0, merged: [], mergedLegs: [], keptFirst: [], skipped: [] };
  const calls = await neededAnswers(legs, report);
  putAnswers(calls, store, report);
  // Read back as each leg's trial will (a fresh store: its own entry first, else the shared one).
  const served = new ResponseStore(store.dir);
  for (const { id, byLeg } of calls.values()) {
    for (const [leg, { texts, where }] of byLeg) {
      const text = served.get(id, leg || undefined)?.text ?? '';
      if (!texts.every((t) => text.includes(t))) report.keptFirst.push(`${where}: ${id.tool} ${id.args}`);
    }
  }
  return report;
}

/** The answers the legs' golden paths need, by call: the pages (needed by all, under the leg ''), then each leg's tool chains. */
async function neededAnswers(legs: readonly LoadedLeg[], report: SynthesisReport): Promise<Map<string, CallAnswers>> {
  const identity = (call: ConcreteCall, where: string): CallIdentity => {
    const tool = findTool(call.tool)!;
    const checked = checkToolArgs(tool, call.args);
    if (!checked.ok) throw new Error(`${where}: ${checked.error}`);
    return callIdentity(tool.name, checked.args);
  };
  const calls = new Map<string, CallAnswers>();
  /** Records an answer `leg` needs. */
  const need = (call: ConcreteCall, text: string, where: string, leg: string): void => {
    const id = identity(call, where);
    let answers = calls.get(id.key);
    if (!answers) calls.set(id.key, (answers = { id, byLeg: new Map() }));
    const own = answers.byLeg.get(leg);
    if (!own) answers.byLeg.set(leg, { texts: [text], where });
    else if (!own.texts.includes(text)) own.texts.push(text);
  };

  for (const p of collectPages(legs).values()) {
    const body = [
      `> ${SYNTHETIC_NOTE}`,
      '',
      '## Facts',
      ...[...p.facts].map((f) => `- ${f}`),
      ...(p.links.size ? ['', '## Links', ...[...p.links].map((l) => `- [${titleOf(l)}](${l})`)] : []),
    ].join('\n');
    need({ tool: 'fetch_webpage', args: { url: p.url } }, formatPage(titleOf(p.url), p.url, body), p.url, '');
  }
  for (const { id: legId, leg } of legs) {
    for (const stop of leg.stops) {
      if (stop.stop_type !== 'tool') continue;
      await synthesizeChain(stop, `${legId} stop ${stop.index}`, (call, text, where) => need(call, text, where, legId), report);
    }
  }
  return calls;
}

/**
 * The answers into the store. The first leg's first answer is shared; a leg needing another answer gets its
 * own, and a leg needing several answers to one call (its golden path asks the same thing twice and expects
 * two values) gets them all, one per line, as a page holds every fact any leg extracts from it.
 */
function putAnswers(calls: ReadonlyMap<string, CallAnswers>, store: ResponseStore, report: SynthesisReport): void {
  const legsMerged = new Set<string>();
  for (const { id, byLeg } of calls.values()) {
    const [first] = byLeg.values();
    const sharedText = first.texts[0];
    store.put(id, { ok: true, text: sharedText }, 'synthetic', SYNTHETIC_NOTE);
    if (id.tool === 'fetch_webpage') report.pages++;
    else report.toolResponses++;
    for (const [leg, { texts, where }] of byLeg) {
      if (leg === '' || (texts.length === 1 && texts[0] === sharedText)) continue;
      const own = texts.join('\n');
      if (texts.length > 1) {
        report.merged.push(`${where}: ${id.tool} ${id.args}`);
        legsMerged.add(leg);
      }
      if (texts[0] !== sharedText) report.conflicts.push(`${where}: ${id.tool} ${id.args}`);
      store.put(id, { ok: true, text: own }, 'synthetic', SYNTHETIC_NOTE, leg);
      report.legEntries++;
    }
  }
  report.mergedLegs = [...legsMerged].sort();
}

async function synthesizeChain(stop: Stop, where: string, put: (c: ConcreteCall, t: string, w: string) => void, report: SynthesisReport): Promise<void> {
  const chain = stop.bridge.tool_chain;
  let position = 0;
  await runChain(chain, async (call) => {
    const step = chain[position];
    const isLast = ++position === chain.length;
    if (call.tool === 'python_execute_code') return String(stop.extracted_value);
    const text = outputFor(call, isLast, stop.extracted_value, step.output_key);
    if (text === undefined) {
      report.skipped.push(`${where}: ${call.tool} is not synthesised`);
      return '';
    }
    put(call, text, where);
    return text;
  });
}
