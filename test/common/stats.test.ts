import { approximateMde, boundedMean, meanOf, proportion, tQuantile, tQuantile975 } from '../../common/stats.js';

describe('report statistics', () => {
  test('Wilson interval of a proportion', () => {
    const e = proportion(5, 10);
    expect(e.mean).toBe(0.5);
    expect(e.lo).toBeCloseTo(0.2366, 3);
    expect(e.hi).toBeCloseTo(0.7634, 3);
    const zero = proportion(0, 20);
    expect(zero.lo).toBe(0);
    expect(zero.hi).toBeCloseTo(0.1611, 3);
    expect(proportion(0, 0)).toEqual({ n: 0, mean: null, lo: null, hi: null });
  });
  test("bounded mean with a clipped Student's t interval (t not z at small n)", () => {
    const e = boundedMean([1, 1, 1, 0.5]);
    expect(e.mean).toBeCloseTo(0.875);
    expect(e.hi).toBe(1);
    // sd 0.25 on 4 values: t(0.975, 3) = 3.182446 (scipy), not z = 1.96.
    expect(e.lo).toBeCloseTo(0.875 - 3.1824463052837078 * (0.25 / 2), 9);
    expect(boundedMean([0.4])).toEqual({ n: 1, mean: 0.4, lo: 0, hi: 1 });
  });
  test('values all alike are no evidence of no spread: two legs at 100% are not [100, 100] (issue 35)', () => {
    const two = boundedMean([1, 1]);
    expect(two.mean).toBe(1);
    expect(two.hi).toBe(1);
    expect(two.lo).toBeCloseTo(proportion(2, 2).lo!, 10);
    expect(two.lo).toBeLessThan(0.5);
    const zeros = boundedMean([0, 0, 0]);
    expect(zeros.mean).toBe(0);
    expect(zeros.lo).toBeCloseTo(0, 12);
    expect(zeros.hi).toBeGreaterThan(0.4);
    const halves = boundedMean([0.5, 0.5]);
    expect(halves.lo).toBeLessThan(0.5);
    expect(halves.hi).toBeGreaterThan(0.5);
  });
  test('mean of the defined values', () => {
    expect(meanOf([1, null, 3, undefined])).toBe(2);
    expect(meanOf([null])).toBeNull();
  });
  test("Student's t quantiles are exact: scipy.stats.t.ppf to 1e-12 (the Cornish-Fisher series was off by 2.8e-3 at df 5)", () => {
    // scipy 1.17.1: t.ppf(p, df).
    const scipy: [number, number, number][] = [
      [0.975, 1, 12.706204736174694], [0.975, 2, 4.302652729749462], [0.975, 3, 3.1824463052837078], [0.975, 4, 2.7764451051977934],
      [0.975, 5, 2.5705818356363146], [0.975, 6, 2.4469118511449786], [0.975, 9, 2.262157162798205], [0.975, 29, 2.045229642132703],
      [0.975, 99, 1.9842169515864174], [0.975, 1399, 1.961661118241461], [0.8, 5, 0.9195437802408271], [0.8, 39, 0.8509350199201249],
      [0.995, 10, 3.16927267261695], [0.6, 3, 0.2766706623326898],
    ];
    for (const [p, df, expected] of scipy) if (p === 0.975) expect(Math.abs(tQuantile975(df) - expected)).toBeLessThan(1e-12 * expected);
    for (const [p, df, expected] of scipy) expect(Math.abs(tQuantile(p, df) - expected)).toBeLessThan(1e-12 * expected);
  });
  test('the approximate MDE of per-leg means uses t quantiles and the sign-flip statistic\'s inflated spread', () => {
    const mde = approximateMde(20, 0.5)!;
    const [t1, t2] = [tQuantile(0.975, 19), tQuantile(0.8, 19)];
    expect(Math.sqrt(20) * mde / 0.5 - t1 * Math.sqrt(1 + (mde / 0.5) ** 2) - t2).toBeCloseTo(0, 6);
    expect(approximateMde(1, 0.5)).toBeNull();
    expect(approximateMde(20, 0)).toBeNull();
  });
});
