import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeSyntheticJob } from '../../../bench/synthetic-trials.js';
import { filterLegs } from '../../../tasks/aar/filter.js';
import { loadLegs, type LoadedLeg } from '../../../tasks/aar/load.js';
import type { TrialScore } from '../../../tasks/aar/scoring/score.js';
import { listTrialDirs } from '../../../trial/folder.js';
import { checkBudgets, UnequalBudgetsError } from '../../../verifier/compare/budgets.js';
import { compareConfigurations } from '../../../verifier/compare/compare.js';
import { mcnemarExact } from '../../../verifier/compare/paired-stats.js';
import { loadConfigurations } from '../../../verifier/compare/select.js';
import { AAR_DATA_DIR, describeWithData, tempDir } from '../../helpers/data.js';

const JOB = { name: 'cmp', timeout_s: 600, budget: { steps: 'auto' }, tools: { mode: 'live', output_limit: 8000 } };

describeWithData('aar compare on real job folders (synthetic agents on real legs)', () => {
  const tmp = tempDir('aar-compare-test-');
  let legs: LoadedLeg[];
  let both: string;
  beforeAll(async () => {
    legs = filterLegs((await loadLegs(AAR_DATA_DIR)).legs, { sample: { n: 80, seed: 3 } });
    both = path.join(tmp.dir, 'both');
    writeSyntheticJob(both, legs, 1, { withScores: true, agent: 'alpha', job: JOB, spend: 1 });
    writeSyntheticJob(both, legs, 2, { withScores: true, agent: 'beta', job: JOB, spend: 3 });
  });
  afterAll(() => tmp.cleanup());

  const score = (dir: string): TrialScore => JSON.parse(readFileSync(path.join(dir, 'score.json'), 'utf8')) as TrialScore;

  test('two agents of one job: equal budgets, paired FA on every leg, figures recomputed from the score files', () => {
    const configs = loadConfigurations([both]);
    expect(configs.map((c) => c.label)).toEqual(['alpha', 'beta']);
    const result = compareConfigurations(configs, { seed: 1 });
    expect(result.budgets).toMatchObject({ equal: true, differences: [] });
    expect(result.pairing).toMatchObject({ sharedLegs: 80, pairs: [{ a: 'alpha', b: 'beta', sharedLegs: 80, notInBoth: 0, lostToInfra: { alpha: 0, beta: 0 } }] });

    const byLeg = (agent: string) => new Map(listTrialDirs(both).filter((d) => path.basename(d).startsWith(`${agent}__`)).map((d) => [path.basename(d).slice(agent.length), score(d).fa]));
    const a = byLeg('alpha');
    const b = byLeg('beta');
    const onlyA = [...a].filter(([k, v]) => v === 1 && b.get(k) === 0).length;
    const onlyB = [...a].filter(([k, v]) => v === 0 && b.get(k) === 1).length;
    const fa = result.paired.find((p) => p.metric === 'fa' && p.variant === '*' && p.level === '*')!;
    expect(fa).toMatchObject({ a: 'alpha', b: 'beta', n: 80, discordant_a: onlyA, discordant_b: onlyB });
    expect(fa.a_mean).toBeCloseTo([...a.values()].filter((v) => v === 1).length / 80, 12);
    expect(fa.diff).toBeCloseTo(fa.b_mean! - fa.a_mean!, 12);
    expect(fa.p_value).toBe(mcnemarExact(onlyA, onlyB));
    expect(fa).toMatchObject({ role: 'primary', test: 'McNemar exact', interval: 'Newcombe', reducer: 'mean', attempts: '1', p_holm: fa.p_value });
    expect(fa.lo!).toBeLessThanOrEqual(fa.diff!);
    expect(fa.hi!).toBeGreaterThanOrEqual(fa.diff!);
    // Every metric on every slice: all, each variant, each level, each variant x level.
    const slices = new Set(result.paired.map((p) => `${p.variant}/${p.level}`));
    expect(slices).toContain('aar-dag/*');
    expect(slices).toContain('*/extreme');
    expect(slices).toContain('aar-linear/easy');
    expect(new Set(result.paired.map((p) => p.metric))).toEqual(new Set(['fa', 'pvr', 'rcr']));
    // Same seed, same figures.
    expect(compareConfigurations(configs, { seed: 1 }).paired).toEqual(result.paired);
  });

  test('cost and effort per leg and per attempt, and the frontier: three times the spend is dominated only where the FA difference is significant', () => {
    const result = compareConfigurations(loadConfigurations([both]));
    const [alpha, beta] = result.effort;
    expect(beta.cost_usd_per_attempt! / alpha.cost_usd_per_attempt!).toBeGreaterThan(2.5);
    // One attempt per leg: a leg costs what its attempt did.
    expect(beta.cost_usd_per_leg).toBeCloseTo(beta.cost_usd_per_attempt!, 12);
    expect([alpha.legs, alpha.trials]).toEqual([80, 80]);
    const fa = result.paired[0];
    const front = Object.fromEntries(result.frontier.map((f) => [f.label, f]));
    expect(front.alpha.axis).toBe('cost_usd');
    // Dominance needs alpha's FA significantly higher; ahead in estimate only is listed apart.
    expect(front.beta.dominated_by).toEqual(fa.diff! < 0 && fa.p_value! < 0.05 ? ['alpha'] : []);
    expect(front.beta.not_significantly_beaten_by).toEqual(fa.b_mean! <= fa.a_mean! && !(fa.p_value! < 0.05) ? ['alpha'] : []);
    expect(front.alpha.dominated_by).toEqual([]);
  });

  test('a job with a different timeout is refused, naming the key; --allow-unequal marks every table', () => {
    const other = path.join(tmp.dir, 'timeout300');
    writeSyntheticJob(other, legs, 2, { withScores: true, agent: 'beta', job: { ...JOB, timeout_s: 300 } });
    const configs = loadConfigurations([`${both}:alpha`, `${other}:beta`]);
    expect(configs.map((c) => c.label)).toEqual(['both:alpha', 'timeout300:beta']);
    expect(() => compareConfigurations(configs)).toThrow(UnequalBudgetsError);
    expect(() => compareConfigurations(configs)).toThrow(/timeout_s: both:alpha = 600; timeout300:beta = 300/);
    const forced = compareConfigurations(configs, { allowUnequal: true });
    expect(forced.unequal).toBe(true);
    for (const table of forced.tables) expect(table.notes[0]).toMatch(/^UNEQUAL BUDGETS \(--allow-unequal\): timeout_s differ/);
  });

  test('legs of the same id with other content, other caps, another store: each listed', () => {
    const edited = path.join(tmp.dir, 'edited');
    const changed = legs.map((l, i) => (i === 0 ? { ...l, source: Buffer.from(l.source.toString().replace('"passcode"', '"extra": 1, "passcode"')) } : l));
    writeSyntheticJob(edited, changed, 2, { agent: 'beta', job: { ...JOB, budget: { steps: 'auto', max_cost_usd: 2 }, tools: { ...JOB.tools, mode: 'replay', store: 'world' } } });
    const check = checkBudgets(loadConfigurations([`${both}:alpha`, `${edited}:beta`]));
    expect(check.equal).toBe(false);
    expect(check.differences.map((d) => d.key)).toEqual(['budget.max_cost_usd', 'tools.mode', 'tools world (store content, or live and its dates)', 'legs (sha256 of leg.json)']);
    expect(check.differences.find((d) => d.key.startsWith('tools world'))!.values['edited:beta']).toBe(`replay, store ${path.join(edited, 'world')} (missing: content unknown)`);
  });

  test('a leg lost to infrastructure errors leaves the pairing and is counted per configuration', () => {
    const job = path.join(tmp.dir, 'infra');
    writeSyntheticJob(job, legs.slice(0, 20), 1, { withScores: true, agent: 'alpha', job: JOB });
    writeSyntheticJob(job, legs.slice(0, 21), 2, { withScores: true, agent: 'beta', job: JOB });
    const victim = listTrialDirs(job).find((d) => path.basename(d).startsWith('beta__'))!;
    const record = JSON.parse(readFileSync(path.join(victim, 'trial.json'), 'utf8'));
    writeFileSync(path.join(victim, 'trial.json'), JSON.stringify({ ...record, status: 'infra_error', error: 'the container died' }));
    const result = compareConfigurations(loadConfigurations([job]), { allowUnequal: true });
    expect(result.pairing).toMatchObject({ sharedLegs: 19, pairs: [{ sharedLegs: 19, notInBoth: 1, lostToInfra: { alpha: 0, beta: 1 } }] });
    expect(result.paired[0].n).toBe(19);
    expect(result.configurations.map((c) => [c.label, c.legs_run, c.legs_lost_to_infra])).toEqual([['alpha', 20, 0], ['beta', 21, 1]]);
    expect(result.tables.find((t) => t.id === 'paired')!.notes.join(' ')).toContain('left out: 1 run by only one, 0 lost to infrastructure errors by alpha, 1 lost to infrastructure errors by beta');
  });

  test('a job without job.json cannot have its budgets checked: refused, even against another such job', () => {
    const bare = path.join(tmp.dir, 'bare');
    writeSyntheticJob(bare, legs.slice(0, 5), 1, { agent: 'alpha' });
    writeSyntheticJob(bare, legs.slice(0, 5), 2, { agent: 'beta' });
    const check = checkBudgets(loadConfigurations([bare]));
    expect(check.differences).toEqual([{ key: 'job.json (the recorded budgets)', values: { alpha: 'missing: budgets unknown', beta: 'missing: budgets unknown' } }]);
    expect(() => compareConfigurations(loadConfigurations([bare]))).toThrow(/job.json \(the recorded budgets\): alpha = missing/);
  });

  test('selections: JOB:AGENT picks one configuration; an unknown agent or folder is a one-line error', () => {
    expect(loadConfigurations([`${both}:beta`]).map((c) => c.agent)).toEqual(['beta']);
    expect(() => loadConfigurations([`${both}:gamma`])).toThrow(`${both}:gamma: no agent 'gamma' in ${both}; its agents: alpha, beta`);
    expect(() => loadConfigurations([path.join(tmp.dir, 'nope')])).toThrow(/nope: not a job folder/);
  });
});
