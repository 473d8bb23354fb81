/**
 * Every rule of the paper metrics in shared/docs/METRICS.md ("Paper metrics"), each threshold from both
 * sides, scored through `scoreTrial` so the whole path (leg view, tool-log reader, matching) is tested.
 */
import { scoreTrial } from '../../../../tasks/aar/scoring/score.js';
import { call, computeStop, fetchPage, makeLeg, pageStop, reasonStop, step, toolLog, toolStop, wikiPages, type StopSpec } from '../../../helpers/legs.js';

const PASSCODE = 7;
const RIGHT = String(PASSCODE);
const WRONG = '3';

const country = (i: number) => `C${String(i).padStart(3, '0')}`;
const values = (n: number) => Array.from({ length: n }, (_, i) => `V${String(i).padStart(3, '0')}`);

interface TrialShape {
  pages?: number;
  visited?: number;
  toolStops?: number;
  completed?: number;
  /** Stops with an extracted value, and how many of them the previews show. */
  values?: number;
  shown?: number;
  answer?: string | null;
}

/** A leg of `pages` page stops, `toolStops` one-step tool stops and `values` reason stops, and a log doing part of it. */
function scoreShape(shape: TrialShape) {
  const { pages = 0, visited = 0, toolStops = 0, completed = 0, values: nValues = 0, shown = 0, answer = WRONG } = shape;
  const urls = wikiPages(pages);
  const vals = values(nValues);
  const stops: StopSpec[] = [
    ...urls.map((u) => pageStop(u)),
    ...Array.from({ length: toolStops }, (_, i) => toolStop(step('countries_population', { country: country(i) }))),
    ...vals.map((v) => reasonStop(v)),
  ];
  const lines = [
    ...urls.slice(0, visited).map((u) => fetchPage(u)),
    ...Array.from({ length: completed }, (_, i) => call('countries_population', { country: country(i) })),
  ];
  if (shown) lines.push(call('python_execute_code', { code: 'print()' }, { result_preview: vals.slice(0, shown).join(' ') }));
  return scoreTrial(makeLeg(stops, PASSCODE), answer, toolLog(...lines));
}

describe('fa', () => {
  test.each([
    [RIGHT, 1, 'correct'],
    [WRONG, 0, 'incorrect'],
    [null, 0, 'unknown'],
    ['', 0, 'unknown'],
    ['77', 0, 'unknown'],
  ] as const)('answer %p -> fa %p (%s)', (answer, fa, status) => {
    expect(scoreShape({ pages: 1, answer })).toMatchObject({ fa, status });
  });
});

describe('pvr: distinct page stops fetched', () => {
  test.each([
    [4, 0, 0],
    [4, 1, 0.25],
    [4, 3, 0.75],
    [4, 4, 1],
  ])('%p pages, %p fetched -> %p', (pages, visited, pvr) => {
    expect(scoreShape({ pages, visited }).pvr).toBe(pvr);
  });

  test('null when the leg has no page stop; page urls of other stop types do not count', () => {
    const leg = makeLeg([{ ...toolStop(step('countries_population', { country: 'Romania' })), page_url: 'https://en.wikipedia.org/wiki/Romania' }]);
    expect(scoreTrial(leg, WRONG, fetchPage('https://en.wikipedia.org/wiki/Romania')).pvr).toBeNull();
  });

  test('a page stop named twice counts once', () => {
    const [a, b] = wikiPages(2);
    const leg = makeLeg([pageStop(a), pageStop(a), pageStop(b)]);
    expect(scoreTrial(leg, WRONG, fetchPage(a)).pvr).toBe(0.5);
  });

  test('fetching a page several times, or pages outside the leg, changes nothing', () => {
    const [a, b] = wikiPages(2);
    const leg = makeLeg([pageStop(a), pageStop(b)]);
    const log = toolLog(fetchPage(a), fetchPage(a), fetchPage('https://en.wikipedia.org/wiki/Elsewhere'), call('web_search', { query: 'x' }));
    expect(scoreTrial(leg, WRONG, log).pvr).toBe(0.5);
  });

  test('a visit is read from the entry url, from args.url and from resolved_url; failed fetches count too', () => {
    const [a, b, c, d] = wikiPages(4);
    const leg = makeLeg([pageStop(a), pageStop(b), pageStop(c), pageStop(d)]);
    const log = toolLog(
      JSON.stringify({ tool: 'fetch_webpage', args: {}, url: a, success: true }),
      JSON.stringify({ tool: 'fetch_webpage', args: { url: b }, success: true }),
      JSON.stringify({ tool: 'fetch_webpage', args: { url: 'https://en.wikipedia.org/wiki/Redirect' }, resolved_url: c, success: true }),
      JSON.stringify({ tool: 'fetch_webpage', args: { url: d }, url: d, success: false }),
    );
    expect(scoreTrial(leg, WRONG, log).pvr).toBe(1);
  });

  test('a fetch counts for both the page asked for and the page it resolved to', () => {
    const [a, b] = wikiPages(2);
    const leg = makeLeg([pageStop(a), pageStop(b)]);
    expect(scoreTrial(leg, WRONG, fetchPage(a, { resolved_url: b })).pvr).toBe(1);
  });
});

describe('rcr: tool stops whose every chain step has a matching call', () => {
  const geocode = step('maps_geocode', { address: 'Eiffel Tower' });
  const places = step('maps_search_places', { query: 'museums near Eiffel Tower' });
  const python = step('python_execute_code', { code: 'print(len(result))' });
  const chainLeg = makeLeg([toolStop(geocode, places, python)]);
  const geocodeCall = call('maps_geocode', { address: 'eiffel tower' });
  const placesCall = call('maps_search_places', { query: 'Museums near Eiffel Tower' });
  const pythonCall = call('python_execute_code', { code: 'x = 1' });

  test('a three-step chain is complete only when all three steps are matched', () => {
    expect(scoreTrial(chainLeg, WRONG, toolLog(geocodeCall, placesCall, pythonCall)).rcr).toBe(1);
    // any order of the calls
    expect(scoreTrial(chainLeg, WRONG, toolLog(pythonCall, placesCall, geocodeCall)).rcr).toBe(1);
  });

  test.each([
    ['first step missing', [placesCall, pythonCall]],
    ['middle step missing', [geocodeCall, pythonCall]],
    ['last step missing', [geocodeCall, placesCall]],
    ['only one step matched', [placesCall]],
    ['middle step called with a wrong argument', [geocodeCall, call('maps_search_places', { query: 'cafes in Rome' }), pythonCall]],
  ])('a partly matched chain is not complete: %s', (_, lines) => {
    expect(scoreTrial(chainLeg, WRONG, toolLog(...lines)).rcr).toBe(0);
  });

  test('partly matched chains among complete ones: 1 of 3 stops', () => {
    const leg = makeLeg([
      toolStop(geocode, places),
      toolStop(step('countries_population', { country: 'France' }), python),
      toolStop(step('countries_area', { country: 'France' })),
    ]);
    const log = toolLog(geocodeCall, call('countries_population', { country: 'France' }), call('countries_area', { country: 'France' }));
    expect(scoreTrial(leg, WRONG, log).rcr).toBeCloseTo(1 / 3, 12);
  });

  test('one call serves several stops (and the reference counts it once)', () => {
    const pop = step('countries_population', { country: 'Romania' });
    const leg = makeLeg([toolStop(pop), toolStop(pop), toolStop(pop, python)]);
    const s = scoreTrial(leg, WRONG, toolLog(call('countries_population', { country: 'Romania' }), pythonCall));
    expect(s.rcr).toBe(1);
    // the reference consumes a call once, and compares python code: one right call of four golden steps
    expect(s.right_tool_calls).toBe(1);
    expect(s.golden_chain_length).toBe(4);
  });

  test('compute stops do not count toward rcr; null when the leg has no tool stop', () => {
    const onlyCompute = makeLeg([pageStop(wikiPages(1)[0]), computeStop(python)]);
    expect(scoreTrial(onlyCompute, WRONG, '').rcr).toBeNull();
    const both = makeLeg([computeStop(geocode), toolStop(places)]);
    expect(scoreTrial(both, WRONG, '').rcr).toBe(0);
    expect(scoreTrial(both, WRONG, placesCall).rcr).toBe(1);
  });

  test('the tool name must be equal (aliases resolved); a right name alone is not enough when a key is compared', () => {
    const leg = makeLeg([toolStop(step('web_search', { query: 'Danube length' }))]);
    expect(scoreTrial(leg, WRONG, call('serper_search', { query: 'danube length' })).rcr).toBe(1);
    expect(scoreTrial(leg, WRONG, call('fetch_webpage', { query: 'danube length' })).rcr).toBe(0);
    expect(scoreTrial(leg, WRONG, call('web_search', { query: 'Nile length' })).rcr).toBe(0);
    expect(scoreTrial(leg, WRONG, JSON.stringify({ tool: 7, args: { query: 'danube length' } })).rcr).toBe(0);
    expect(scoreTrial(leg, WRONG, JSON.stringify({ args: { query: 'danube length' } })).rcr).toBe(0);
  });

  test('a tool name that is not text matches nothing, not even the same non-text name', () => {
    for (const name of [7, ['maps_geocode']]) {
      const leg = makeLeg([toolStop({ tool_name: name as unknown as string, arguments: {} })]);
      expect(scoreTrial(leg, WRONG, JSON.stringify({ tool: name, args: {} })).rcr).toBe(0);
    }
  });

  describe('steps with no comparable key match on the tool name alone', () => {
    const elevation = step('maps_elevation', { __from_previous_as_locations: 'location' });
    test('all golden keys start with "__" (the reference never matches such a step)', () => {
      const leg = makeLeg([toolStop(elevation)]);
      const s = scoreTrial(leg, WRONG, call('maps_elevation', { locations: [{ latitude: 1, longitude: 2 }] }));
      expect(s.rcr).toBe(1);
      expect(s.right_tool_calls).toBe(0);
      expect(scoreTrial(leg, WRONG, call('maps_geocode', { locations: 'x' })).rcr).toBe(0);
    });
    test.each([
      ['no args', {}],
      ['only other keys', { place: 'Paris' }],
      ['the key given as null', { address: null }],
      ['args not an object', 'Eiffel Tower'],
      ['args null', null],
      ['only "__" keys', { __address: 'Rome' }],
    ])('the agent gave none of the golden keys: %s', (_, args) => {
      const leg = makeLeg([toolStop(geocode)]);
      expect(scoreTrial(leg, WRONG, call('maps_geocode', args)).rcr).toBe(1);
    });
    test.each([
      ['empty', {}],
      ['null', null],
      ['absent', undefined],
      ['not a dict', ['Eiffel Tower']],
    ])('golden arguments %s: any call of the tool matches', (_, args) => {
      const leg = makeLeg([toolStop(step('maps_geocode', args))]);
      expect(scoreTrial(leg, WRONG, call('maps_geocode', { address: 'Rome' })).rcr).toBe(1);
      expect(scoreTrial(leg, WRONG, call('maps_search_places', { address: 'Rome' })).rcr).toBe(0);
    });
  });

  describe('compared keys: every key the agent gave must match', () => {
    const directions = step('maps_directions', { origin: 'Paris', destination: 'Lyon', mode: 'driving', __from_previous: 'x' });
    const leg = makeLeg([toolStop(directions)]);
    test.each([
      [{ origin: 'paris, france', destination: 'Lyon', mode: 'DRIVING' }, 1],
      [{ origin: 'Paris' }, 1],
      [{ origin: 'Paris', destination: 'Marseille' }, 0],
      [{ origin: 'Paris', destination: null, mode: 'walking' }, 0],
      [{ origin: '', destination: 'Lyon' }, 0],
      [{ origin: '  PARIS  ', destination: 'lyon', __from_previous: 'unrelated' }, 1],
    ])('%j -> rcr %p', (args, rcr) => {
      expect(scoreTrial(leg, WRONG, call('maps_directions', args)).rcr).toBe(rcr);
    });
  });

  describe('value matching (the reference rule): substring either way, else numbers within 1%', () => {
    const pop = (golden: unknown, agent: unknown) =>
      scoreTrial(makeLeg([toolStop(step('countries_population', { country: golden }))]), WRONG, call('countries_population', { country: agent })).rcr;
    test.each([
      ['Romania', 'romania', 1],
      ['Romania', 'Republic of Romania', 1],
      ['Republic of Romania', 'ROMANIA', 1],
      ['Romania', 'Bulgaria', 0],
      ['Romania', '', 0],
      ['', 'Romania', 0],
      ['', '', 0],
      ['1,000', '1005', 1],
      ['1,000', '1009.99', 1],
      ['1,000', '1010', 0],
      ['1000', '990.5', 1],
      ['1000', '989', 0],
      ['-100', '-99.5', 1],
      ['-100', '50', 0],
      ['-100', '-102', 0],
      ['0.0', '0e0', 1],
      ['0.0', '1e-9', 0],
      ['1e3', '0.001e6', 1],
      ['12', 'abc', 0],
      ['5', '0e0', 0],
      ['nan', 'NaN', 1],
      ['nan', '1', 0],
      [2850, 2851, 1],
      [2850, '2,851', 1],
      [20.5, 20.4, 1],
      ['Romania', 7, 0],
      [['a', 'b'], ['A', 'B'], 1],
      [{ k: 'v' }, "{'k': 'v'}", 1],
      [true, 'True', 1],
    ])('golden %j, agent %j -> %p', (golden, agent, rcr) => {
      expect(pop(golden, agent)).toBe(rcr);
    });
  });

  test('python_execute_code steps match on the name alone, whatever the code', () => {
    const leg = makeLeg([toolStop(python)]);
    expect(scoreTrial(leg, WRONG, call('python_execute_code', { code: 'completely different' })).rcr).toBe(1);
    expect(scoreTrial(leg, WRONG, call('python_execute_code', {})).rcr).toBe(1);
    expect(scoreTrial(leg, WRONG, call('python_generate_code', { code: 'print(len(result))' })).rcr).toBe(0);
    expect(scoreTrial(leg, WRONG, call('maps_geocode', { code: 'print(len(result))' })).rcr).toBe(0);
    // the reference still compares the code
    expect(scoreTrial(leg, WRONG, call('python_execute_code', { code: 'completely different' })).right_tool_calls).toBe(0);
  });
});

describe('diagnosis of a trial that is not correct (section 6.4)', () => {
  // 100 page stops and 100 tool stops put the thresholds 0.01 apart
  test.each([
    [49, 100, 'navigation'],
    [50, 100, 'computation'],
    [51, 100, 'computation'],
    [0, 100, 'navigation'],
    [100, 49, 'tool_use'],
    [100, 50, 'computation'],
    [100, 51, 'computation'],
    [100, 0, 'tool_use'],
    [50, 49, 'tool_use'],
    [49, 49, 'navigation'],
    [50, 50, 'computation'],
  ])('pvr %p/100, rcr %p/100 -> %s', (visited, completed, diagnosis) => {
    const s = scoreShape({ pages: 100, visited, toolStops: 100, completed });
    expect(s.pvr).toBe(visited / 100);
    expect(s.rcr).toBe(completed / 100);
    expect(s.diagnosis).toBe(diagnosis);
  });

  test('exactly 0.5 is not below 0.5 (small legs: 1 of 2)', () => {
    expect(scoreShape({ pages: 2, visited: 1, toolStops: 2, completed: 2 }).diagnosis).toBe('computation');
    expect(scoreShape({ pages: 2, visited: 2, toolStops: 2, completed: 1 }).diagnosis).toBe('computation');
    expect(scoreShape({ pages: 3, visited: 1, toolStops: 2, completed: 2 }).diagnosis).toBe('navigation');
    expect(scoreShape({ pages: 2, visited: 2, toolStops: 3, completed: 1 }).diagnosis).toBe('tool_use');
  });

  test.each([
    ['no page stop: rcr decides', { toolStops: 4, completed: 1 }, 'tool_use'],
    ['no page stop, rcr at 0.5', { toolStops: 4, completed: 2 }, 'computation'],
    ['no tool stop, pvr below 0.5', { pages: 4, visited: 1 }, 'navigation'],
    ['no tool stop, pvr at 0.5', { pages: 4, visited: 2 }, 'computation'],
    ['neither', { values: 1 }, 'computation'],
  ])('a null pvr or rcr falls through to the next rule: %s', (_, shape, diagnosis) => {
    const s = scoreShape(shape);
    expect(s.diagnosis).toBe(diagnosis);
  });

  test('a trial without a valid answer is diagnosed too; a correct one never is', () => {
    expect(scoreShape({ pages: 2, answer: null }).diagnosis).toBe('navigation');
    expect(scoreShape({ pages: 2, answer: 'seven' }).diagnosis).toBe('navigation');
    expect(scoreShape({ pages: 2, toolStops: 2, answer: RIGHT }).diagnosis).toBeNull();
    expect(scoreShape({ answer: RIGHT }).diagnosis).toBeNull();
  });
});

describe('shortcut: correct with pvr < 0.3 (appendix K)', () => {
  test.each([
    [0, true],
    [29, true],
    [30, false],
    [31, false],
    [34, false],
    [49, false],
    [100, false],
  ])('correct, pvr %p/100 -> shortcut %p', (visited, shortcut) => {
    const s = scoreShape({ pages: 100, visited, answer: RIGHT });
    expect(s.pvr).toBe(visited / 100);
    expect(s.shortcut).toBe(shortcut);
  });

  test('pvr 1/3 is not a shortcut; 1/4 is', () => {
    expect(scoreShape({ pages: 3, visited: 1, answer: RIGHT }).shortcut).toBe(false);
    expect(scoreShape({ pages: 4, visited: 1, answer: RIGHT }).shortcut).toBe(true);
  });

  test('never for a wrong or missing answer, nor when pvr is null', () => {
    expect(scoreShape({ pages: 100, visited: 0, answer: WRONG }).shortcut).toBe(false);
    expect(scoreShape({ pages: 100, visited: 0, answer: null }).shortcut).toBe(false);
    expect(scoreShape({ toolStops: 2, answer: RIGHT }).shortcut).toBe(false);
  });
});

describe('near miss: wrong with intermediate_rate >= 0.8 (appendix H)', () => {
  test.each([
    [5, 4, 0.8, true],
    [50, 40, 0.8, true],
    [49, 39, 0.796, false],
    [50, 41, 0.82, true],
    [4, 3, 0.75, false],
    [5, 5, 1, true],
    [5, 0, 0, false],
  ])('%p values, %p shown -> intermediate_rate %p, near_miss %p', (n, shown, rate, nearMiss) => {
    const s = scoreShape({ values: n, shown, answer: WRONG });
    expect(s.intermediate_rate).toBe(rate);
    expect(s.near_miss).toBe(nearMiss);
  });

  test('never for a correct answer; a missing answer can be one; null intermediate_rate is not', () => {
    expect(scoreShape({ values: 5, shown: 5, answer: RIGHT }).near_miss).toBe(false);
    expect(scoreShape({ values: 5, shown: 5, answer: null }).near_miss).toBe(true);
    const none = scoreShape({ pages: 1, answer: WRONG });
    expect(none.intermediate_rate).toBeNull();
    expect(none.near_miss).toBe(false);
  });
});

describe('step limit and timeout', () => {
  const legOf = (stops: number) => makeLeg(Array.from({ length: stops }, () => reasonStop()), PASSCODE);
  test.each([
    [1, 10],
    [6, 10],
    [7, 10],
    [8, 12],
    [9, 13],
    [20, 30],
  ])('K = %p stops -> budget %p', (k, budget) => {
    expect(scoreTrial(legOf(k), null, '').step_budget).toBe(budget);
  });

  test.each([
    // steps, answer, run flag, expected
    [12, null, undefined, true],
    [11, null, undefined, false],
    [13, null, undefined, true],
    [12, '', undefined, true],
    [12, 'x', undefined, true],
    [12, '12', undefined, true],
    [12, WRONG, undefined, false],
    [12, RIGHT, undefined, false],
    [3, null, true, true],
    [3, WRONG, true, false],
    [12, null, false, true],
    [null, null, undefined, false],
    [undefined, null, true, true],
  ] as const)('budget 12: steps %p, answer %p, reported limit %p -> %p', (steps, answer, flag, hit) => {
    const s = scoreTrial(legOf(8), answer, '', { steps, stepLimitHit: flag });
    expect(s.step_limit_hit).toBe(hit);
    expect(s.steps).toBe(steps ?? null);
  });

  test('a timeout is reported as it is, and is no step-limit hit on its own', () => {
    const leg = legOf(8);
    expect(scoreTrial(leg, null, '', { steps: 5, timedOut: true })).toMatchObject({ timed_out: true, step_limit_hit: false, fa: 0 });
    expect(scoreTrial(leg, null, '', { steps: 12, timedOut: true })).toMatchObject({ timed_out: true, step_limit_hit: true });
    expect(scoreTrial(leg, RIGHT, '', { steps: 12, timedOut: true })).toMatchObject({ timed_out: true, step_limit_hit: false, fa: 1 });
    expect(scoreTrial(leg, null, '', { timedOut: false })).toMatchObject({ timed_out: false, step_limit_hit: false });
    expect(scoreTrial(leg, null, '').timed_out).toBeNull();
  });

  test('a wrong trial that timed out or ran out of steps is diagnosed by how it ended, not from pvr and rcr (issue 10)', () => {
    const leg = makeLeg([pageStop(wikiPages(1)[0]), toolStop(step('countries_population', { country: 'C000' }))]);
    const log = toolLog(fetchPage(wikiPages(1)[0]));
    expect(scoreTrial(leg, null, log, { steps: 99, timedOut: true }).diagnosis).toBe('timeout');
    expect(scoreTrial(leg, null, '', { steps: 99, timedOut: true }).diagnosis).toBe('timeout');
    expect(scoreTrial(leg, null, log, { steps: 99, timedOut: false }).diagnosis).toBe('step_limit');
    expect(scoreTrial(leg, null, log, { steps: 5, timedOut: false }).diagnosis).toBe('tool_use');
  });
});

test('tool_calls counts the parsed log entries; run facts pass through', () => {
  const s = scoreTrial(makeLeg([reasonStop()]), WRONG, toolLog(call('a'), 'not json', call('b')), {
    wallS: 1.5,
    inputTokens: 3,
    outputTokens: 4,
    cachedTokens: 5,
    costUsd: 0.5,
  });
  expect(s).toMatchObject({ tool_calls: 2, wall_s: 1.5, input_tokens: 3, output_tokens: 4, cached_tokens: 5, cost_usd: 0.5, log_lines_skipped: 1 });
  expect(scoreTrial(makeLeg([reasonStop()]), WRONG, null)).toMatchObject({ tool_calls: 0, wall_s: null, input_tokens: null, cost_usd: null, steps: null });
});
