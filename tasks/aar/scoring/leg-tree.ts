import { dependsOnPythonTypes, fromNativeJson, parsePyJson, type PyValue } from '../../../pycompat/index.js';
import { isPyDict, type PyDict } from '../../../pycompat/dict.js';

/** A golden tool-chain step as scoring reads it: `step.get(...)` of its two fields. */
export interface ScoredStep {
  toolName: PyValue | undefined;
  /** `arguments`: absent, None, a dict (its items in order in `args`), or another value. */
  argsForm: 'absent' | 'none' | 'dict' | 'other';
  args: Array<[string, PyValue]>;
}

export interface ScoredStop {
  type: PyValue | undefined;
  pageUrl: PyValue | undefined;
  value: PyValue | undefined;
  /** `stop["bridge"]["tool_chain"]`'s dict entries; empty when the bridge is not a dict. */
  chain: ScoredStep[];
}

/** What scoring (leg-view.ts) reads of a leg, as Python values, in plain records of one shape each. */
export interface ScoredLeg {
  passcode: PyValue | undefined;
  /** The dict entries of `stops`. */
  stops: ScoredStop[];
}

/** How to read one kind of parsed tree: Python-typed dicts (Maps) or JSON.parse's objects. */
interface TreeAccess<D> {
  isDict(v: unknown): v is D;
  get(d: D, key: string): unknown;
  entries(d: D): Array<[string, unknown]>;
  /** A leaf as a Python value. */
  value(v: unknown): PyValue | undefined;
}

const pythonTree: TreeAccess<PyDict> = {
  isDict: (v): v is PyDict => isPyDict(v as PyValue),
  get: (d, key) => d.get(key),
  entries: (d) => [...d],
  value: (v) => v as PyValue | undefined,
};

type JsonObject = Record<string, unknown>;
const nativeTree: TreeAccess<JsonObject> = {
  isDict: (v): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v),
  get: (d, key) => (Object.prototype.hasOwnProperty.call(d, key) ? d[key] : undefined),
  entries: (d) => Object.entries(d),
  value: (v) => (v === undefined ? undefined : fromNativeJson(v)),
};

function readStep<D>(step: D, tree: TreeAccess<D>): ScoredStep {
  const raw = tree.get(step, 'arguments');
  const args: Array<[string, PyValue]> = [];
  let argsForm: ScoredStep['argsForm'] = raw === undefined ? 'absent' : raw === null ? 'none' : 'other';
  if (tree.isDict(raw)) {
    argsForm = 'dict';
    for (const [key, v] of tree.entries(raw)) args.push([key, tree.value(v) as PyValue]);
  }
  return { toolName: tree.value(tree.get(step, 'tool_name')), argsForm, args };
}

/** The dict items of a list value; nothing when it is not a list. */
function dictItems<D>(list: unknown, tree: TreeAccess<D>): D[] {
  const items: D[] = [];
  if (Array.isArray(list)) for (const item of list) if (tree.isDict(item)) items.push(item);
  return items;
}

/**
 * A leg has its stops and its passcode; a JSON object without them (`{}`) is not a leg, and scoring it would
 * give a score against the passcode -1 instead of an error.
 */
function checkIsLeg<D>(leg: D, tree: TreeAccess<D>): void {
  const stops = tree.get(leg, 'stops');
  if (stops === undefined) throw new Error('not an AAR leg: it has no "stops"');
  if (!Array.isArray(stops)) throw new Error('not an AAR leg: its "stops" is not a list');
  if (tree.get(leg, 'passcode') === undefined) throw new Error('not an AAR leg: it has no "passcode"');
}

function readLeg<D>(leg: D, tree: TreeAccess<D>): ScoredLeg {
  checkIsLeg(leg, tree);
  const stops: ScoredStop[] = [];
  for (const stop of dictItems(tree.get(leg, 'stops'), tree)) {
    const bridge = tree.get(stop, 'bridge');
    const chain: ScoredStep[] = [];
    if (tree.isDict(bridge)) for (const step of dictItems(tree.get(bridge, 'tool_chain'), tree)) chain.push(readStep(step, tree));
    stops.push({
      type: tree.value(tree.get(stop, 'stop_type')),
      pageUrl: tree.value(tree.get(stop, 'page_url')),
      value: tree.value(tree.get(stop, 'extracted_value')),
      chain,
    });
  }
  return { passcode: tree.value(tree.get(leg, 'passcode')), stops };
}

/** The scored parts of a leg already read with Python's types (parsePyJson, or fromNativeJson). */
export function scoredLegOfTree(leg: PyDict): ScoredLeg {
  return readLeg(leg, pythonTree);
}

/**
 * A leg's JSON as Python's json.loads would read it, for scoring. The fast path is the native JSON.parse,
 * whose objects are read in place; it only differs from Python where an integral number could have been
 * written as a float (20 vs 20.0) or an integer-like key is listed first, and that changes a score only in
 * a few places: the passcode, a golden argument, a list or object extracted value, or an extracted value of
 * 1e16 or more. Where such a value occurs, the exact (slower) Python-typed parser is used instead. All
 * released AAR legs take the fast path.
 */
export function parseLegForScoring(text: string): ScoredLeg {
  const tree = JSON.parse(text) as unknown;
  if (legReadPath(text, tree) === 'native') return readLeg(tree as JsonObject, nativeTree);
  const exact = parsePyJson(text);
  if (!isPyDict(exact)) throw new Error('a leg must be a JSON object');
  return scoredLegOfTree(exact);
}

/** Which parser parseLegForScoring takes for a leg: the native JSON.parse (given its result) or the exact one. */
export function legReadPath(text: string, tree: unknown = JSON.parse(text)): 'native' | 'exact' {
  const isObject = typeof tree === 'object' && tree !== null && !Array.isArray(tree);
  return !isObject || needsPythonTypes(text, tree as JsonObject) ? 'exact' : 'native';
}

function needsPythonTypes(text: string, leg: JsonObject): boolean {
  const at = text.indexOf('"passcode"');
  if (at < 0 || text.indexOf('"passcode"', at + 1) >= 0) return true;
  const literal = /^"passcode"\s*:\s*([^,}\s]+)/.exec(text.slice(at, at + 64));
  if (!literal || !/^-?\d+$/.test(literal[1])) return true;
  const stops = Array.isArray(leg.stops) ? leg.stops : [];
  for (const stop of stops as Array<JsonObject>) {
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
