import type { LoadedLeg } from '../load.js';
import type { Stop } from '../schema.js';
import { checkToolArgs, findTool } from '../../../tools/catalog/index.js';
import { formatPage } from '../../../tools/catalog/web-page.js';
import { jsonText } from '../../../tools/providers/formats.js';
import { callIdentity, canonicalUrl } from '../../../tools/store/canonical.js';
import type { ResponseStore } from '../../../tools/store/store.js';
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
  /** Calls two legs need different answers for; the first leg's answer is kept. */
  conflicts: string[];
  /** The legs whose golden path reads another leg's answer somewhere (a conflict they lost): their oracle can fail on this store. */
  conflictLegs: string[];
  /** Steps that cannot be synthesised (a tool no golden chain uses). */
  skipped: string[];
}

/** The output of one golden call: intermediate steps get the tool's made-up data, the last step yields the stop's value. */
function outputFor(call: ConcreteCall, isLast: boolean, value: unknown): string | undefined {
  if (isLast && value !== null && typeof value === 'object') return jsonText(value);
  return findTool(call.tool)?.synthetic?.(call.args as Record<string, unknown>, value);
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

export async function synthesizeWorld(legs: readonly LoadedLeg[], store: ResponseStore): Promise<SynthesisReport> {
  const report: SynthesisReport = { legs: legs.length, pages: 0, toolResponses: 0, conflicts: [], conflictLegs: [], skipped: [] };
  const losers = new Set<string>();
  const written = new Map<string, string>();
  const put = (call: ConcreteCall, text: string, where: string, leg?: string): void => {
    const tool = findTool(call.tool)!;
    const checked = checkToolArgs(tool, call.args);
    if (!checked.ok) throw new Error(`${where}: ${checked.error}`);
    const id = callIdentity(tool.name, checked.args);
    const previous = written.get(id.key);
    if (previous !== undefined) {
      if (previous !== text) {
        report.conflicts.push(`${where}: ${id.tool} ${id.args}`);
        if (leg) losers.add(leg);
      }
      return;
    }
    written.set(id.key, text);
    store.put(id, { ok: true, text }, 'synthetic', SYNTHETIC_NOTE);
    if (tool.name === 'fetch_webpage') report.pages++;
    else report.toolResponses++;
  };

  for (const p of collectPages(legs).values()) {
    const body = [
      `> ${SYNTHETIC_NOTE}`,
      '',
      '## Facts',
      ...[...p.facts].map((f) => `- ${f}`),
      ...(p.links.size ? ['', '## Links', ...[...p.links].map((l) => `- [${titleOf(l)}](${l})`)] : []),
    ].join('\n');
    put({ tool: 'fetch_webpage', args: { url: p.url } }, formatPage(titleOf(p.url), p.url, body), p.url);
  }

  for (const { id, leg } of legs) {
    for (const stop of leg.stops) {
      if (stop.stop_type !== 'tool') continue;
      await synthesizeChain(stop, `${id} stop ${stop.index}`, (c, t, w) => put(c, t, w, id), report);
    }
  }
  report.conflictLegs = [...losers].sort();
  return report;
}

async function synthesizeChain(stop: Stop, where: string, put: (c: ConcreteCall, t: string, w: string) => void, report: SynthesisReport): Promise<void> {
  const chain = stop.bridge.tool_chain;
  let position = 0;
  await runChain(chain, async (call) => {
    const isLast = ++position === chain.length;
    if (call.tool === 'python_execute_code') return String(stop.extracted_value);
    const text = outputFor(call, isLast, stop.extracted_value);
    if (text === undefined) {
      report.skipped.push(`${where}: ${call.tool} is not synthesised`);
      return '';
    }
    put(call, text, where);
    return text;
  });
}
