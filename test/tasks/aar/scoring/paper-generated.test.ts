/**
 * Generated cases whose answers are known by construction. For every released leg, fast-check builds tool
 * logs from the golden trace (one fetch per page stop, one call per golden tool step) and damages them in
 * controlled ways; the expected pvr, rcr, diagnosis, shortcut and near miss follow from the damage alone:
 *
 * - drop k of the n distinct page stops (left out, or fetched on another language's host): pvr = (n - k) / n;
 * - rewrite each kept page URL into another spelling of the same page (scheme, mobile host, index.php?title=,
 *   escapes, spaces, first letter, trailing slash, query, fragment, or a redirect whose resolved_url is it);
 * - remove every call of some tool names: each tool stop whose chain uses one of them is incomplete;
 * - break one step whose tool the leg uses once (its compared arguments replaced by text no golden value
 *   holds): the stop holding it is incomplete, the other steps of that chain still matched;
 * - leave out all arguments of some calls, or rewrite a python call's code: those steps still match;
 * - add noise calls (pages outside the leg, tools outside it, the leg's tools with every compared key wrong).
 *
 * A step can only be matched by a call of its own tool, and a call carrying its step's golden arguments
 * matches it; so a tool stop is complete exactly when none of its steps was removed or broken.
 * Seeded: the same cases on every run (SEED below; AAR_GENERATED_RUNS sets the cases per leg).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { findLegFiles } from '../../../../tasks/aar/load.js';
import { scoreTrial } from '../../../../tasks/aar/scoring/score.js';
import { AAR_DATA_DIR, describeWithData, HAVE_AAR_DATA } from '../../../helpers/data.js';

const SEED = 20261126;
const RUNS_PER_LEG = Number(process.env.AAR_GENERATED_RUNS ?? 4);
const NOISE = '\u2603noise\u2604';
const NAME_ONLY_TOOLS = new Set(['python_execute_code']);
/** Catalog tools no released leg's golden chain uses, for noise calls. */
const OUTSIDE_TOOLS = ['weather_forecast', 'maps_reverse_geocode', 'maps_place_details', 'crypto_volume', 'web_search'];

interface RawStep {
  tool_name: string;
  arguments?: Record<string, unknown> | null;
}
interface RawStop {
  stop_type: string;
  page_url?: string | null;
  extracted_value?: unknown;
  bridge?: { tool_chain?: RawStep[] } | null;
}
interface RawLeg {
  passcode: number | string;
  stops: RawStop[];
}

interface GoldenCall {
  step: RawStep;
  /** Index of the tool stop holding it, or -1 for a compute stop. */
  toolStop: number;
  /** The golden arguments an agent would pass: keys starting with "__" left out. */
  args: Record<string, unknown>;
  comparable: string[];
}

interface LegFacts {
  text: string;
  file: string;
  passcode: string;
  pages: string[];
  toolStops: RawStep[][];
  calls: GoldenCall[];
  toolNames: string[];
  /** Steps with compared keys whose tool the leg uses once: breaking one breaks exactly its stop. */
  breakable: number[];
  values: unknown[];
}

function legFacts(file: string): LegFacts {
  const text = readFileSync(file, 'utf8');
  const leg = JSON.parse(text) as RawLeg;
  const pages = [...new Set(leg.stops.filter((s) => s.stop_type === 'page' && s.page_url).map((s) => s.page_url as string))];
  const toolStops: RawStep[][] = [];
  const calls: GoldenCall[] = [];
  for (const stop of leg.stops) {
    if (stop.stop_type !== 'tool' && stop.stop_type !== 'compute') continue;
    const chain = stop.bridge?.tool_chain ?? [];
    if (stop.stop_type === 'tool') toolStops.push(chain);
    for (const step of chain) {
      const args = Object.fromEntries(Object.entries(step.arguments ?? {}).filter(([k]) => !k.startsWith('__')));
      calls.push({ step, toolStop: stop.stop_type === 'tool' ? toolStops.length - 1 : -1, args, comparable: Object.keys(args) });
    }
  }
  const toolNames = [...new Set(calls.map((c) => c.step.tool_name))];
  const uses = (name: string) => calls.filter((c) => c.step.tool_name === name).length;
  const breakable = calls
    .map((c, i) => (c.comparable.length && !NAME_ONLY_TOOLS.has(c.step.tool_name) && uses(c.step.tool_name) === 1 ? i : -1))
    .filter((i) => i >= 0);
  const values = leg.stops.map((s) => s.extracted_value).filter((v) => v !== null && v !== undefined);
  return { text, file, passcode: String(leg.passcode), pages, toolStops, calls, toolNames, breakable, values };
}

// ---- other spellings of the same Wikipedia page, built from the URL text alone ----

const WIKI = 'https://en.wikipedia.org/wiki/';

interface Spelling {
  http: boolean;
  mobile: boolean;
  path: 'raw' | 'lowerEscapes' | 'decoded' | 'spaces' | 'firstLower' | 'indexPhp';
  slash: boolean;
  query: boolean;
  fragment: boolean;
  redirect: boolean;
}

const spellingArb: fc.Arbitrary<Spelling> = fc.record({
  http: fc.boolean(),
  mobile: fc.boolean(),
  path: fc.constantFrom('raw', 'lowerEscapes', 'decoded', 'spaces', 'firstLower', 'indexPhp'),
  slash: fc.boolean(),
  query: fc.boolean(),
  fragment: fc.boolean(),
  redirect: fc.boolean(),
});

/** The URL a fetch asks for, and the page it resolved to, for a spelling of `url` (an en.wikipedia /wiki/ URL). */
function spell(url: string, s: Spelling, i: number): { url: string; resolved?: string } {
  const raw = url.slice(WIKI.length);
  const title = decodeURIComponent(raw);
  const plainDecoded = !/[?#%]/.test(title);
  let path = '/wiki/' + raw;
  let indexPhp = false;
  if (s.path === 'lowerEscapes') path = '/wiki/' + raw.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
  if (s.path === 'decoded' && plainDecoded) path = '/wiki/' + title;
  if (s.path === 'spaces' && plainDecoded) path = '/wiki/' + title.replace(/_/g, ' ');
  if (s.path === 'firstLower' && /^[A-Z]/.test(raw)) path = '/wiki/' + raw[0].toLowerCase() + raw.slice(1);
  if (s.path === 'indexPhp') {
    path = '/w/index.php?title=' + encodeURIComponent(title);
    indexPhp = true;
  }
  let out = `${s.http ? 'http' : 'https'}://en.${s.mobile ? 'm.' : ''}wikipedia.org${path}`;
  if (s.slash && !indexPhp) out += '/';
  if (s.query) out += (indexPhp ? '&' : '?') + 'action=render';
  if (s.fragment) out += '#Section';
  if (s.redirect) return { url: `${WIKI}Redirect_${i}_${NOISE}`, resolved: out };
  return { url: out };
}

/** A near miss that is another page: the same title on the German Wikipedia. */
const otherLanguage = (url: string) => url.replace('://en.wikipedia.org/', '://de.wikipedia.org/');

// ---- the damage, and the log it gives ----

interface Damage {
  dropped: boolean[];
  dropAs: ('omit' | 'otherLanguage')[];
  spellings: Spelling[];
  removedTools: boolean[];
  broken: number | null;
  argsLeftOut: boolean[];
  noise: number;
  noisePositions: number[];
  answer: 'right' | 'wrong' | 'none' | 'invalid';
  showValues: boolean;
}

function damageArb(f: LegFacts): fc.Arbitrary<Damage> {
  const n = f.pages.length;
  return fc.record({
    dropped: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    dropAs: fc.array(fc.constantFrom('omit' as const, 'otherLanguage' as const), { minLength: n, maxLength: n }),
    spellings: fc.array(spellingArb, { minLength: n, maxLength: n }),
    removedTools: fc.array(fc.boolean(), { minLength: f.toolNames.length, maxLength: f.toolNames.length }),
    broken: f.breakable.length ? fc.option(fc.constantFrom(...f.breakable), { nil: null }) : fc.constant(null),
    argsLeftOut: fc.array(fc.boolean(), { minLength: f.calls.length, maxLength: f.calls.length }),
    noise: fc.nat({ max: 6 }),
    noisePositions: fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
    answer: fc.constantFrom('right' as const, 'wrong' as const, 'none' as const, 'invalid' as const),
    showValues: fc.boolean(),
  });
}

const line = (entry: Record<string, unknown>) => JSON.stringify({ success: true, result_preview: '', result_len: 0, ts: 1, ...entry });

function noiseCall(f: LegFacts, k: number): string {
  switch (k % 3) {
    case 0:
      return line({ tool: 'fetch_webpage', args: { url: `${WIKI}Noise_${k}_${NOISE}` }, url: `${WIKI}Noise_${k}_${NOISE}` });
    case 1:
      return line({ tool: OUTSIDE_TOOLS[k % OUTSIDE_TOOLS.length], args: { query: NOISE } });
    default: {
      // one of the leg's tools, with every key any of its steps compares set wrong
      const withKeys = f.toolNames.filter((t) => !NAME_ONLY_TOOLS.has(t) && f.calls.every((c) => c.step.tool_name !== t || c.comparable.length));
      if (!withKeys.length) return line({ tool: 'web_search', args: { query: NOISE } });
      const tool = withKeys[k % withKeys.length];
      const keys = new Set(f.calls.filter((c) => c.step.tool_name === tool).flatMap((c) => c.comparable));
      return line({ tool, args: Object.fromEntries([...keys].map((key) => [key, NOISE])) });
    }
  }
}

function buildLog(f: LegFacts, d: Damage): string {
  const lines: string[] = [];
  f.pages.forEach((url, i) => {
    if (d.dropped[i]) {
      if (d.dropAs[i] === 'otherLanguage') lines.push(line({ tool: 'fetch_webpage', args: { url: otherLanguage(url) }, url: otherLanguage(url) }));
      return;
    }
    const { url: asked, resolved } = spell(url, d.spellings[i], i);
    lines.push(line({ tool: 'fetch_webpage', args: { url: asked }, url: asked, ...(resolved ? { resolved_url: resolved } : {}) }));
  });
  f.calls.forEach((c, i) => {
    const tool = c.step.tool_name;
    if (d.removedTools[f.toolNames.indexOf(tool)]) return;
    let args: Record<string, unknown> = c.args;
    if (i === d.broken) args = Object.fromEntries(c.comparable.map((k) => [k, NOISE]));
    else if (NAME_ONLY_TOOLS.has(tool) && d.argsLeftOut[i]) args = { code: `print("${NOISE}")` };
    else if (d.argsLeftOut[i]) args = {};
    lines.push(line({ tool, args }));
  });
  for (let k = 0; k < d.noise; k++) lines.splice(d.noisePositions[k] % (lines.length + 1), 0, noiseCall(f, k));
  if (d.showValues) lines.push(line({ tool: 'notes', args: {}, result_preview: f.values.map((v) => pythonText(v)).join(' | ') }));
  return lines.join('\n');
}

interface Expected {
  pvr: number | null;
  rcr: number | null;
  fa: 0 | 1;
  diagnosis: string | null;
  shortcut: boolean;
  nearMiss: boolean;
}

function expected(f: LegFacts, d: Damage): Expected {
  const n = f.pages.length;
  const pvr = n ? d.dropped.filter((x) => !x).length / n : null;
  const brokenStop = d.broken === null ? -1 : f.calls[d.broken].toolStop;
  const removed = new Set(f.toolNames.filter((_, i) => d.removedTools[i]));
  const complete = f.toolStops.filter((chain, s) => s !== brokenStop && chain.every((st) => !removed.has(st.tool_name))).length;
  const rcr = f.toolStops.length ? complete / f.toolStops.length : null;
  const fa = d.answer === 'right' ? 1 : 0;
  let diagnosis: string | null = null;
  if (!fa) diagnosis = pvr !== null && pvr < 0.5 ? 'navigation' : rcr !== null && rcr < 0.5 ? 'tool_use' : 'computation';
  const intermediate = f.values.length ? (d.showValues ? 1 : 0) : null;
  return { pvr, rcr, fa, diagnosis, shortcut: fa === 1 && pvr !== null && pvr < 0.3, nearMiss: !fa && intermediate !== null && intermediate >= 0.8 };
}

/** Python's str() of a JSON value as the leg holds it (enough for the released values: no quotes inside strings, no floats in containers). */
function pythonText(v: unknown, inside = false): string {
  if (typeof v === 'string') return inside ? `'${v}'` : v;
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (Array.isArray(v)) return `[${v.map((x) => pythonText(x, true)).join(', ')}]`;
  if (typeof v === 'object') return `{${Object.entries(v as object).map(([k, x]) => `'${k}': ${pythonText(x, true)}`).join(', ')}}`;
  return JSON.stringify(v);
}

function answerText(f: LegFacts, a: Damage['answer']): string | null {
  if (a === 'right') return f.passcode;
  if (a === 'wrong') return String((Number(f.passcode) + 1) % 10);
  return a === 'none' ? null : 'no idea';
}

// ---- the suite ----

const files = HAVE_AAR_DATA ? await findLegFiles(AAR_DATA_DIR) : [];

describeWithData('generated cases from the released legs, answers known by construction', () => {
  const tally = new Map<string, number>();
  const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
  let cases = 0;

  test('every leg: pvr, rcr, fa, diagnosis, shortcut and near miss follow from the damage', () => {
    expect(files.length).toBe(1400);
    files.forEach((file, index) => {
      const f = legFacts(file);
      expect(f.toolNames.filter((t) => OUTSIDE_TOOLS.includes(t) || t === 'notes')).toEqual([]);
      fc.assert(
        fc.property(damageArb(f), (d) => {
          const want = expected(f, d);
          const got = scoreTrial(f.text, answerText(f, d.answer), buildLog(f, d));
          cases++;
          count(`diagnosis:${want.diagnosis}`);
          if (want.shortcut) count('shortcut');
          if (want.nearMiss) count('near_miss');
          if (want.rcr === null) count('rcr:null');
          if (d.broken !== null) count(f.toolStops[f.calls[d.broken].toolStop]?.length > 1 ? 'broken step in a multi-step chain' : 'broken one-step chain');
          if (d.dropped.some((x, i) => x && d.dropAs[i] === 'otherLanguage')) count('dropped page fetched on another language host');
          if (d.spellings.some((s, i) => !d.dropped[i] && s.redirect)) count('page reached through resolved_url');
          if (d.argsLeftOut.some((x, i) => x && i !== d.broken)) count('call with no comparable key');
          if (want.pvr !== null && (want.pvr === 0.5 || want.pvr === 0.3)) count(`pvr exactly ${want.pvr}`);
          if (want.rcr === 0.5) count('rcr exactly 0.5');
          expect({ pvr: got.pvr, rcr: got.rcr, fa: got.fa, diagnosis: got.diagnosis, shortcut: got.shortcut, nearMiss: got.near_miss }).toEqual(want);
          expect(got.intermediate_rate).toBe(f.values.length ? (d.showValues ? 1 : 0) : null);
        }),
        { seed: SEED + index, numRuns: RUNS_PER_LEG, endOnFailure: false },
      );
    });
    for (const rule of [
      'diagnosis:navigation',
      'diagnosis:tool_use',
      'diagnosis:computation',
      'diagnosis:null',
      'shortcut',
      'near_miss',
      'rcr:null',
      'broken step in a multi-step chain',
      'broken one-step chain',
      'dropped page fetched on another language host',
      'page reached through resolved_url',
      'call with no comparable key',
      'pvr exactly 0.5',
      'rcr exactly 0.5',
    ]) {
      expect([rule, tally.get(rule) ?? 0]).not.toEqual([rule, 0]);
    }
    if (process.env.AAR_GENERATED_REPORT) console.log(`${files.length} legs, ${cases} cases\n` + [...tally].map(([k, v]) => `  ${k}: ${v}`).join('\n'));
  });
});
