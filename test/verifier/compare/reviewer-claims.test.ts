import path from 'node:path';
import { mcnemarPower } from '../../../common/mcnemar.js';
import { filterLegs } from '../../../tasks/aar/filter.js';
import { loadLegs, type LoadedLeg } from '../../../tasks/aar/load.js';
import { UnequalBudgetsError } from '../../../verifier/compare/budgets.js';
import { compareConfigurations, type CompareResult, type PairedRow } from '../../../verifier/compare/compare.js';
import { loadConfigurations } from '../../../verifier/compare/select.js';
import { paperTables } from '../../../verifier/paper-tables/index.js';
import { writeCraftedJob } from '../../helpers/crafted-jobs.js';
import { AAR_DATA_DIR, describeWithData, tempDir } from '../../helpers/data.js';

const primary = (rows: PairedRow[], a: string, b: string): PairedRow => rows.find((p) => p.role === 'primary' && p.a === a && p.b === b)!;
const frontierOf = (r: CompareResult) => Object.fromEntries(r.frontier.map((f) => [f.label, f]));

describeWithData('claims a reviewer would accept (issue 38: crafted jobs on real legs)', () => {
  const tmp = tempDir('aar-compare-claims-');
  let all: LoadedLeg[];
  beforeAll(async () => {
    all = (await loadLegs(AAR_DATA_DIR)).legs;
  });
  afterAll(() => tmp.cleanup());

  test('1. the frontier tests and shows on the same legs: no "alpha 100.0 [83.9, 100.0] dominated by beta" at 25.0', () => {
    const legs = filterLegs(all, { sample: { n: 60, seed: 11 } });
    const job = path.join(tmp.dir, 'frontier-legs');
    // Legs 0-19: every configuration has a value; alpha right on all, beta on 5. Legs 20-59: gamma lost them
    // to infrastructure errors; there alpha is wrong and beta right, so on the pair's own 60 legs beta wins.
    writeCraftedJob(job, legs, 'alpha', 1, (i) => ({ fa: i < 20 ? 1 : 0, cost: 0.02 }));
    writeCraftedJob(job, legs, 'beta', 1, (i) => ({ fa: i < 20 ? (i < 5 ? 1 : 0) : 1, cost: 0.01 }));
    writeCraftedJob(job, legs, 'gamma', 1, (i) => (i < 20 ? { fa: i % 2 ? 1 : 0, cost: 0.03 } : 'infra'));
    const result = compareConfigurations(loadConfigurations([job]));
    const front = frontierOf(result);
    // Before: alpha dominated by beta (their 60-leg test) while the table showed alpha at 100% and beta at 25%.
    expect([front.alpha.success, front.beta.success, front.alpha.dominated_by]).toEqual([1, 0.25, []]);
    expect(front.alpha.success_lo!).toBeCloseTo(0.8389, 3);
    expect(front.alpha.legs).toBe(20);
    // Every dominance claim agrees with the successes shown beside it.
    for (const f of result.frontier) for (const by of f.dominated_by) expect(front[by].success!).toBeGreaterThan(f.success!);
    // The pair's own row stays on its 60 legs, and says beta is ahead there; the frontier's test is on the 20.
    expect(primary(result.paired, 'alpha', 'beta')).toMatchObject({ n: 60, discordant_a: 15, discordant_b: 40 });
    const t = result.frontierTests.find((x) => x.a === 'alpha' && x.b === 'beta')!;
    expect(t).toMatchObject({ legs: 20, a_success: 1, b_success: 0.25, same_legs_as_primary: false });
    expect(result.tables.find((x) => x.id === 'frontier')!.notes.join(' ')).toContain('every dominance test are on the same 20 legs, those every configuration has a value for');
  });

  describe('2. spend per leg, and attempts a budget when the reducer reads them all', () => {
    const make = (): string => {
      const legs = filterLegs(all, { sample: { n: 40, seed: 12 } });
      const job = path.join(tmp.dir, 'spend-per-leg');
      // alpha: 3 attempts at $0.40, right on attempt 1 of legs 0-9 and attempt 2 of legs 10-29 (pass@3: 30 of 40);
      // beta: 1 attempt at $0.50, right on legs 0-11.
      writeCraftedJob(job, legs, 'alpha', 3, (i, k) => ({ fa: (i < 10 && k === 1) || (i >= 10 && i < 30 && k === 2) ? 1 : 0, cost: 0.4 }));
      writeCraftedJob(job, legs, 'beta', 1, (i) => ({ fa: i < 12 ? 1 : 0, cost: 0.5 }));
      return job;
    };
    test('pass@k: 3 attempts against 1 are refused as unequal budgets (was: equal)', () => {
      const configs = loadConfigurations([make()]);
      expect(() => compareConfigurations(configs, { reducer: 'pass@k' })).toThrow(UnequalBudgetsError);
      expect(() => compareConfigurations(configs, { reducer: 'pass@k' })).toThrow(/attempts per leg \(pass@k reads every attempt\): alpha = 3; 40 shared legs differ, e\.g\. .*: 3; beta = 1; 40 shared legs differ/);
      // The mean reducer estimates one attempt's success however many ran: not a budget there.
      expect(compareConfigurations(configs).budgets.equal).toBe(true);
    });
    test('pass@k: $0.40 x 3 attempts spends $1.20 a leg, more than $0.50: it no longer dominates (was: dominated beta at $0.40 a trial)', () => {
      const result = compareConfigurations(loadConfigurations([make()]), { reducer: 'pass@k', allowUnequal: true });
      const front = frontierOf(result);
      expect(front.beta.dominated_by).toEqual([]);
      expect(front.alpha).toMatchObject({ axis: 'cost_usd', spend_per: 'leg', success: 0.75 });
      expect(front.alpha.spend).toBeCloseTo(1.2, 12);
      expect(front.beta.spend).toBeCloseTo(0.5, 12);
      expect(result.effort.map((e) => [e.label, e.legs, e.trials])).toEqual([['alpha', 40, 120], ['beta', 40, 40]]);
      // The mean reducer: one attempt's success, one attempt's spend.
      const mean = frontierOf(compareConfigurations(loadConfigurations([make()])));
      expect(mean.alpha).toMatchObject({ spend_per: 'attempt' });
      expect(mean.alpha.spend).toBeCloseTo(0.4, 12);
    });
  });

  test('3. three configurations: the primary tests and the frontier are Holm-adjusted (raw p = 0.031 no longer dominates)', () => {
    const legs = filterLegs(all, { sample: { n: 60, seed: 13 } });
    const job = path.join(tmp.dir, 'holm-primary');
    // beta is right on 6 legs more than alpha and gamma (which are alike): McNemar 0 vs 6 gives p = 2/64 twice.
    writeCraftedJob(job, legs, 'alpha', 1, (i) => ({ fa: i < 30 ? 1 : 0, cost: 0.02 }));
    writeCraftedJob(job, legs, 'beta', 1, (i) => ({ fa: i < 36 ? 1 : 0, cost: 0.01 }));
    writeCraftedJob(job, legs, 'gamma', 1, (i) => ({ fa: i < 30 ? 1 : 0, cost: 0.02 }));
    const result = compareConfigurations(loadConfigurations([job]));
    const front = frontierOf(result);
    expect([front.alpha.dominated_by, front.gamma.dominated_by]).toEqual([[], []]);
    const ab = primary(result.paired, 'alpha', 'beta');
    expect(ab.p_value).toBeCloseTo(2 / 64, 12);
    // Holm over 3: 3 x 0.03125 = 0.094 for the smaller, max(0.094, 2 x 0.03125) for the next.
    expect(ab.p_holm).toBeCloseTo(3 * (2 / 64), 12);
    expect(primary(result.paired, 'beta', 'gamma').p_holm).toBeCloseTo(3 * (2 / 64), 12);
    expect(primary(result.paired, 'alpha', 'gamma').p_holm).toBe(1);
    expect(front.alpha.not_significantly_beaten_by).toEqual(['beta']);
    expect(result.tables.find((t) => t.id === 'paired')!.notes.join(' ')).toContain('Primary: fa over each pair\'s shared legs, one row per pair (3 for 3 configurations)');
  });

  test('3. a slice of the same legs is counted once in the Holm family (aar-linear = easy = aar-linear/easy)', () => {
    const easy = filterLegs(all, { variants: ['aar-linear'], levels: ['easy'] }).slice(0, 15);
    const hard = filterLegs(all, { variants: ['aar-dag'], levels: ['hard'] }).slice(0, 15);
    const job = path.join(tmp.dir, 'holm-slices');
    writeCraftedJob(job, [...easy, ...hard], 'alpha', 1, (i) => ({ fa: i % 3 === 0 ? 1 : 0 }));
    writeCraftedJob(job, [...easy, ...hard], 'beta', 1, (i) => ({ fa: i < 15 ? 1 : i % 3 === 0 ? 1 : 0 }));
    const result = compareConfigurations(loadConfigurations([job]));
    const fa = (variant: string, level: string) => result.paired.find((p) => p.metric === 'fa' && p.variant === variant && p.level === level)!;
    const same = [fa('aar-linear', '*'), fa('*', 'easy'), fa('aar-linear', 'easy')];
    expect(same.map((r) => r.n)).toEqual([15, 15, 15]);
    const secondary = result.paired.filter((p) => p.role === 'secondary');
    // 20 secondary rows (fa on 6 slices, pvr and rcr on 7) but 8 distinct tests: fa on 2 leg sets, pvr and rcr on 3 each.
    expect(secondary.length).toBe(20);
    const smallest = Math.min(...secondary.map((p) => p.p_value!));
    expect(smallest).toBe(same[0].p_value);
    for (const r of same) expect(r.p_holm).toBeCloseTo(Math.min(1, 8 * smallest), 12);
  });

  test('4. mde_80 is the exact McNemar power at the measured discordance, not the normal approximation', () => {
    const legs = filterLegs(all, { sample: { n: 100, seed: 14 } });
    const job = path.join(tmp.dir, 'power');
    writeCraftedJob(job, legs, 'alpha', 1, (i) => ({ fa: i < 50 ? 1 : 0 }));
    writeCraftedJob(job, legs, 'beta', 1, (i) => ({ fa: i >= 10 && i < 65 ? 1 : 0 }));
    writeCraftedJob(job, legs.slice(0, 20), 'gamma', 1, (i) => ({ fa: i < 5 || (i >= 10 && i < 19) ? 1 : 0 }));
    const result = compareConfigurations(loadConfigurations([job]), { allowUnequal: true });
    const row = primary(result.paired, 'alpha', 'beta');
    const mde = row.mde_80!;
    expect(mde).toBeCloseTo(0.1442, 4);
    expect(row).toMatchObject({ n: 100, discordant_a: 10, discordant_b: 15, test: 'McNemar exact', mde_80_method: 'exact' });
    const psi = 25 / 100;
    // 80% power reached at mde_80 and not just below it, through the same exact test.
    expect(mcnemarPower(100, (psi - mde) / 2, (psi + mde) / 2)).toBeGreaterThanOrEqual(0.8);
    expect(mcnemarPower(100, (psi - mde + 1e-3) / 2, (psi + mde - 1e-3) / 2)).toBeLessThan(0.8);
    // Before: the normal approximation, (z_0.975 + z_0.8) x sd / sqrt(n) = 0.1401, where the exact test has 77.2% power.
    expect(mcnemarPower(100, (psi - 0.1401) / 2, (psi + 0.1401) / 2)).toBeCloseTo(0.772, 3);
    // 20 legs, 1 vs 5 discordant: before 32.8 pp (58% power); no difference up to the 30% measured discordance reaches 80%.
    const small = primary(result.paired, 'beta', 'gamma');
    expect(small).toMatchObject({ n: 20, discordant_a: 1, discordant_b: 5, mde_80: null, mde_80_method: 'exact' });
  });

  test('5. interval and test disagreeing are flagged on the row (Newcombe [7.9, 73.3] excludes 0, exact McNemar p = 0.0625)', () => {
    const legs = filterLegs(all, { sample: { n: 10, seed: 15 } });
    const job = path.join(tmp.dir, 'disagree');
    writeCraftedJob(job, legs, 'alpha', 1, (i) => ({ fa: i >= 5 && i % 2 ? 1 : 0 }));
    writeCraftedJob(job, legs, 'beta', 1, (i) => ({ fa: i < 5 || i % 2 ? 1 : 0 }));
    const result = compareConfigurations(loadConfigurations([job]));
    const row = primary(result.paired, 'alpha', 'beta');
    expect(row).toMatchObject({ n: 10, discordant_a: 0, discordant_b: 5, p_value: 0.0625, interval_vs_test: 'interval excludes 0, p >= 0.05' });
    expect(row.lo!).toBeGreaterThan(0);
    const flagged = result.paired.filter((p) => p.interval_vs_test).length;
    expect(result.tables.find((t) => t.id === 'paired')!.notes.join(' ')).toContain(`the test decides significance (${flagged} rows here)`);
  });

  test('6. --paper honours --reduce (Table 11 = the frontier under pass@k); Table 9 counts legs, not trials', () => {
    const legs = filterLegs(all, { sample: { n: 24, seed: 16 } });
    const job = path.join(tmp.dir, 'paper-reduce');
    // Right on one attempt of three on legs 0-20: mean 29.2%, pass@3 87.5%.
    writeCraftedJob(job, legs, 'alpha', 3, (i, k) => ({ fa: i < 21 && k === (i % 3) + 1 ? 1 : 0, pvr: 0.9, rcr: 0.9 }));
    writeCraftedJob(job, legs, 'beta', 3, (i, k) => ({ fa: i < 13 && k === 1 ? 1 : 0, pvr: 0.9, rcr: 0.9 }));
    const configs = loadConfigurations([job]);
    const result = compareConfigurations(configs, { reducer: 'pass@k' });
    const front = frontierOf(result);
    expect(front.alpha.success).toBe(0.875);
    const tables = paperTables(configs, { budgets: result.budgets, legs: result.pairing.sharedLegIds, reducer: 'pass@k' });
    const t11 = tables.find((t) => t.id === 'table11')!;
    expect(t11.rows.find((r) => r.config === 'alpha' && r.variant === '*' && r.metric === 'FA')!.overall).toBe(0.875);
    expect(t11.notes.join(' ')).toContain('FA per leg by pass@k (--reduce)');
    // A view that cannot reduce says so rather than disagreeing silently.
    expect(tables.find((t) => t.id === 'table3')!.notes.join(' ')).toContain('--reduce pass@k is not applied in this view');
    const t9 = tables.find((t) => t.id === 'table9')!.rows.find((r) => r.config === 'alpha' && r.variant === '*')!;
    expect(t9).toMatchObject({ legs: 24, trials: 72, legs_pvr_high: 24, trials_pvr_high: 72, legs_both_high: 24, trials_both_high: 72 });
  });
});
