import path from 'node:path';
import { seededRandom } from '../../../../../common/random.js';
import { goldenCheck } from '../../../../../tasks/aar/generate/attempt.js';
import { auditGate } from '../../../../../tasks/aar/generate/pipeline.js';
import { validateLeg } from '../../../../../tasks/aar/golden/validate.js';
import { Ledger } from '../../../../../tasks/aar/generate/ledger.js';
import { writeLeg, PIPELINE_VERSION } from '../../../../../tasks/aar/generate/leg-writer.js';
import { LEVELS } from '../../../../../tasks/aar/generate/levels.js';
import { augment } from '../../../../../tasks/aar/generate/steps/augment.js';
import { build } from '../../../../../tasks/aar/generate/steps/build.js';
import type { Crawl } from '../../../../../tasks/aar/generate/steps/crawl.js';
import { addDetours } from '../../../../../tasks/aar/generate/steps/detours.js';
import { execute } from '../../../../../tasks/aar/generate/steps/execute.js';
import { link } from '../../../../../tasks/aar/generate/steps/link.js';
import { prevalidate, runStopChain } from '../../../../../tasks/aar/generate/steps/prevalidate.js';
import { templateNamed } from '../../../../../tasks/aar/generate/steps/templates.js';
import { draftStop } from '../../../../../tasks/aar/generate/draft.js';
import type { DraftStop } from '../../../../../tasks/aar/generate/draft.js';
import type { GenerationTools } from '../../../../../tasks/aar/generate/tool-runner.js';
import { exampleCrawl, exampleTools, wiki } from '../helpers.js';

let crawl: Crawl;
let tools: GenerationTools;
let storeDir: string;
let cleanup: () => void;
beforeAll(async () => {
  const t = exampleTools();
  ({ tools, cleanup, storeDir } = t);
  crawl = await exampleCrawl(tools, 'Port Alder', LEVELS.hard);
});
afterAll(() => cleanup());

const plan = (...route: [string, string][]) => ({ theme: 'test', route: route.map(([title, key]) => ({ url: wiki(title), key })) });

async function built(...route: [string, string][]) {
  const r = await build(crawl, plan(...route), undefined, seededRandom(7), new Ledger());
  if (!r.ok) throw new Error(r.reason);
  return r.value;
}

describe('steps 3 to 7 on fixed inputs', () => {
  test('build: the planned facts as route-info stops, and every template whose inputs a route page offers', async () => {
    const { pages, candidates } = await built(['Port Alder', 'Population'], ['Alder Bridge', 'Opened'], ['Harrow Bay', 'Area']);
    expect(pages.map((p) => [p.pageUrl, p.value, p.target])).toEqual([
      [wiki('Port Alder'), 48213, 'how many people live there'],
      [wiki('Alder Bridge'), 1962, 'the year it first opened or began'],
      [wiki('Harrow Bay'), 148.2, 'how large it is, in square kilometres'],
    ]);
    const templates = new Set(candidates.map((c) => (c.role.kind === 'roadblock' ? c.role.template : '')));
    for (const t of ['geocode_elevation', 'nearby_poi_count', 'place_rating', 'country_population', 'geocode_distance', 'date_computation', 'historical_sunshine']) expect(templates).toContain(t);
    const noFact = await build(crawl, plan(['Port Alder', 'Colour']), undefined, seededRandom(1), new Ledger());
    expect(noFact).toEqual({ ok: false, reason: 'route stop 1 ("Port Alder"): "Port Alder" has no fact "Colour"' });
    const prose = await build(crawl, plan(['Port Alder', 'prose']), undefined, seededRandom(1), new Ledger());
    expect(prose).toEqual({ ok: false, reason: 'route stop 1 ("Port Alder"): prose extraction needs a model (model.steps: extract)' });
  });

  test('pre-validate: a chain that fails is dropped with its reason; too few left drops the leg', async () => {
    const { pages, candidates } = await built(['Port Alder', 'Founded']);
    const old = candidates.filter((c) => c.role.kind === 'roadblock' && /weather|snowfall|sunshine/.test(c.role.template));
    expect(old.length).toBeGreaterThan(0); // Port Alder's only full date is 1734: before the weather archive
    const ledger = new Ledger();
    const kept = await prevalidate(pages, candidates, { min: 1, want: 3 }, tools, ledger);
    if (!kept.ok) throw new Error(kept.reason);
    expect(kept.value.filter((s) => s.type === 'tool')).toHaveLength(3);
    expect(kept.value[0]).toBe(pages[0]);
    const weatherFirst = await prevalidate(pages, old, { min: 1, want: 1 }, tools, new Ledger());
    expect(weatherFirst).toEqual({ ok: false, reason: `0 roadblock chains held of ${old.length} tried; the level needs 1` });
    const tally = ledger.toJson().prevalidate!.chains!;
    expect(tally.kept).toBe(3);
    for (const r of Object.values(tally.reasons)) expect(r.example).toMatch(/weather archive starts on 1940-01-01/);
  });

  test('pre-validate reads a value as the golden executor does: whole minutes from Google\'s seconds, km from meters; an unreadable answer drops', async () => {
    const chainOf = (template: string, inputs: Record<string, string>) => {
      const { chain, output } = templateNamed(template).build(inputs);
      return draftStop({ type: 'tool', target: template, chain, role: { kind: 'roadblock', template, entity: 'Port Alder', field: 'Location', fromId: 'p', output } });
    };
    const route = JSON.parse((await tools.call({ tool: 'maps_directions', args: { origin: 'Port Alder', destination: 'Harrow Bay', mode: 'driving' } })).text).routes[0];
    expect(route.duration.value % 60).not.toBe(0); // seconds, so the floor matters
    const minutes = await runStopChain(chainOf('geocode_directions_duration', { location: 'Port Alder', location2: 'Harrow Bay' }), tools);
    expect(minutes).toEqual({ ok: true, value: Math.trunc(route.duration.value / 60) });
    const km = await runStopChain(chainOf('geocode_distance', { location: 'Port Alder', location2: 'Harrow Bay' }), tools);
    const matrix = JSON.parse((await tools.call({ tool: 'maps_distance_matrix', args: { origins: ['Port Alder'], destinations: ['Harrow Bay'] } })).text);
    expect(km).toEqual({ ok: true, value: matrix.results[0].elements[0].distance.value / 1000 });
    // The authors' golden executor reads no temperature from a weather answer: such a chain cannot hold a golden value.
    const temperature = await runStopChain(chainOf('geocode_weather_historical', { location: 'Port Alder', date: '2001-05-04' }), tools);
    expect(temperature).toEqual({ ok: false, reason: 'geocode_weather_historical: the golden executor reads no number as temperature_2m_max from the last answer' });
  });

  test('link: a link where the page has one, a checked search where not, and a hop neither reaches drops the leg', async () => {
    const { pages } = await built(['Port Alder', 'Population'], ['Alder Bridge', 'Length'], ['Rimehold', 'Population']);
    const linked = await link(pages, crawl, tools, new Ledger());
    if (!linked.ok) throw new Error(linked.reason);
    expect(linked.value.map((s) => s.bridge?.type)).toEqual(['link_follow', 'search_query', 'link_follow']);
    expect(linked.value[1]!.bridge).toEqual({ type: 'search_query', targetUrl: null, searchQuery: 'Rimehold', expectedResultUrl: wiki('Rimehold') });
    expect(linked.value[2]!.deps).toEqual([linked.value[1]!.id]);
    const lost = { ...pages[1]!, pageUrl: wiki('Zzyzx Unknown') };
    crawl.pages.set(wiki('Zzyzx Unknown'), { ...crawl.pages.get(wiki('Alder Bridge'))!, url: wiki('Zzyzx Unknown'), title: 'Zzyzx Unknown' });
    const broken = await link([pages[0]!, lost], crawl, tools, new Ledger());
    expect(broken.ok ? 'kept' : broken.reason).toMatch(/^no link or search leads from "Port Alder" to "Zzyzx Unknown": a search for the next page does not find/);
  });

  test('augment, execute and the golden executor: diamonds fork from a page and merge; values recomputed; the leg validates', async () => {
    const { pages, candidates } = await built(['Port Alder', 'Population'], ['Alder Bridge', 'Length']);
    const random = seededRandom(11);
    const pre = await prevalidate(pages, candidates, { min: 1, want: 2 }, tools, new Ledger());
    if (!pre.ok) throw new Error(pre.reason);
    const withDetours = addDetours(pre.value, 2, random, new Ledger());
    if (!withDetours.ok) throw new Error(withDetours.reason);
    const linked = await link(withDetours.value, crawl, tools, new Ledger());
    if (!linked.ok) throw new Error(linked.reason);
    const dag = await augment(linked.value, crawl, { min: 2, want: 2 }, tools, random, new Ledger());
    if (!dag.ok) throw new Error(dag.reason);
    const merges = dag.value.filter((s) => s.role.kind === 'merge');
    expect(merges).toHaveLength(2);
    for (const m of merges) {
      const [a, b] = m.deps.map((d) => dag.value.find((s) => s.id === d)!);
      expect(a!.role.kind).toBe('branch');
      expect(a!.deps).toEqual(b!.deps); // both branches hang on the same source page
      expect(dag.value.indexOf(m)).toBeGreaterThan(dag.value.indexOf(b!));
    }
    const done = await execute(dag.value, tools, random);
    if (!done.ok) throw new Error(done.reason);
    const finish = done.value.at(-1)!;
    expect(finish.type).toBe('compute');
    expect(finish.value).toBeGreaterThanOrEqual(0);
    expect(finish.value).toBeLessThanOrEqual(9);
    const draft = { seedUrl: wiki('Port Alder'), seedTitle: 'Port Alder', level: LEVELS.easy, variant: 'dag' as const, theme: 't', stops: done.value, pagesCrawled: crawl.pages.size, modes: { plan: 'rule' as const, extract: 'rule' as const, verbalize: 'rule' as const, roundtrip: 'rule' as const } };
    const leg = writeLeg(draft, '1. x', 'sample_000', { pipeline: PIPELINE_VERSION, seed_url: '', level: 'easy', variant: 'aar-dag', model: null, steps: draft.modes, generated_at: '2025-01-01T00:00:00.000Z', tools: { mode: 'replay', store: null, world: null }, run_seed: 1, attempt: 1, roundtrip_alignment: 1, implied_code: 0 });
    expect(leg.stops.every((s) => Array.isArray(s.depends_on))).toBe(true);
    expect(validateLeg({ id: 'x', file: 'x', leg }).mismatches).toEqual([]);
    expect(goldenCheck(leg, 'x').ok).toBe(true);
    // The golden executor's gate: a detour whose value disagrees with its transform drops the leg.
    const tampered = structuredClone(leg);
    const detour = tampered.stops.find((s) => s.stop_type === 'reason')!;
    detour.extracted_value = (detour.extracted_value as number) + 1;
    expect(goldenCheck(tampered, 'x')).toEqual({ ok: false, reason: expect.stringMatching(/^the golden executor disagrees: \$\.stops\[\d+\]\.extracted_value: /) });
    // The audit's gate: every invariant against the answers stored; without them the dry run fails.
    expect((await auditGate(leg, 'x', storeDir)).ok).toBe(true);
    expect(await auditGate(leg, 'x', path.join(storeDir, 'empty'))).toEqual({ ok: false, reason: expect.stringMatching(/^api_stability: stop \d+ step 0: \w+ answers Error: no recorded response/) });
    // A source with no place or country offers no diamond.
    const coin = await built(['Veldcoin', 'Launched']);
    expect(await augment(coin.pages, crawl, { min: 1, want: 1 }, tools, random, new Ledger())).toEqual({ ok: false, reason: '0 diamonds could be made; the level needs 1' });
  });

  test('execute: a value that differs from its dry run drops the leg as an unstable API', async () => {
    const { pages, candidates } = await built(['Port Alder', 'Population']);
    const pre = await prevalidate(pages, candidates, { min: 1, want: 1 }, tools, new Ledger());
    if (!pre.ok) throw new Error(pre.reason);
    const changed: DraftStop[] = pre.value.map((s) => (s.type === 'tool' ? { ...s, value: (s.value as number) + 1 } : s));
    const r = await execute(changed, tools, seededRandom(1));
    expect(r.ok ? 'kept' : r.reason).toMatch(/^API instability: \w+ gave [\d.]+, its dry run [\d.]+$/);
  });
});
