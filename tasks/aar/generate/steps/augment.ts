import { shuffleInPlace } from '../../../../common/random.js';
import type { DraftStop } from '../draft.js';
import { draftStop, dropped, kept, stopId, type StepResult } from '../draft.js';
import type { Ledger } from '../ledger.js';
import type { GenerationTools } from '../tool-runner.js';
import type { Crawl } from './crawl.js';
import { pageEntities } from './facts.js';
import { runStopChain } from './prevalidate.js';
import { POI_KINDS, templateNamed, type TemplateInputs } from './templates.js';

/**
 * Step 6, augment (DAG variant): diamonds of the paper's section 3.3. A source page stop with a place or a
 * country forks into two tool chains on that entity (elevation x POI count, elevation x rating,
 * population x area, temperature x precipitation), run through the tool service like any chain, and a
 * merge stop combines them (python_execute_code). Branches depend on the source, the merge on both.
 */

const DIAMOND_DATE = '2024-06-15';

const DIAMONDS: { name: string; entity: 'location' | 'country'; branches: [string, string] }[] = [
  { name: 'elevation_poi', entity: 'location', branches: ['geocode_elevation', 'nearby_poi_count'] },
  { name: 'elevation_rating', entity: 'location', branches: ['geocode_elevation', 'place_rating'] },
  { name: 'population_area', entity: 'country', branches: ['country_population', 'country_area'] },
  { name: 'temperature_precipitation', entity: 'location', branches: ['geocode_weather_historical', 'geocode_weather_precipitation'] },
];

export function mergeCode(op: 'add' | 'abs_diff', a: number, b: number): string {
  return op === 'add' ? `result = int(${a}) + int(${b})\nprint(result)` : `result = abs(int(${a}) - int(${b}))\nprint(result)`;
}

export async function augment(stops: DraftStop[], crawl: Crawl, wanted: { min: number; want: number }, tools: GenerationTools, random: () => number, ledger: Ledger): Promise<StepResult<DraftStop[]>> {
  const sources = shuffleInPlace(stops.filter((s) => s.type === 'page'), random);
  const inserted = new Map<string, DraftStop[]>();
  let made = 0;
  for (const source of sources) {
    if (made >= wanted.want) break;
    const entities = pageEntities(crawl.pages.get(source.pageUrl!)!);
    const kinds = shuffleInPlace(DIAMONDS.filter((d) => entities.some((e) => e.kind === d.entity)), random);
    for (const kind of kinds) {
      const entity = entities.find((e) => e.kind === kind.entity)!;
      const diamond = stopId('diamond');
      const inputs: TemplateInputs = { [kind.entity]: entity.value, date: DIAMOND_DATE, poi: POI_KINDS[Math.floor(random() * POI_KINDS.length)] };
      const branches = kind.branches.map((name) => {
        const { chain, target, output } = templateNamed(name).build(inputs);
        return draftStop({ type: 'tool', role: { kind: 'branch', diamond, template: name, entity: entity.value, field: entity.field, fromId: source.id, output, date: { fixed: DIAMOND_DATE }, ...(name === 'nearby_poi_count' ? { poi: inputs.poi } : {}) }, target, pageUrl: source.pageUrl, chain, deps: [source.id], reasoning: `Diamond ${kind.name} branch: ${name} of ${entity.value}` });
      });
      const values: number[] = [];
      for (const branch of branches) {
        const value = await runStopChain(branch, tools);
        if (!value.ok) {
          ledger.drop('augment', 'diamonds', value.reason);
          break;
        }
        values.push(value.value);
        branch.value = value.value;
      }
      if (values.length < 2) continue;
      const op = random() < 0.5 ? 'add' : 'abs_diff';
      const [a, b] = branches as [DraftStop, DraftStop];
      const merge = draftStop({
        type: 'tool',
        role: { kind: 'merge', diamond, op },
        target: `Combine the values of the two branches (${op === 'add' ? 'their sum' : 'their absolute difference'}, whole parts)`,
        pageUrl: source.pageUrl,
        chain: [{ tool_name: 'python_execute_code', arguments: { code: mergeCode(op, values[0]!, values[1]!) }, expected_output: null, output_key: 'merged' }],
        deps: [a.id, b.id],
        reasoning: `Diamond ${kind.name} merge: ${op} of its two branches`,
      });
      inserted.set(source.id, [a, b, merge]);
      ledger.keep('augment', 'diamonds');
      made++;
      break;
    }
  }
  if (made < wanted.min) return dropped(`${made} diamonds could be made; the level needs ${wanted.min}`);
  // A diamond goes after its source page and the stops between it and the next page stop.
  const out: DraftStop[] = [];
  let pending: DraftStop[] = [];
  for (const stop of stops) {
    if (stop.type === 'page') {
      out.push(...pending);
      pending = inserted.get(stop.id) ?? [];
    }
    out.push(stop);
  }
  out.push(...pending);
  return kept(out);
}
