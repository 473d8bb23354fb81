import { findTool } from '../../../tools/catalog/index.js';
import { pyFloat, pyLower, pyStr, pyStrip, type PyValue } from '../../../pycompat/index.js';
import type { ScoredLeg, ScoredStep } from './leg-tree.js';
import { canonicalPage, referenceNormalizeUrl } from '../../../tools/wikipedia/page-identity.js';

/** A golden argument, with the text forms the matching rule compares already computed. */
export interface GoldenArg {
  key: string;
  /** `str(value).lower().strip()` */
  text: string;
  /** `float(text.replace(",", ""))`, or null where Python raises ValueError. */
  number: number | null;
}

export interface GoldenStep {
  /** `step.get("tool_name", "")` as the reference compares it. */
  toolName: PyValue;
  /** The tool's catalog name (aliases resolved), for the paper's RCR. */
  canonicalName: string | undefined;
  /** True when the golden arguments are empty or None: they match any call. */
  matchesAnyArgs: boolean;
  /** False when `arguments` is present but not a dict (never matches in the reference). */
  argsAreDict: boolean;
  /** Golden keys not starting with "__". */
  args: GoldenArg[];
}

/** Everything scoring needs from a leg, computed once per leg rather than once per trial. */
export interface LegView {
  stops: number;
  pageStops: number;
  toolStops: number;
  reasonStops: number;
  /** The passcode as the reference writes expected_answer.txt and reads it back. */
  expectedAnswer: string;
  /** Normalised by the reference rule. */
  referencePages: Set<string>;
  /** Canonical page identities, for PVR. */
  canonicalPages: Set<string>;
  /** Tool-chain steps of `tool` and `compute` stops, in order. */
  goldenSteps: GoldenStep[];
  expectedTools: Set<string>;
  /** The chains of `tool` stops only, for RCR. */
  toolStopChains: GoldenStep[][];
  /** `str(extracted_value).strip()` of every stop whose value is not None. */
  expectedValues: string[];
  stepBudget: number;
}

export function goldenArgText(value: PyValue): GoldenArg['text'] {
  return pyStrip(pyLower(pyStr(value)));
}

/**
 * `str(value).strip()`, except that an integral float below 1e16 is written as the int it equals: the
 * reference's check finds "20.0" exactly when it finds "20" (it also tries str(int(x))), so both forms
 * give the same verdict, and a leg read without Python's float types scores the same.
 */
function expectedValueText(value: PyValue): string {
  if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 1e16) return BigInt(value).toString();
  return pyStrip(pyStr(value));
}

function goldenStep(step: ScoredStep): GoldenStep {
  const toolName = step.toolName ?? '';
  const args = step.args
    .filter(([key]) => !key.startsWith('__'))
    .map(([key, value]) => {
      const text = goldenArgText(value);
      return { key, text, number: pyFloat(text.split(',').join('')) };
    });
  return {
    toolName,
    canonicalName: typeof toolName === 'string' ? (findTool(toolName)?.name ?? toolName) : undefined,
    matchesAnyArgs: step.argsForm === 'absent' || step.argsForm === 'none' || (step.argsForm === 'dict' && step.args.length === 0),
    argsAreDict: step.argsForm !== 'other',
    args,
  };
}

export function buildLegView(leg: ScoredLeg): LegView {
  const { stops, passcode } = leg;
  const view: LegView = {
    stops: stops.length,
    pageStops: 0,
    toolStops: 0,
    reasonStops: 0,
    expectedAnswer: pyStrip(pyStr(passcode === undefined ? -1n : passcode)),
    referencePages: new Set(),
    canonicalPages: new Set(),
    goldenSteps: [],
    expectedTools: new Set(),
    toolStopChains: [],
    expectedValues: [],
    stepBudget: Math.max(10, Math.floor(1.5 * stops.length)),
  };
  for (const stop of stops) {
    const { type, pageUrl: url } = stop;
    if (type === 'page') {
      view.pageStops++;
      if (typeof url === 'string' && url) {
        view.referencePages.add(referenceNormalizeUrl(url));
        view.canonicalPages.add(canonicalPage(url) ?? url);
      }
    }
    if (type === 'reason') view.reasonStops++;
    if (type === 'tool' || type === 'compute') {
      view.toolStops++;
      const chain = stop.chain.map(goldenStep);
      view.goldenSteps.push(...chain);
      if (type === 'tool') view.toolStopChains.push(chain);
    }
    const value = stop.value;
    if (value !== undefined && value !== null) view.expectedValues.push(expectedValueText(value));
  }
  for (const step of view.goldenSteps) {
    if (typeof step.toolName === 'string' && step.toolName) view.expectedTools.add(step.toolName);
  }
  return view;
}

const cache = new Map<string, LegView>();
/**
 * Legs whose views are kept, most recently used last. Few: a leg is asked for again by the HTML report's
 * golden trace of a trial just scored, and by the other agents and attempts of a job, which run interleaved,
 * leg by leg; a long run must not keep every leg it scored (a leg's text as a key costs up to twice its file
 * size).
 */
const CACHE_LIMIT = 64;

/** The view of a leg given as JSON text, cached by that text. */
export function legViewOfText(text: string, parse: (text: string) => ScoredLeg): LegView {
  let view = cache.get(text);
  if (view) {
    cache.delete(text);
  } else {
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    view = buildLegView(parse(text));
  }
  cache.set(text, view);
  return view;
}
