import { runProgram } from '../../../pycompat/interpreter/program.js';
import { checkToolArgs, findTool, TOOLS } from '../../../tools/catalog/index.js';
import type { ToolService } from '../../../tools/service.js';
import { validateLeg, type ValidatableLeg } from '../golden/validate.js';
import type { Leg, Stop } from '../schema.js';
import { concreteCall, coordinatesOf, type StepOutput } from '../world/golden-calls.js';
import { answersOf, chainValue, sameGoldenValue } from '../world/golden-value.js';
import { isGeocodable, isoDate, uncleanReason } from './inputs.js';
import { titleLeaks, type TitleLeak } from './title-leaks.js';

/**
 * The six invariants of the AAR paper's section 4.2, checked on one leg. Each is `pass`, `fail` (with
 * the problems) or `unchecked` (the evidence is not at hand: a dry run and page snapshots need a store).
 * See docs/generate.md for what each checks exactly.
 */

export const INVARIANTS = ['solvability', 'api_stability', 'reproducibility', 'input_cleanliness', 'geocodability', 'clue_integrity'] as const;
export type Invariant = (typeof INVARIANTS)[number];
export type InvariantStatus = 'pass' | 'fail' | 'unchecked';

export interface InvariantResult {
  status: InvariantStatus;
  problems: string[];
  notes: string[];
}

export interface LegAudit {
  id: string;
  file: string;
  invariants: Record<Invariant, InvariantResult>;
  titleLeaks: TitleLeak[];
}

const WIRING = new Set(['__from_previous', '__from_previous_as_locations', '__from_previous_as_origins_destinations']);
const TOOL_NAMES = TOOLS.map((t) => t.name);

const result = (problems: string[], checked: boolean, notes: string[] = []): InvariantResult => ({ status: problems.length ? 'fail' : checked ? 'pass' : 'unchecked', problems, notes });

/** An answer holds a value: its text written in it, or a number within 1% of it (as the authors' golden executor reads numbers). */
export function answerHolds(text: string, value: unknown): boolean {
  if (typeof value === 'string') return text.toLowerCase().includes(value.toLowerCase());
  if (typeof value !== 'number') return text.includes(JSON.stringify(value));
  for (const m of text.matchAll(/-?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?/gi)) {
    const found = Number(m[0].replace(/,/g, ''));
    if (value === 0 ? found === 0 : Math.abs(found - value) / Math.max(Math.abs(value), 1) < 0.01) return true;
  }
  return false;
}

/** The text arguments a step sends, by name (wiring and code left out). */
function textArgs(step: Stop['bridge']['tool_chain'][number]): [string, string][] {
  return Object.entries(step.arguments).flatMap(([k, v]) => (k.startsWith('__') || k === 'code' || typeof v !== 'string' ? [] : [[k, v] as [string, string]]));
}

/** The place names a step sends to a maps tool. */
function placeArgs(step: Stop['bridge']['tool_chain'][number]): string[] {
  const a = step.arguments;
  if (step.tool_name === 'maps_geocode' && typeof a.address === 'string') return [a.address];
  if (step.tool_name === 'maps_directions') return [a.origin, a.destination].filter((x): x is string => typeof x === 'string');
  if (step.tool_name === 'maps_search_places' && typeof a.query === 'string') return [/\snear\s(.+)$/i.exec(a.query)?.[1] ?? a.query];
  return [];
}

function structure(leg: Leg): string[] {
  const problems: string[] = [];
  for (const stop of leg.stops) {
    const keys = new Set<string>();
    stop.bridge.tool_chain.forEach((step, j) => {
      const where = `stop ${stop.index} step ${j}`;
      const tool = findTool(step.tool_name);
      if (!tool) problems.push(`${where}: ${step.tool_name} is no AAR tool`);
      for (const [k, v] of Object.entries(step.arguments)) {
        if (!k.startsWith('__')) continue;
        if (!WIRING.has(k)) problems.push(`${where}: unknown wiring key ${k}`);
        for (const ref of [v].flat()) if (typeof ref !== 'string' || !keys.has(ref)) problems.push(`${where}: ${k} names ${JSON.stringify(ref)}, which no earlier step stores`);
      }
      if (tool && !Object.keys(step.arguments).some((k) => k.startsWith('__'))) {
        const checked = checkToolArgs(tool, step.arguments);
        if (!checked.ok) problems.push(`${where}: ${checked.error}`);
      }
      if (step.output_key) keys.add(step.output_key);
    });
  }
  return problems;
}

/**
 * Runs a stop's chain on stored answers (python steps in the interpreter; a leg's own entries first, as its
 * trials get them); a problem, or undefined when it reproduces the value.
 */
async function dryRun(stop: Stop, tools: ToolService, legId: string): Promise<string | undefined> {
  const outputs = new Map<string, StepOutput>();
  let last = '';
  for (const [j, step] of stop.bridge.tool_chain.entries()) {
    let call;
    try {
      call = concreteCall(step, outputs);
    } catch (error) {
      return `stop ${stop.index} step ${j}: ${(error as Error).message}`;
    }
    if (call.tool === 'python_execute_code') {
      const run = runProgram(String(call.args.code));
      if (!run.ok) return `stop ${stop.index} step ${j}: the program fails: ${run.message}`;
      last = run.stdout;
    } else {
      const answer = await tools.call(call.tool, call.args, undefined, legId);
      if (!answer.ok) return `stop ${stop.index} step ${j}: ${call.tool} answers ${answer.text.split('\n')[0]}`;
      last = answer.text;
    }
    if (step.output_key) outputs.set(step.output_key, { text: last, coords: coordinatesOf(last) });
  }
  const final = stop.bridge.tool_chain.at(-1);
  if (!final) return undefined;
  // What the golden executor reads from the answer (a route's whole minutes from its seconds; a synthetic answer
  // may hold several, one per line) must give the value; where it reads no number, the value written in it will do.
  const read = answersOf(last).map((t) => chainValue(final.tool_name, final.output_key, t)).flatMap((v) => (v.ok ? [v.value] : []));
  const held = read.some((v) => sameGoldenValue(v, stop.extracted_value)) || (!read.some((v) => typeof v === 'number') && answerHolds(last, stop.extracted_value));
  return held ? undefined : `stop ${stop.index}: the chain's last answer does not hold ${JSON.stringify(stop.extracted_value)}`;
}

export async function auditLeg(loaded: ValidatableLeg, tools?: ToolService): Promise<LegAudit> {
  const { leg } = loaded;
  const solvability = validateLeg(loaded).mismatches.map((m) => `${m.path}: ${m.message}`);
  const api = await apiStability(loaded, tools);
  const repro = await reproducibility(leg, tools);
  const { clean, places } = inputCleanliness(leg);
  const geo = await geocodability(places, tools);
  const clue = clueIntegrity(leg);
  return {
    id: loaded.id,
    file: loaded.file,
    titleLeaks: clue.leaks,
    invariants: {
      solvability: result(solvability, true),
      api_stability: result(api, tools !== undefined, tools ? [] : ['chains not dry-run: no store given']),
      reproducibility: result(repro.problems, tools !== undefined, tools ? repro.notes : ['page snapshots not checked: no store given']),
      input_cleanliness: result(clean, true),
      geocodability: result(geo, true, places.length ? [] : ['no place input']),
      clue_integrity: result(clue.problems, true, clue.notes),
    },
  };
}

/** Each chain's shape, then (with a store, when the shapes are sound) each tool stop's chain dry-run against it. */
async function apiStability(loaded: ValidatableLeg, tools: ToolService | undefined): Promise<string[]> {
  const api = structure(loaded.leg);
  if (tools && !api.length) for (const stop of loaded.leg.stops) if (stop.stop_type === 'tool') { const p = await dryRun(stop, tools, loaded.id); if (p) api.push(p); }
  return api;
}

/** Every golden value and the leg's date there; with a store, a snapshot of every page, holding its stop's value. */
async function reproducibility(leg: Leg, tools: ToolService | undefined): Promise<{ problems: string[]; notes: string[] }> {
  const repro = leg.stops.filter((s) => s.extracted_value === null || s.extracted_value === '').map((s) => `stop ${s.index} has no golden value`);
  if (!leg.generated_at) repro.push('the leg does not say when it was made');
  const reproNotes: string[] = [];
  if (tools) {
    for (const url of new Set([leg.seed_url, ...leg.stops.flatMap((s) => (s.stop_type === 'page' && s.page_url ? [s.page_url] : []))])) {
      const page = await tools.call('fetch_webpage', { url });
      if (!page.ok) repro.push(`no snapshot of ${url}: ${page.text.split('\n')[0]}`);
    }
    for (const s of leg.stops) {
      if (s.stop_type !== 'page' || !s.page_url || answerHolds((await tools.call('fetch_webpage', { url: s.page_url })).text, s.extracted_value)) continue;
      // A value counted or read across a section (a list's length) need not be written on the page.
      if (s.extraction_section === null) repro.push(`stop ${s.index}: the snapshot of its page does not hold ${JSON.stringify(s.extracted_value)}`);
      else reproNotes.push(`stop ${s.index}: its value ${JSON.stringify(s.extracted_value)} is not written on the page (read across section "${s.extraction_section}")`);
    }
  }
  return { problems: repro, notes: reproNotes };
}

/** The chains' text arguments and the page values clean, their dates real ISO dates; and the place arguments, for geocodability. */
function inputCleanliness(leg: Leg): { clean: string[]; places: string[] } {
  const clean: string[] = [];
  const places: string[] = [];
  for (const stop of leg.stops) {
    stop.bridge.tool_chain.forEach((step, j) => {
      for (const [k, v] of textArgs(step)) {
        const why = uncleanReason(v);
        if (why) clean.push(`stop ${stop.index} step ${j} ${k}: ${why}`);
        if (/date$/.test(k) && (!/^\d{4}-\d{2}-\d{2}$/.test(v) || isoDate(v) !== v)) clean.push(`stop ${stop.index} step ${j} ${k}: "${v}" is not a real ISO date`);
      }
      places.push(...placeArgs(step));
    });
    if (stop.stop_type === 'page' && typeof stop.extracted_value === 'string' && uncleanReason(stop.extracted_value)) clean.push(`stop ${stop.index} extracted_value: ${uncleanReason(stop.extracted_value)}`);
  }
  return { clean, places };
}

/** Every place argument looks like one; with a store (when all do), each geocodes to somewhere. */
async function geocodability(places: string[], tools: ToolService | undefined): Promise<string[]> {
  const geo = places.filter((p) => !isGeocodable(p)).map((p) => `"${p}" does not look like a place an API can find`);
  if (tools && !geo.length) for (const p of new Set(places)) { const a = await tools.call('maps_geocode', { address: p }); if (a.ok && !coordinatesOf(a.text)) geo.push(`"${p}" geocodes to nothing`); }
  return geo;
}

/** The riddle names no stop's title and no tool, and its round-trip alignment (when recorded) is at least 0.7. */
function clueIntegrity(leg: Leg): { problems: string[]; notes: string[]; leaks: TitleLeak[] } {
  const leaks = titleLeaks(leg, leg.riddle);
  const clue = leaks.map((l) => `the riddle names ${l.stop === null ? 'the seed' : `stop ${l.stop}`}'s title "${l.title}"`);
  const tool = TOOL_NAMES.find((t) => leg.riddle.includes(t));
  if (tool) clue.push(`the riddle names the tool ${tool}`);
  const provenance = (leg as { provenance?: { roundtrip_alignment?: number } }).provenance;
  if (provenance?.roundtrip_alignment !== undefined && provenance.roundtrip_alignment < 0.7) clue.push(`round-trip alignment ${provenance.roundtrip_alignment} is below 0.7`);
  const notes = provenance?.roundtrip_alignment === undefined ? ['round-trip alignment not recorded in the leg'] : [];
  return { problems: clue, notes, leaks };
}
