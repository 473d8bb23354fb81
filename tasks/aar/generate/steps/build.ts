import { shuffleInPlace } from '../../../../common/random.js';
import type { DraftStop, Entity, Fact, PageInfo } from '../draft.js';
import { draftStop, dropped, kept, type StepResult } from '../draft.js';
import type { Ledger } from '../ledger.js';
import type { ModelClient } from '../model/client.js';
import type { Crawl } from './crawl.js';
import { proseFact } from './extract.js';
import { infoboxFacts, pageEntities, sectionFacts } from './facts.js';
import type { Plan } from './plan.js';
import { POI_KINDS, TEMPLATES, tradingDay, type TemplateInputs } from './templates.js';

/**
 * Step 3, build: the route-info stops of the plan (the planned fact of each page), and the roadblock
 * candidates: every template whose inputs a route page offers (its place, country, ticker, dates,
 * numbers), in a random order with distinct templates first. Pre-validation (prevalidate.ts) runs them
 * and keeps as many as the leg needs; detours are added once values are known (detours.ts).
 */

export interface Built {
  pages: DraftStop[];
  candidates: DraftStop[];
}

async function factFor(page: PageInfo, key: string, model: ModelClient | undefined, draw: number): Promise<StepResult<Fact>> {
  if (key === 'prose') {
    if (!model?.steps.has('extract')) return dropped('prose extraction needs a model (model.steps: extract)');
    return proseFact(page, model, draw);
  }
  const fact = [...infoboxFacts(page), ...sectionFacts(page)].find((f) => f.key === key);
  return fact ? kept(fact) : dropped(`"${page.title}" has no fact "${key}"`);
}

type RoutePage = { page: PageInfo; stop: DraftStop };
type Located = { value: string; field: string; fromId: string };

/** What a route page offers the templates: their inputs, and the facts and entities they came from. */
interface PageOffer extends RoutePage {
  entities: Entity[];
  inputs: TemplateInputs;
  when: Fact | undefined;
  other: Located | undefined;
  metres: Fact | undefined;
}

/** One candidate per template and route page whose inputs that page has; distinct templates first, each group in random order. */
function roadblockCandidates(route: RoutePage[], random: () => number): DraftStop[] {
  const out: DraftStop[] = [];
  const locations = route.map(({ page, stop }) => pageEntities(page).filter((e) => e.kind === 'location').map((e): Located => ({ value: e.value, field: e.field, fromId: stop.id })));
  for (const [i, routePage] of route.entries()) {
    const offer = pageOffer(routePage, locations.slice(0, i).flat(), random);
    for (const template of TEMPLATES) {
      if (template.needs.every((n) => offer.inputs[n] !== undefined)) out.push(roadblock(template, offer));
    }
  }
  shuffleInPlace(out, random);
  const seen = new Set<string>();
  const first = out.filter((s) => s.role.kind === 'roadblock' && !seen.has(s.role.template) && seen.add(s.role.template));
  return [...first, ...out.filter((s) => !first.includes(s))];
}

/** A route page's template inputs: its place, country, ticker and crypto, a (recent) date, a height in metres, a place visited before it. */
function pageOffer({ page, stop }: RoutePage, visitedLocations: Located[], random: () => number): PageOffer {
  const entities = pageEntities(page);
  const of = (kind: Entity['kind']) => entities.find((e) => e.kind === kind);
  const facts = infoboxFacts(page);
  const dated = facts.filter((f) => f.iso);
  const recent = dated.filter((f) => f.iso! >= '1940-01-01');
  const pool = recent.length ? recent : dated;
  const when = pool[Math.floor(random() * pool.length)];
  // The second place of a two-place template comes from a page already visited, so no clue points ahead.
  const other = visitedLocations.find((l) => l.value !== of('location')?.value);
  const metres = facts.find((f) => f.valueType === 'number' && /\bm$/.test(f.value.trim()));
  const inputs: TemplateInputs = {
    location: of('location')?.value,
    location2: other?.value,
    date: when?.iso ?? undefined,
    number: metres ? Number(metres.extracted) : undefined,
    country: of('country')?.value,
    ticker: of('ticker')?.value,
    crypto: of('crypto')?.value,
    poi: POI_KINDS[Math.floor(random() * POI_KINDS.length)],
  };
  return { page, stop, entities, inputs, when, other, metres };
}

/** The roadblock stop of one template on a page that offers all it needs. */
function roadblock(template: (typeof TEMPLATES)[number], { page, stop, entities, inputs, when, other, metres }: PageOffer): DraftStop {
  const date = inputs.date && (template.needs.includes('ticker') ? tradingDay(inputs.date) : inputs.date);
  const { chain, target, output } = template.build({ ...inputs, date });
  // The input a clue names the chain by: the first of these the template needs.
  const main = (['ticker', 'crypto', 'country', 'location', 'date', 'number'] as const).find((n) => template.needs.includes(n))!;
  const entity = main === 'date' ? date! : String(inputs[main]);
  const field = entities.find((e) => e.value === entity)?.field ?? (template.needs.includes('date') ? when!.key : (metres?.key ?? 'figure'));
  const role = {
    kind: 'roadblock' as const,
    template: template.name,
    entity,
    field,
    fromId: stop.id,
    output,
    ...(template.needs.includes('date') ? { date: { key: when!.key } } : {}),
    ...(template.needs.includes('location2') ? { other: { fromId: other!.fromId, field: other!.field } } : {}),
    ...(template.name === 'nearby_poi_count' ? { poi: inputs.poi } : {}),
  };
  return draftStop({
    type: 'tool',
    role,
    target,
    pageUrl: page.url,
    chain,
    deps: [stop.id],
    reasoning: `Roadblock: ${template.name} from ${page.title} (${field})`,
  });
}

export async function build(crawl: Crawl, planned: Plan, model: ModelClient | undefined, random: () => number, ledger: Ledger): Promise<StepResult<Built>> {
  const route: RoutePage[] = [];
  for (const [i, { url, key }] of planned.route.entries()) {
    const page = crawl.pages.get(url)!;
    const fact = await factFor(page, key, model, Math.floor(random() * 1000));
    if (!fact.ok) {
      ledger.drop('build', 'facts', fact.reason);
      return dropped(`route stop ${i + 1} ("${page.title}"): ${fact.reason}`);
    }
    ledger.keep('build', 'facts');
    const f = fact.value;
    const stop = draftStop({
      type: 'page',
      role: { kind: 'page', fact: f },
      target: f.target,
      pageUrl: page.url,
      section: f.section,
      value: f.extracted,
      valueType: f.valueType,
      reasoning: `Route info: ${f.kind} fact "${f.key}" of ${page.title}${f.by === 'model' ? ' (read by the model)' : ''}`,
    });
    route.push({ page, stop });
  }
  const candidates = roadblockCandidates(route, random);
  if (!candidates.length) return dropped('no route page offers the inputs of any roadblock template');
  return kept({ pages: route.map((r) => r.stop), candidates });
}
