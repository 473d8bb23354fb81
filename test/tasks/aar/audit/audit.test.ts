import { readFileSync } from 'node:fs';
import path from 'node:path';
import { auditLegs, formatAudit } from '../../../../tasks/aar/audit/audit.js';
import { auditLeg } from '../../../../tasks/aar/audit/invariants.js';
import { titleLeaks } from '../../../../tasks/aar/audit/title-leaks.js';
import { loadLegs } from '../../../../tasks/aar/load.js';
import type { Leg } from '../../../../tasks/aar/schema.js';
import { ToolService } from '../../../../tools/service.js';
import { ResponseStore } from '../../../../tools/store/store.js';
import { synthesizeWorld } from '../../../../tasks/aar/world/synthesize.js';
import { AAR_DATA_DIR, describeWithData, EXAMPLES_DIR, REPO_ROOT, tempDir } from '../../../helpers/data.js';

const FILE = path.join(EXAMPLES_DIR, 'examples-dag', 'medium', 'sample_002.json');
const original = JSON.parse(readFileSync(FILE, 'utf8')) as Leg;
const store = () => new ToolService({ mode: 'replay', store: new ResponseStore(path.join(REPO_ROOT, 'tools', 'stores', 'examples')) });
const changed = (edit: (leg: Leg) => void): Leg => {
  const leg = structuredClone(original);
  edit(leg);
  return leg;
};
const audit = (leg: Leg, tools?: ToolService) => auditLeg({ id: 'x', file: 'x.json', leg }, tools);

describe('aar tasks audit: the six invariants of section 4.2', () => {
  test('an example leg passes all six against its store, and leaves two unchecked without one', async () => {
    const withStore = await audit(original, store());
    expect(Object.values(withStore.invariants).map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
    const bare = await audit(original);
    expect(bare.invariants.api_stability).toEqual({ status: 'unchecked', problems: [], notes: ['chains not dry-run: no store given'] });
    expect(bare.invariants.reproducibility.status).toBe('unchecked');
  });

  test('each invariant fails on the leg that breaks it, saying where', async () => {
    const solv = await audit(changed((l) => { l.passcode = (l.passcode + 1) % 10; }));
    expect(solv.invariants.solvability.problems[0]).toMatch(/^\$\.passcode: passcode is \d, but the last compute stop/);

    const api = await audit(changed((l) => { l.stops[2]!.bridge.tool_chain[0]!.tool_name = 'countries_gdp'; }));
    expect(api.invariants.api_stability.problems).toEqual(['stop 2 step 0: countries_gdp is no AAR tool']);
    const unheld = await audit(changed((l) => { l.stops[2]!.extracted_value = 42; }), store());
    expect(unheld.invariants.api_stability.problems).toEqual(["stop 2: the chain's last answer does not hold 42"]);

    const repro = await audit(changed((l) => { l.stops[1]!.page_url = 'https://en.wikipedia.org/wiki/Caspian_Sea'; }), store());
    expect(repro.invariants.reproducibility.problems[0]).toMatch(/^no snapshot of https:\/\/en\.wikipedia\.org\/wiki\/Caspian_Sea: Error: no recorded response/);

    const dirty = await audit(changed((l) => { l.stops[2]!.bridge.tool_chain[0]!.arguments.country = 'Romania[[b]](#cite_note-4)'; }));
    expect(dirty.invariants.input_cleanliness.problems).toEqual(['stop 2 step 0 country: wiki, Markdown or HTML markup']);

    const lost = await audit(changed((l) => { l.stops[3]!.bridge.tool_chain[0]!.arguments.query = 'museums near 34.050'; }));
    expect(lost.invariants.geocodability.problems).toEqual(['"34.050" does not look like a place an API can find']);

    const told = await audit(changed((l) => { l.riddle = `${l.riddle}\nHint: start at the Danube and use countries_population.`; }));
    expect(told.invariants.clue_integrity.problems).toEqual(['the riddle names the seed\'s title "Danube"', 'the riddle names the tool countries_population']);
  });

  test('title leaks by the authors\' rule: a trailing parenthetical dropped, six characters at least, any case', () => {
    const leg = { seed_title: 'Plurale (album)', stops: [{ index: 3, page_url: 'https://en.wikipedia.org/wiki/Spokane,_Washington' }, { index: 4, page_url: 'https://en.wikipedia.org/wiki/Iowa' }] } as unknown as Leg;
    expect(titleLeaks(leg, 'Go from PLURALE to spokane, washington, then Iowa.')).toEqual([
      { stop: null, title: 'Plurale (album)', matched: 'Plurale', multiWord: false, wholeWords: true },
      { stop: 3, title: 'Spokane, Washington', matched: 'Spokane, Washington', multiWord: true, wholeWords: true },
    ]);
    expect(titleLeaks(leg, 'Pluralessence')).toEqual([{ stop: null, title: 'Plurale (album)', matched: 'Plurale', multiWord: false, wholeWords: false }]);
  });
});

describeWithData('aar tasks audit on the released legs', () => {
  test('the title-leak figures as measured on all 1,400; a sample of 60 audited whole', async () => {
    const { legs } = await loadLegs(AAR_DATA_DIR);
    expect(legs).toHaveLength(1400);
    const leaks = legs.map((l) => titleLeaks(l.leg, l.leg.riddle));
    expect(leaks.filter((x) => x.length).length).toBe(281);
    expect(leaks.filter((x) => x.some((l) => l.multiWord && l.wholeWords)).length).toBe(191);
    expect(leaks.reduce((n, x) => n + x.length, 0)).toBe(483);
    const sample = legs.filter((_, i) => i % 24 === 0);
    const report = await auditLegs(sample);
    expect(report.invariants.solvability).toEqual({ pass: sample.length, fail: 0, unchecked: 0 });
    expect(report.invariants.clue_integrity.fail).toBe(sample.filter((l) => titleLeaks(l.leg, l.leg.riddle).length).length);
    expect(formatAudit(report)).toContain(`audited ${sample.length} legs (no store`);
  });

  test('chains dry-run on a synthesized world give every golden value as the golden executor reads it (a leg\'s own entries first)', async () => {
    const { legs } = await loadLegs(AAR_DATA_DIR);
    const { dir, cleanup } = tempDir('aar-audit-world-');
    try {
      await synthesizeWorld(legs, new ResponseStore(dir));
      // Before: read as "a number within 1% written in the shared answer", these failed (a value in a leg's own
      // entry, a pretty-printed object, two answers one per line) or passed by chance ("#1" holds 1).
      const ids = ['aar-dag/extreme/sample_131', 'aar-dag/extreme/sample_209', 'aar-dag/medium/sample_226', 'aar-linear/easy/sample_158', 'aar-linear/hard/sample_118', 'aar-linear/hard/sample_209', 'aar-linear/extreme/sample_220'];
      const picked = legs.filter((l) => ids.includes(l.id));
      expect(picked).toHaveLength(ids.length);
      const tools = new ToolService({ mode: 'replay', store: new ResponseStore(dir) });
      const report = await auditLegs(picked, tools, dir);
      expect(report.invariants.api_stability).toEqual({ pass: ids.length, fail: 0, unchecked: 0 });
    } finally {
      cleanup();
    }
  });
});
