import { checkPlan, planView, ruleRoute } from '../../../../../tasks/aar/generate/steps/plan.js';
import { checkProseAnswer, proseView, ruleProse } from '../../../../../tasks/aar/generate/steps/extract.js';
import { exampleCrawl, exampleTools } from '../helpers.js';
import type { Crawl } from '../../../../../tasks/aar/generate/steps/crawl.js';

let crawl: Crawl;
let cleanup: () => void;
beforeAll(async () => {
  const t = exampleTools();
  cleanup = t.cleanup;
  crawl = await exampleCrawl(t.tools, 'Port Alder');
});
afterAll(() => cleanup());

describe('step 2, plan', () => {
  test('the rule planner walks links from the seed, one offered fact per page, the same for the same draw', () => {
    const view = planView(crawl, 4, ['infobox', 'cross_section'], new Set(), 42);
    const route = ruleRoute(view);
    expect(route).toEqual(ruleRoute(view));
    expect(route.route).toHaveLength(4);
    expect(route.route[0]!.title).toBe('Port Alder');
    for (const [i, stop] of route.route.entries()) {
      const page = view.pages.find((p) => p.title === stop.title)!;
      expect(page.facts.map((f) => f.key)).toContain(stop.fact);
      if (i > 0) expect(view.pages.find((p) => p.title === route.route[i - 1]!.title)!.links).toContain(stop.title);
    }
    expect(checkPlan(view, crawl, route).ok).toBe(true);
    // Pages other legs used are avoided while others will do.
    const used = new Set(route.route.slice(1).map((r) => r.title));
    const fresh = ruleRoute(planView(crawl, 4, ['infobox'], used, 42));
    expect(fresh.route.slice(1).some((r) => used.has(r.title))).toBe(false);
  });

  test('a plan is refused when it is not the JSON asked for, the wrong length, not from the seed, or names what the crawl has not', () => {
    const view = planView(crawl, 2, ['infobox'], new Set(), 1);
    const reason = (raw: unknown): string => {
      const r = checkPlan(view, crawl, raw);
      return r.ok ? 'kept' : r.reason;
    };
    expect(reason('Here is a plan: go to the bridge.')).toMatch(/^the plan is not \{theme, route/);
    expect(reason({ theme: 't', route: [{ title: 'Port Alder', fact: 'Population' }] })).toBe('the plan has 1 route stops, not 2');
    expect(reason({ theme: 't', route: [{ title: 'Alder Bridge', fact: 'Length' }, { title: 'Port Alder', fact: 'Population' }] })).toBe('the plan does not start at the seed "Port Alder"');
    expect(reason({ theme: 't', route: [{ title: 'Port Alder', fact: 'Population' }, { title: 'Mount Everest', fact: 'Elevation' }] })).toBe('the plan names "Mount Everest", a page the crawl did not reach');
    expect(reason({ theme: 't', route: [{ title: 'Port Alder', fact: 'Population' }, { title: 'Port Alder', fact: 'Area' }] })).toBe('the plan visits "Port Alder" twice');
    expect(reason({ theme: 't', route: [{ title: 'Port Alder', fact: 'Population' }, { title: 'Alder Bridge', fact: 'Colour' }] })).toBe('the plan asks "Alder Bridge" for "Colour", a fact it does not offer');
    expect(reason({ theme: 't', route: [{ title: 'Port Alder', fact: 'Population' }, { title: 'Alder Bridge', fact: 'Length' }] })).toBe('kept');
  });
});

describe('step 3, prose extraction', () => {
  test('an answer is taken only when its number is written on the page and its description gives nothing away', () => {
    const page = crawl.pages.get('https://en.wikipedia.org/wiki/Alder_Bridge')!;
    const view = proseView(page);
    expect(view.sentences.map((s) => s.text)).toEqual(['Construction took 1400 days.', 'The bridge carries 4 lanes of traffic.']);
    const reason = (raw: unknown): string => {
      const r = checkProseAnswer(page, view, raw);
      return r.ok ? `kept ${r.value.extracted} (${r.value.target})` : r.reason;
    };
    expect(reason('1400')).toBe('the extraction answer is not {value, what}');
    expect(reason({ value: '1500', what: 'days of construction' })).toBe('the extracted value "1500" is not written in the page\'s text');
    expect(reason({ value: 'lanes', what: 'what the bridge carries' })).toBe('the extracted value "lanes" is not a number');
    expect(reason({ value: '1400', what: 'the 1400 days of construction' })).toBe('the description gives the value away or is too long');
    expect(reason({ value: '4', what: 'lanes of traffic on the Alder Bridge' })).toBe('the description names the page');
    expect(reason({ value: '1400', what: 'how many days construction took' })).toBe('kept 1400 (how many days construction took)');
  });

  test('the scripted model\'s rule: a two-digit number of a sentence without a full date', () => {
    expect(ruleProse({ sentences: [{ section: 'H', text: 'The company listed its shares on 1 March 1994.' }, { section: 'H', text: 'The town hall was completed in 1889.' }] })).toEqual({ value: '1889', what: 'the year the town hall was completed', section: 'H' });
    expect(ruleProse({ sentences: [{ section: 'H', text: 'The harbour has 14 piers.' }] })).toEqual({ value: '14', what: 'the number in: the harbour has ___ piers', section: 'H' });
    expect(ruleProse({ sentences: [{ section: 'H', text: 'It has 4 lanes.' }] })).toBeUndefined();
  });
});
