/**
 * Whether an agent gets the same information from our tool as from the AAR authors' tool on one call: both
 * answers read as data, each tool's known, deliberate differences projected away, and what is left compared
 * (numbers by value: 347 and 347.0 agree). A difference is allowed only when a reason below covers it; each
 * reason says why the difference is kept and that no information is lost (README, "Tools as the golden values
 * saw them").
 */

export const ALLOWED: Record<string, string> = {
  'error-wording': 'both fail (an error, or no such thing); the message is worded by each',
  'no-results': 'nothing found (ZERO_RESULTS): ours answers an empty list, theirs raises an error naming ZERO_RESULTS; both say nothing was found',
  'geocode-candidates': 'ours lists up to 5 matches, best first, theirs only the first: our first match is theirs, field for field',
  'reverse-geocode-candidates': "ours lists up to 5 results with each one's location and types, theirs the first one's address, place_id and components: our first result holds theirs",
  'places-count': "maps_search_places: ours puts the places' count first (it is places.length, nothing else)",
  'place-details-extra': 'maps_place_details: ours adds place_id, types and the Google Maps url',
  'route-text': 'route step instructions in plain text: the HTML tags dropped and entities decoded, the same words',
  'weather-more-variables': 'weather: ours asks Open-Meteo for more daily and current variables (temperatures, wind) in the same request; every variable theirs has is there, equal (a selector of one only ours asks for has its value where theirs has null)',
  'server-timing': "Open-Meteo's generationtime_ms (how long the server took: different on every call, nothing about the weather) is left out",
  'search-credits': "Serper's credits (the operator's account balance, nothing about the search) is left out",
  'wiki-no-clutter': "Wikipedia through the MediaWiki API: the article's text and links, without the site's menus, search box, footer and scripts; ours heads it with the title, source URL and language editions",
  'page-markdown': "plain web pages: converted to Markdown by our converter (theirs markdownify): every word and link of the page, ours headed by the page's title and URL",
  'python-text': 'python_execute_code answers as the Harbor adapter (what was printed, stderr after stdout, "Exit code: N" first on failure), not as JSON {stdout, stderr, exit_code}: the same three facts',
  'python-traceback': 'a failing program runs as `python3 -c` (as the Harbor adapter ran it), so its traceback names "<string>" where theirs names a temporary file and echoes the line: the same error, at the same line',
  'code-prompt-wording': "python_generate_code: the prompt around the agent's description and extra instructions is worded by us (theirs is not ours to copy), so a model may write the program another way",
  'code-model-choice': "python_generate_code: the job's code model writes the program; a model named by the agent is not used (agents cannot spend the operator's key on another model)",
};

export type Verdict = { kind: 'equal' } | { kind: 'allowed'; reasons: string[] } | { kind: 'different'; detail: string };

export interface Answer {
  ok: boolean;
  text: string;
}

const isObject = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);
const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Deep equality with numbers by value; the first difference's path, or undefined when equal. */
export function firstDifference(a: unknown, b: unknown, at = '$'): string | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a === b ? undefined : `${at}: ${a} vs ${b}`;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${at}: ${a.length} items vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${at}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      if (!(k in a)) return `${at}.${k}: only theirs has it (${JSON.stringify(b[k]).slice(0, 80)})`;
      if (!(k in b)) return `${at}.${k}: only ours has it (${JSON.stringify(a[k]).slice(0, 80)})`;
      const d = firstDifference(a[k], b[k], `${at}.${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? undefined : `${at}: ${JSON.stringify(a)?.slice(0, 100)} vs ${JSON.stringify(b)?.slice(0, 100)}`;
}

const pick = (o: Record<string, any>, keys: string[]) => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));
const without = (o: Record<string, any>, keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', eacute: 'é' };
/** Visible words of HTML (tags out, entities decoded, white space collapsed): written here, not ours or theirs. */
export function htmlWords(html: string): string {
  return html
    .replace(/<(script|style|noscript)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (m, e: string) => (e.startsWith('#') ? String.fromCodePoint(parseInt(e.slice(e[1] === 'x' ? 2 : 1), e[1] === 'x' ? 16 : 10)) : (ENTITIES[e.toLowerCase()] ?? m)))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The words of a Markdown or plain text answer: link targets kept apart, markup dropped. */
export function textWords(text: string): { words: Set<string>; links: Set<string> } {
  const links = new Set<string>();
  const stripped = text.replace(/\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g, (_m, label: string, href: string) => {
    links.add(href);
    return ` ${label} `;
  });
  // Ordered-list numbers ("1. A source.") are markup: the page's <ol> has no such text.
  const words = new Set(stripped.replace(/^\s*\d+\.\s/gm, ' ').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  return { words, links };
}

type Project = (ours: any, theirs: any, reasons: Set<string>) => [unknown, unknown];

/** Per tool: what of each answer is compared, and which reasons that took. Tools not listed compare whole. */
const PROJECT: Record<string, Project> = {
  maps_geocode: (o, t, r) => {
    r.add('geocode-candidates');
    return [o.results?.[0], t];
  },
  maps_reverse_geocode: (o, t, r) => {
    r.add('reverse-geocode-candidates');
    return [pick(o.results?.[0] ?? {}, ['formatted_address', 'place_id', 'address_components']), t];
  },
  maps_search_places: (o, t, r) => {
    r.add('places-count');
    if (o.count !== o.places?.length) return [o, t];
    return [without(o, ['count']), t];
  },
  maps_place_details: (o, t, r) => {
    r.add('place-details-extra');
    return [without(o, ['place_id', 'types', 'url']), t];
  },
  maps_directions: (o, t, r) => {
    const plain = {
      routes: (t.routes ?? []).map((route: any) => ({ ...route, steps: (route.steps ?? []).map((s: any) => ({ ...s, instructions: htmlWords(s.instructions ?? '') })) })),
    };
    if (JSON.stringify(plain) !== JSON.stringify(t)) r.add('route-text');
    return [o, plain];
  },
  web_search: (o, t, r) => {
    if ('credits' in t) r.add('search-credits');
    return [o, without(t, ['credits'])];
  },
  weather_historical: (o, t, r) => weather('weather_historical', o, t, r),
  weather_forecast: (o, t, r) => weather('weather_forecast', o, t, r),
};

/** The variables the golden values' weather tool asked Open-Meteo for (their names), per tool. */
const THEIR_VARIABLES: Record<string, Set<string>> = {
  weather_historical: new Set(['time', 'apparent_temperature_mean', 'rain_sum', 'precipitation_sum', 'snowfall_sum', 'precipitation_hours', 'sunrise', 'sunset', 'daylight_duration', 'sunshine_duration', 'apparent_temperature_min', 'apparent_temperature_max']),
  weather_forecast: new Set(['time', 'interval', 'temperature_2m_max', 'temperature_2m_min', 'rain_sum', 'sunrise', 'sunset', 'weather_code', 'temperature_2m', 'relative_humidity_2m']),
};

function weather(tool: string, o: any, t: any, r: Set<string>): [unknown, unknown] {
  if (!isObject(t) || !('daily' in t)) {
    // Selected values: a variable only ours asks for is null in theirs.
    const ours: Record<string, unknown> = { ...o };
    for (const [selector, value] of Object.entries(t ?? {})) {
      const variable = /^(?:daily|current)\.([a-z0-9_]+)/.exec(selector)?.[1];
      if (value === null && ours[selector] !== null && variable && !THEIR_VARIABLES[tool].has(variable)) {
        r.add('weather-more-variables');
        ours[selector] = null;
      }
    }
    return [ours, t];
  }
  if ('generationtime_ms' in t) r.add('server-timing');
  const theirs = without(t, ['generationtime_ms']);
  const ours: Record<string, any> = { ...o };
  for (const section of ['daily', 'daily_units', 'current', 'current_units']) {
    if (!isObject(ours[section]) || !isObject(theirs[section])) continue;
    if (Object.keys(ours[section]).some((k) => !(k in theirs[section]))) r.add('weather-more-variables');
    ours[section] = pick(ours[section], Object.keys(theirs[section]));
  }
  return [ours, theirs];
}

/** The Harbor adapter's text of the MCP server's {stdout, stderr, exit_code}. */
function pythonText(t: { stdout: string; stderr: string; exit_code: number }): string {
  let out = t.stdout;
  if (t.stderr) out = out ? `${out}\n${t.stderr}` : t.stderr;
  if (t.exit_code !== 0) out = `Exit code: ${t.exit_code}\n${out}`;
  return out.trim() || '(no output)';
}

/** Compares one call's answers. `pageWords`, for fetch_webpage: the words and links the page's article holds. */
export function compareAnswers(tool: string, args: Record<string, unknown>, ours: Answer, theirs: Answer, page?: { words: string; links: string[]; wikipedia: boolean }): Verdict {
  const oursFailed = !ours.ok || ours.text.startsWith('Error:');
  if (oursFailed || !theirs.ok) {
    if (oursFailed && !theirs.ok) return ours.text === theirs.text ? { kind: 'equal' } : { kind: 'allowed', reasons: ['error-wording'] };
    if (!theirs.ok && /ZERO_RESULTS/.test(theirs.text)) {
      const o = parse(ours.text);
      const empty = isObject(o) && ((Array.isArray(o.results) && !o.results.length) || (Array.isArray(o.places) && !o.places.length) || (Array.isArray(o.routes) && !o.routes.length));
      if (empty) return { kind: 'allowed', reasons: ['no-results'] };
    }
    return { kind: 'different', detail: `ours ${oursFailed ? 'failed' : 'answered'}: ${ours.text.slice(0, 160)} | theirs ${theirs.ok ? 'answered' : 'failed'}: ${theirs.text.slice(0, 160)}` };
  }
  if (tool === 'python_execute_code') {
    const t = parse(theirs.text) as { stdout: string; stderr: string; exit_code: number };
    if (ours.text === pythonText(t)) return { kind: 'allowed', reasons: ['python-text'] };
    // A traceback: where the program was (a file of theirs, "<string>" of ours) and their echo of its lines aside.
    const traceback = (text: string) => text.replace(/File "[^"]*"/g, 'File "program"').replace(/\n {4}.*(?:\n {4}[~^ ]+)?(?=\n)/g, '');
    if (traceback(ours.text) === traceback(pythonText(t))) return { kind: 'allowed', reasons: ['python-text', 'python-traceback'] };
    return { kind: 'different', detail: `${JSON.stringify(ours.text)} vs ${JSON.stringify(pythonText(t))}` };
  }
  if (tool === 'python_generate_code') {
    if (ours.text === theirs.text) return { kind: 'equal' };
    if (args.model !== undefined) return { kind: 'allowed', reasons: ['code-model-choice'] };
    if (args.extra_instructions !== undefined) return { kind: 'allowed', reasons: ['code-prompt-wording'] };
    return { kind: 'different', detail: `${JSON.stringify(ours.text.slice(0, 120))} vs ${JSON.stringify(theirs.text.slice(0, 120))}` };
  }
  if (tool === 'fetch_webpage') return comparePages(ours.text, theirs.text, page);
  const o = parse(ours.text);
  const t = parse(theirs.text);
  if (o === undefined || t === undefined) return ours.text === theirs.text ? { kind: 'equal' } : { kind: 'different', detail: 'not JSON, and not the same text' };
  const reasons = new Set<string>();
  const [po, pt] = PROJECT[tool]?.(o, t, reasons) ?? [o, t];
  const diff = firstDifference(po, pt);
  if (diff) return { kind: 'different', detail: diff };
  if (!reasons.size || !firstDifference(o, t)) return { kind: 'equal' };
  return { kind: 'allowed', reasons: [...reasons] };
}

/**
 * A page: every word and link of its article is in both answers, and ours has nothing the page does not
 * (but its header). For Wikipedia, theirs also has the site around the article (menus, footer): allowed.
 */
function comparePages(ours: string, theirs: string, page?: { words: string; links: string[]; wikipedia: boolean }): Verdict {
  if (!page) return ours === theirs ? { kind: 'equal' } : { kind: 'different', detail: 'no page to compare with' };
  const article = new Set(page.words.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const o = textWords(ours);
  const t = textWords(theirs);
  const missing = (side: Set<string>) => [...article].filter((w) => !side.has(w));
  if (missing(o.words).length) return { kind: 'different', detail: `ours lacks words of the page: ${missing(o.words).slice(0, 8).join(', ')}` };
  if (missing(t.words).length) return { kind: 'different', detail: `theirs lacks words of the page: ${missing(t.words).slice(0, 8).join(', ')}` };
  const linkIn = (links: Set<string>, href: string) => [...links].some((l) => l === href || l.endsWith(href) || href.endsWith(l) || decodeURIComponent(l).endsWith(decodeURIComponent(href)));
  const lostLinks = page.links.filter((l) => !linkIn(o.links, l) || !linkIn(t.links, l));
  if (lostLinks.length) return { kind: 'different', detail: `links not in both: ${lostLinks.slice(0, 3).join(', ')}` };
  // Ours adds nothing but its header (title, source URL, language editions).
  const headerLines = ours.split('\n').filter((l) => /^(# |Source: |Language editions: )/.test(l));
  const header = textWords(headerLines.join('\n')).words;
  const extra = [...o.words].filter((w) => !article.has(w) && !header.has(w));
  if (extra.length) return { kind: 'different', detail: `ours has words the page does not: ${extra.slice(0, 8).join(', ')}` };
  return { kind: 'allowed', reasons: [page.wikipedia ? 'wiki-no-clutter' : 'page-markdown'] };
}
