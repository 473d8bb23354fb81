import { loadLegs, type LoadedLeg } from '../../../../tasks/aar/load.js';
import { filterLegs } from '../../../../tasks/aar/filter.js';
import { auditLegs, notHolding, type AuditReport } from '../../../../tasks/aar/world/audit.js';
import { evaluateExpression, parseExpression, recomputeLeg } from '../../../../tasks/aar/world/recompute.js';
import { synthesizeWorld } from '../../../../tasks/aar/world/synthesize.js';
import { applyDrift, collectFacts } from '../../../../tasks/aar/world/upstream/facts.js';
import { StandInUpstream } from '../../../../tasks/aar/world/upstream/server.js';
import { createProviderContext } from '../../../../tools/providers/registry.js';
import { ToolService } from '../../../../tools/service.js';
import { callIdentity } from '../../../../tools/store/canonical.js';
import { ResponseStore } from '../../../../tools/store/store.js';
import { AAR_DATA_DIR, describeWithData, tempDir } from '../../../helpers/data.js';

const tmp = tempDir('aar-audit-');
afterAll(() => tmp.cleanup());

let legs: LoadedLeg[];
beforeAll(async () => {
  legs = (await loadLegs([AAR_DATA_DIR])).legs;
}, 120_000);

const statusOf = (report: AuditReport) => Object.fromEntries(report.legs.map((l) => [l.id, [l.status, l.passcode, l.passcodeNow]]));
const replay = (dir: string) => {
  const service = new ToolService({ mode: 'replay', store: new ResponseStore(dir), outputLimit: 1e8 });
  return (tool: string, args: Record<string, unknown>, leg: string) => service.call(tool, args, undefined, leg);
};

describeWithData('the world audit', () => {
  test("every compute stop's expression, evaluated as the generator wrote it, gives its value (the recomputation's templates)", () => {
    let checked = 0;
    for (const { id, leg } of legs) {
      for (const stop of leg.stops) {
        if (stop.stop_type !== 'compute') continue;
        const parsed = parseExpression(stop.bridge.expression!);
        expect([id, parsed && evaluateExpression(parsed.kind, parsed.terms)]).toEqual([id, stop.extracted_value]);
        checked++;
      }
      // nothing changed: every stop keeps its golden value
      expect(recomputeLeg(leg, new Map()).changed.size).toBe(0);
    }
    expect(checked).toBe(1400);
  });

  test('against a store synthesized for the legs, every leg holds', async () => {
    const sample = filterLegs(legs, { sample: { n: 120, seed: 7 } });
    const dir = `${tmp.dir}/golden`;
    await synthesizeWorld(sample, new ResponseStore(dir));
    const report = await auditLegs(sample, replay(dir));
    expect(report.byStatus).toEqual({ held: 120, 'value-drifted': 0, 'passcode-changed': 0, 'call-failed': 0 });
    expect(report.calls).toBeGreaterThan(300);
  }, 120_000);

  test('a store lacking an answer: the legs needing it failed a call; an entry edited: the legs it moves are named', async () => {
    const pair = legs.filter((l) => ['aar-dag/easy/sample_090', 'aar-linear/easy/sample_090', 'aar-dag/easy/sample_003'].includes(l.id));
    const dir = `${tmp.dir}/edited`;
    await synthesizeWorld(pair, new ResponseStore(dir));
    const store = new ResponseStore(dir);
    // Both sample_090 legs ask this route; 3085 minutes become 3087 (whole minutes = int(seconds / 60)).
    const route = callIdentity('maps_directions', { origin: 'Roughly bounded by Rock Creek Park', destination: 'Congress of Guatemala', mode: 'driving' });
    const entry = store.get(route)!;
    store.put(route, { ok: true, text: entry.text.replace('"value": 185100', `"value": ${3087 * 60}`) }, 'synthetic');
    const report = await auditLegs(pair, replay(dir));
    expect(statusOf(report)).toEqual({
      // digital_root(5 + 374 + 371 + 3085) = 1; with 3087: 3
      'aar-dag/easy/sample_090': ['passcode-changed', 1, 3],
      // (5 + 3085) % 10 = 0; with 3087: 2
      'aar-linear/easy/sample_090': ['passcode-changed', 0, 2],
      'aar-dag/easy/sample_003': ['held', 4, 4],
    });
    expect(notHolding(report)).toEqual(['aar-dag/easy/sample_090', 'aar-linear/easy/sample_090']);
    const missing = await auditLegs(pair, replay(`${tmp.dir}/nothing-here`));
    expect(missing.byStatus['call-failed']).toBe(3);
    expect(missing.legs[0].stops[0].reason).toMatch(/no recorded response/);
  }, 120_000);

  test('against the stand-in upstream with 3 values drifted, exactly the legs whose passcode they change are named', async () => {
    // The legs that read the three facts drifted below, and one that reads none of them.
    const ids = ['aar-dag/medium/sample_053', 'aar-linear/medium/sample_053', 'aar-dag/extreme/sample_215', 'aar-linear/extreme/sample_215', 'aar-linear/easy/sample_214', 'aar-dag/easy/sample_003', 'aar-dag/easy/sample_090', 'aar-linear/easy/sample_090', 'aar-dag/easy/sample_004'];
    const chosen = legs.filter((l) => ids.includes(l.id));
    const facts = await collectFacts(chosen);
    const drifted = applyDrift(facts, [
      { stop: 'aar-linear/easy/sample_214#2', value: 5650335 }, // Finland's population: 5,650,325 -> 5,650,335
      { stop: 'aar-dag/easy/sample_003#4', value: 1672.2 }, // an elevation: 1672.906616210938 -> 1672.2 (its whole metres stay)
      { stop: 'aar-dag/easy/sample_090#7', value: 3087 }, // a route: 3085 -> 3087 minutes
    ]);
    expect(drifted).toEqual(['population finland', 'elevation 8.921000,-147.114000', 'directions roughly bounded by rock creek park | congress of guatemala | driving']);
    const standIn = await new StandInUpstream(facts).start();
    try {
      const service = new ToolService({ mode: 'live', outputLimit: 1e8, providers: createProviderContext({ endpoints: standIn.endpoints, keys: { google: 'k', serper: 'k', codeModel: 'k' } }) });
      const report = await auditLegs(chosen, (tool, args, leg) => service.call(tool, args, undefined, leg));
      expect(statusOf(report)).toEqual({
        // abs(174 - 13) % 10 = 1, 13 being binary_1bit_count(5650325); binary_1bit_count(5650335) = 15: abs(174 - 15) % 10 = 9
        'aar-dag/medium/sample_053': ['passcode-changed', 1, 9],
        // abs(11 - 5650325) % 10 = 4 = abs(11 - 5650335) % 10: the modular arithmetic absorbs it
        'aar-linear/medium/sample_053': ['value-drifted', 4, 4],
        // the population feeds next_prime only: next_prime(5650325) = next_prime(5650335) = 5650361
        'aar-dag/extreme/sample_215': ['value-drifted', 6, 6],
        'aar-linear/extreme/sample_215': ['value-drifted', 1, 1],
        // digital_root(4 + 5650325) = 3; digital_root(4 + 5650335) = 4
        'aar-linear/easy/sample_214': ['passcode-changed', 3, 4],
        // int(1672.2) = int(1672.906616210938): the merge and the passcode hold
        'aar-dag/easy/sample_003': ['value-drifted', 4, 4],
        'aar-dag/easy/sample_090': ['passcode-changed', 1, 3],
        'aar-linear/easy/sample_090': ['passcode-changed', 0, 2],
        'aar-dag/easy/sample_004': ['held', 8, 8],
      });
      expect(notHolding(report)).toEqual(['aar-dag/easy/sample_090', 'aar-dag/medium/sample_053', 'aar-linear/easy/sample_090', 'aar-linear/easy/sample_214']);
      const leg053 = report.legs.find((l) => l.id === 'aar-dag/medium/sample_053')!;
      expect(leg053.recomputed).toEqual([{ stop: 4, golden: 13, now: 15 }, { stop: 13, golden: 1, now: 9 }]);
      expect(report.byTool.countries_population).toEqual({ chains: 5, held: 0, drifted: 5, failed: 0 });
    } finally {
      await standIn.stop();
    }
  }, 120_000);
});
