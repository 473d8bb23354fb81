import { dependsOnPythonTypes, fromNativeJsonPart, parsePyJson, type JsonShape } from '../../../python/index.js';
import { isPyDict, type PyDict } from '../../../python/dict.js';

/**
 * A leg's JSON as Python's json.loads would read it, for scoring. The fast path is the native JSON.parse (then fromNativeJsonPart);
 * it only differs from Python where an integral number could have been written as a float (20 vs 20.0)
 * or an integer-like key is listed first, and that changes a score only in a few places: the passcode,
 * a golden argument, a list or object extracted value, or an extracted value of 1e16 or more. Where such
 * a value occurs, the exact (slower) Python-typed parser is used instead. All released AAR legs take the
 * fast path.
 */
export function parseLegForScoring(text: string): PyDict {
  const tree = JSON.parse(text) as unknown;
  const exact = legReadPath(text, tree) === 'exact' ? parsePyJson(text) : fromNativeJsonPart(tree, SCORED_PARTS);
  if (!isPyDict(exact)) throw new Error('a leg must be a JSON object');
  return exact;
}

/** What scoring (leg-view.ts) reads of a leg; on the fast path only these parts are converted. */
const SCORED_PARTS: JsonShape = {
  passcode: true,
  stops: [{ stop_type: true, page_url: true, extracted_value: true, bridge: { tool_chain: [{ tool_name: true, arguments: true }] } }],
};

/** Which parser parseLegForScoring takes for a leg: the native JSON.parse (given its result) or the exact one. */
export function legReadPath(text: string, tree: unknown = JSON.parse(text)): 'native' | 'exact' {
  const isObject = typeof tree === 'object' && tree !== null && !Array.isArray(tree);
  return !isObject || needsPythonTypes(text, tree as Record<string, unknown>) ? 'exact' : 'native';
}

function needsPythonTypes(text: string, leg: Record<string, unknown>): boolean {
  const at = text.indexOf('"passcode"');
  if (at < 0 || text.indexOf('"passcode"', at + 1) >= 0) return true;
  const literal = /^"passcode"\s*:\s*([^,}\s]+)/.exec(text.slice(at, at + 64));
  if (!literal || !/^-?\d+$/.test(literal[1])) return true;
  const stops = Array.isArray(leg.stops) ? leg.stops : [];
  for (const stop of stops as Array<Record<string, unknown>>) {
    if (!stop || typeof stop !== 'object') continue;
    const value = stop.extracted_value;
    if (typeof value === 'number' ? Number.isInteger(value) && Math.abs(value) >= 1e16 : dependsOnPythonTypes(value)) return true;
    const bridge = stop.bridge as { tool_chain?: Array<{ arguments?: unknown }> } | undefined;
    for (const step of Array.isArray(bridge?.tool_chain) ? bridge.tool_chain : []) {
      if (step && typeof step === 'object' && dependsOnPythonTypes(step.arguments)) return true;
    }
  }
  return false;
}
