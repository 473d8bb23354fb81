import { z } from 'zod';
import { mixSeeds, seededRandom } from '../../../../common/random.js';
import type { PageInfo } from '../draft.js';
import { dropped, kept, type StepResult } from '../draft.js';
import type { ExtractionKind } from '../levels.js';
import { askChecked, jsonIn, type ModelClient } from '../model/client.js';
import { dataBlock } from '../model/prompts.js';
import type { Crawl } from './crawl.js';
import { infoboxFacts, sectionFacts } from './facts.js';

/**
 * Step 2, plan: a route of pages through the crawl, each with the fact its route-info stop extracts (an
 * infobox field, a section's list, or `prose` for the model to pick a fact from the text), and a theme.
 * The rule planner walks links from the seed, preferring pages other legs have not used; a model planner
 * gets the same candidates and its plan is checked against the crawl before it is taken.
 */

export interface PlanView {
  seed: string;
  pages: { title: string; description: string; facts: { key: string; kind: ExtractionKind }[]; links: string[] }[];
  /** Route-info stops wanted. */
  count: number;
  /** Titles other legs used already (avoided when another page will do). */
  used: string[];
  /** A number the rule planner draws its choices from. */
  draw: number;
}

export interface Plan {
  theme: string;
  route: { url: string; key: string }[];
}

const MAX_VIEW_PAGES = 30;

/** The candidates a planner sees: every crawled page with a fact of an allowed kind. */
export function planView(crawl: Crawl, count: number, kinds: readonly ExtractionKind[], used: ReadonlySet<string>, draw: number): PlanView {
  const pages = [...crawl.pages.values()].map((p) => ({
    title: p.title,
    description: p.description,
    facts: [
      ...infoboxFacts(p).map((f) => ({ key: f.key, kind: 'infobox' as const })),
      ...(kinds.includes('cross_section') ? sectionFacts(p).map((f) => ({ key: f.key, kind: 'cross_section' as const })) : []),
      ...(kinds.includes('prose') && p.sections.some((s) => /\d/.test(s.text)) ? [{ key: 'prose', kind: 'prose' as const }] : []),
    ],
    links: p.links.map((l) => crawl.pages.get(l.url)?.title).filter((t): t is string => t !== undefined),
  }));
  // A prompt holds at most MAX_VIEW_PAGES candidates: the nearest to the seed (the crawl is breadth first).
  const offered = pages.filter((p) => p.facts.length || p.title === crawl.seed.title).slice(0, MAX_VIEW_PAGES);
  const titles = new Set(offered.map((p) => p.title));
  return { seed: crawl.seed.title, pages: offered.map((p) => ({ ...p, links: p.links.filter((t) => titles.has(t)) })), count, used: [...used].filter((t) => titles.has(t)), draw };
}

/** The rule planner: a walk along links from the seed (any unused page when no link goes on), one fact each. */
export function ruleRoute(view: PlanView): { theme: string; route: { title: string; fact: string }[] } {
  const random = seededRandom(mixSeeds(view.draw, view.count));
  const byTitle = new Map(view.pages.map((p) => [p.title, p]));
  const used = new Set(view.used);
  const route: string[] = [view.seed];
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
  while (route.length < view.count) {
    const open = (titles: string[]) => titles.filter((t) => !route.includes(t) && byTitle.get(t)?.facts.length);
    const linked = open(byTitle.get(route.at(-1)!)?.links ?? []);
    const fresh = linked.filter((t) => !used.has(t));
    const anywhere = open(view.pages.map((p) => p.title));
    const choices = fresh.length ? fresh : linked.length ? linked : anywhere;
    if (!choices.length) break;
    route.push(pick(choices));
  }
  const facts = route.map((title) => {
    const p = byTitle.get(title)!;
    const kinds = [...new Set(p.facts.map((f) => f.kind))];
    const kind = pick(kinds.length ? kinds : ['infobox']);
    return { title, fact: pick(p.facts.filter((f) => f.kind === kind)).key };
  });
  return { theme: `From ${view.seed} by way of ${route.length - 1} linked pages`, route: facts };
}

const ModelPlan = z.object({ theme: z.string().min(1), route: z.array(z.object({ title: z.string(), fact: z.string() })).min(1) });

/** A plan written by anyone (rule or model) checked against the crawl; a reason when it does not hold. */
export function checkPlan(view: PlanView, crawl: Crawl, raw: unknown): StepResult<Plan> {
  const parsed = ModelPlan.safeParse(raw);
  if (!parsed.success) return dropped(`the plan is not {theme, route: [{title, fact}]}: ${parsed.error.issues[0]?.message}`);
  const { theme, route } = parsed.data;
  if (route.length !== view.count) return dropped(`the plan has ${route.length} route stops, not ${view.count}`);
  if (route[0]!.title !== view.seed) return dropped(`the plan does not start at the seed "${view.seed}"`);
  const byTitle = new Map([...crawl.pages.values()].map((p): [string, PageInfo] => [p.title, p]));
  const seen = new Set<string>();
  const out: Plan['route'] = [];
  for (const { title, fact } of route) {
    const page = byTitle.get(title);
    if (!page) return dropped(`the plan names "${title}", a page the crawl did not reach`);
    if (seen.has(title)) return dropped(`the plan visits "${title}" twice`);
    seen.add(title);
    if (!view.pages.find((p) => p.title === title)?.facts.some((f) => f.key === fact)) return dropped(`the plan asks "${title}" for "${fact}", a fact it does not offer`);
    out.push({ url: page.url, key: fact });
  }
  return kept({ theme, route: out });
}

export const PLAN_SYSTEM = [
  'You plan a scavenger-hunt trail through Wikipedia pages.',
  'Choose route pages in order: the first is the seed; each next page should be linked from the one before it when possible, and the route should follow one theme.',
  'For each page choose one of the facts it offers (by its key, exactly as listed).',
  'Answer with JSON only: {"theme": "<one sentence>", "route": [{"title": "<page title>", "fact": "<fact key>"}, ...]} with exactly the number of route pages asked for.',
].join(' ');

export async function plan(crawl: Crawl, view: PlanView, model: ModelClient | undefined): Promise<StepResult<Plan>> {
  if (!model?.steps.has('plan')) return checkPlan(view, crawl, ruleRoute(view));
  const user = `Plan a route of exactly ${view.count} pages starting at "${view.seed}". Avoid these pages when others will do: ${view.used.join('; ') || '(none)'}.\n\n${dataBlock('plan', view)}`;
  return askChecked(model, 'plan', { system: PLAN_SYSTEM, user, what: 'plan' }, (reply) => checkPlan(view, crawl, jsonIn(reply)));
}
