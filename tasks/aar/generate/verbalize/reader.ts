import { evaluateExpression } from '../../../../pycompat/interpreter/expression.js';
import { pyStr } from '../../../../pycompat/interpreter/index.js';
import type { Leg } from '../../schema.js';
import { titleOfUrl } from '../../audit/title-leaks.js';

/**
 * Reading a riddle back (the round trip of the paper's step 8): the steps a solver would take, scored
 * against the leg by the four criteria of the authors' alignment (step count within 2, the pages' topics,
 * the kinds of lookup, a final formula), and the code the riddle implies. The rule reader here needs no
 * model: each numbered clue is a step, read in full.
 */

export interface ReadStep {
  page_or_topic: string;
  what_to_find: string;
  tool_or_method: string;
  result_used_for: string;
}

/** The numbered clues of a riddle ("1. ...", "2) ..."), in order. */
export function numberedClues(riddle: string): { n: number; text: string }[] {
  const parts = riddle.split(/^\s*(\d+)[.)]\s+/m);
  const out: { n: number; text: string }[] = [];
  for (let i = 1; i + 1 < parts.length; i += 2) out.push({ n: Number(parts[i]), text: parts[i + 1]!.trim() });
  return out;
}

export function ruleReadSteps(riddle: string): ReadStep[] {
  return numberedClues(riddle).map(({ text }) => ({ page_or_topic: text, what_to_find: text, tool_or_method: text, result_used_for: text }));
}

const KINDS: Record<string, RegExp> = {
  elevation: /elevation|altitude|height above sea/,
  weather: /weather|temperature|precipitation|rain/,
  snowfall: /snow/,
  sunshine: /sunshine|sunlight/,
  distance: /distance|how far/,
  directions: /driving time|travel time|drive/,
  places: /nearby|near |museums|restaurants|parks|hotels|churches|count the/,
  rating: /rating|star|review/,
  population: /population|people|inhabitants/,
  area: /\barea\b|square kilomet|km²|sq km/,
  market: /share price|closing price|trading volume|stock|shares/,
  conversion: /convert|conversion/,
  computation: /arithmetic|comput|calculat|days between|formula|modulo|digit/,
  reasoning: /prime|divisor|roman numeral|leap year|day of the week|revers|digit sum|sum of its digits|digital root|1-bits|binary|vowel|alphabetical/,
};

function legKinds(leg: Pick<Leg, 'stops'>): Set<string> {
  const kinds = new Set<string>();
  for (const s of leg.stops) {
    if (s.stop_type === 'reason') kinds.add('reasoning');
    if (s.stop_type === 'compute') kinds.add('computation');
    for (const step of s.bridge.tool_chain) {
      const t = step.tool_name;
      const sel = JSON.stringify(step.arguments);
      if (t === 'maps_elevation') kinds.add('elevation');
      else if (t === 'weather_historical') kinds.add(/snowfall/.test(sel) ? 'snowfall' : /sunshine/.test(sel) ? 'sunshine' : 'weather');
      else if (t === 'maps_distance_matrix') kinds.add('distance');
      else if (t === 'maps_directions') kinds.add('directions');
      else if (t === 'maps_search_places') kinds.add(step.output_key === 'place_rating' ? 'rating' : 'places');
      else if (t === 'countries_population') kinds.add('population');
      else if (t === 'countries_area') kinds.add('area');
      else if (/^(stock|crypto)_/.test(t)) kinds.add('market');
      else if (t === 'python_execute_code') kinds.add(/3\.28084/.test(sel) ? 'conversion' : 'computation');
    }
  }
  return kinds;
}

/** The authors' four-part alignment, in [0, 1]. */
export function alignment(leg: Pick<Leg, 'stops'>, steps: readonly ReadStep[]): number {
  let score = 0;
  const gap = Math.abs(leg.stops.length - steps.length);
  score += gap <= 2 ? 1 : gap <= 4 ? 0.5 : 0;
  const topics = steps.map((s) => String(s.page_or_topic).toLowerCase()).filter(Boolean);
  const titles = [...new Set(leg.stops.flatMap((s) => (s.page_url ? [(titleOfUrl(s.page_url) ?? '').toLowerCase()] : [])))].filter(Boolean);
  if (!titles.length) score += 1;
  else if (topics.length) {
    const matches = titles.filter((t) => topics.some((e) => e.includes(t) || t.includes(e) || t.split(/\s+/).some((w) => w.length > 3 && e.includes(w)))).length;
    score += Math.min(1, matches / titles.length);
  }
  const wanted = legKinds(leg);
  const text = steps.map((s) => `${s.tool_or_method} ${s.what_to_find}`.toLowerCase()).join('\n');
  const found = new Set(Object.entries(KINDS).filter(([, re]) => re.test(text)).map(([k]) => k));
  score += wanted.size ? [...wanted].filter((k) => found.has(k)).length / wanted.size : 1;
  if (steps.some((s) => /arithmetic|comput|mod|digit|formula|passcode|final/.test(`${s.tool_or_method} ${s.what_to_find} ${s.result_used_for}`.toLowerCase()))) score += 1;
  return score / 4;
}

/**
 * The code a riddle implies by rule: its last clue's formula in symbols (`In symbols: ...`), each
 * `clue N` replaced by the whole part of stop N's value, evaluated as Python. Undefined when it has none.
 */
export function ruleImpliedCode(riddle: string, values: ReadonlyMap<number, number>): number | undefined {
  const last = numberedClues(riddle).at(-1)?.text ?? '';
  const formula = /In symbols:\s*(.+?)\.(?:\s|$)/.exec(last)?.[1];
  if (!formula) return undefined;
  let missing = false;
  const expression = formula.replace(/clue (\d+)/g, (_, n: string) => {
    const v = values.get(Number(n));
    if (v === undefined) missing = true;
    return String(Math.trunc(v ?? 0));
  });
  if (missing) return undefined;
  const result = evaluateExpression(expression);
  if (!result.ok) return undefined;
  const digit = Number(pyStr(result.value));
  return Number.isInteger(digit) && digit >= 0 && digit <= 9 ? digit : undefined;
}
