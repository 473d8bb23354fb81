import fc from 'fast-check';
import { holmAdjust, mcnemarExact, newcombePaired, pairedBootstrap, pairedTInterval, signFlipTest } from '../../../verifier/compare/paired-stats.js';

/** Newcombe's method 10 on Altman et al. (2000)'s worked example (14 / 5 / 0 / 22): published as [0.011, 0.226] for a - b. */
const NEWCOMBE_ALTMAN: [number, number] = [-0.226, -0.011];

/** P(X <= k) for X ~ Bin(n, 1/2), by exact integer counting (BigInt binomial coefficients). */
function binomialTail(n: number, k: number): number {
  let c = 1n;
  let sum = 0n;
  for (let i = 0; i <= k; i++) {
    sum += c;
    c = (c * BigInt(n - i)) / BigInt(i + 1);
  }
  return Number(sum) / 2 ** n;
}

describe('exact McNemar test', () => {
  test.each([
    [10, 0, 2 / 1024],
    [1, 4, (2 * 6) / 32],
    [3, 3, 1],
    [0, 0, 1],
  ])('b=%p c=%p -> p=%p', (b, c, p) => {
    expect(mcnemarExact(b, c)).toBeCloseTo(p, 12);
  });

  test('equals twice the exact binomial tail of the smaller discordant count, symmetric in b and c', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 }), (b, c) => {
        const expected = b + c === 0 ? 1 : Math.min(1, 2 * binomialTail(b + c, Math.min(b, c)));
        expect(mcnemarExact(b, c)).toBeCloseTo(expected, 10);
        expect(mcnemarExact(c, b)).toBe(mcnemarExact(b, c));
      }),
      { numRuns: 200 },
    );
  });
});

describe('seeded paired bootstrap', () => {
  test('same seed, same interval; the interval holds the observed difference', () => {
    const a = Array.from({ length: 80 }, (_, i) => (i % 3 === 0 ? 1 : 0));
    const b = Array.from({ length: 80 }, (_, i) => (i % 2 === 0 ? 1 : 0));
    const first = pairedBootstrap(a, b, { seed: 5 });
    expect(pairedBootstrap(a, b, { seed: 5 })).toEqual(first);
    expect(first.diff).toBeCloseTo(40 / 80 - 27 / 80, 12);
    expect(first.lo!).toBeLessThanOrEqual(first.diff!);
    expect(first.hi!).toBeGreaterThanOrEqual(first.diff!);
    expect(first.hi! - first.lo!).toBeGreaterThan(0);
    expect(pairedBootstrap(a, b, { seed: 6 })).not.toEqual(first);
  });

  test('identical samples differ by exactly 0, with a zero-width interval; a constant shift is the difference', () => {
    const a = [0.1, 0.5, 0.9, 0.3];
    expect(pairedBootstrap(a, a)).toMatchObject({ n: 4, diff: 0, lo: 0, hi: 0 });
    const shifted = pairedBootstrap(a, a.map((x) => x + 0.25));
    expect(shifted.lo).toBeCloseTo(0.25, 12);
    expect(shifted.hi).toBeCloseTo(0.25, 12);
  });

  test('pairing matters: a shared per-leg effect does not widen the interval', () => {
    const legEffect = Array.from({ length: 200 }, (_, i) => (i * 7919) % 100 / 100);
    const a = legEffect;
    const b = legEffect.map((x, i) => x + (i % 2 ? 0.02 : 0));
    const r = pairedBootstrap(a, b, { seed: 1 });
    expect(r.hi! - r.lo!).toBeLessThan(0.01);
  });

  test('no pairs: nothing defined; unpaired input is refused', () => {
    expect(pairedBootstrap([], [])).toEqual({ n: 0, meanA: null, meanB: null, diff: null, lo: null, hi: null });
    expect(() => pairedBootstrap([1], [])).toThrow(/paired/);
  });
});

describe('paired sign-flip test', () => {
  /** p by enumerating all 2^m sign vectors (small m only). */
  function bruteForce(d: number[]): number {
    const nz = d.filter((x) => x !== 0);
    const observed = Math.abs(nz.reduce((s, x) => s + x, 0));
    let extreme = 0;
    for (let mask = 0; mask < 2 ** nz.length; mask++) {
      const s = nz.reduce((acc, x, i) => acc + (mask & (1 << i) ? x : -x), 0);
      if (Math.abs(s) >= observed - 1e-9) extreme++;
    }
    return extreme / 2 ** nz.length;
  }

  test('on 0/1 legs it is the exact McNemar test (4 discordant legs one way: p = 0.125)', () => {
    expect(signFlipTest([-1, -1, -1, -1, 0, 0, 0])).toEqual({ p: 0.125, method: 'exact' });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), (b, c) => {
        const d = [...Array(b).fill(-1), ...Array(c).fill(1), 0, 0];
        expect(signFlipTest(d).p).toBeCloseTo(mcnemarExact(b, c), 10);
      }),
      { numRuns: 100 },
    );
  });

  test('on per-leg means of 3 attempts it is exact: equal to enumerating every sign vector', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 14 }), (thirds) => {
        const d = thirds.map((x) => x / 3);
        const r = signFlipTest(d);
        expect(r.method).toBe('exact');
        expect(r.p).toBeCloseTo(bruteForce(d), 10);
      }),
      { numRuns: 150 },
    );
  });

  test('continuous differences: seeded Monte Carlo close to the enumeration, the same for the same seed', () => {
    const d = [0.13, -0.021, 0.37, 0.2, 0.011, 0.29, -0.05, 0.41, 0.07, 0.33, 0.19, -0.12];
    const r = signFlipTest(d, { seed: 3, resamples: 20000 });
    expect(r.method).toBe('monte carlo');
    expect(Math.abs(r.p - bruteForce(d))).toBeLessThan(0.005);
    expect(signFlipTest(d, { seed: 3, resamples: 20000 })).toEqual(r);
  });

  test('no difference at all: p = 1', () => {
    expect(signFlipTest([0, 0, 0]).p).toBe(1);
  });
});

describe("Newcombe's interval for paired proportions", () => {
  const legs = (both: number, onlyA: number, onlyB: number, neither: number): [number[], number[]] => {
    const a = [...Array(both).fill(1), ...Array(onlyA).fill(1), ...Array(onlyB).fill(0), ...Array(neither).fill(0)];
    const b = [...Array(both).fill(1), ...Array(onlyA).fill(0), ...Array(onlyB).fill(1), ...Array(neither).fill(0)];
    return [a, b];
  };

  test('all 14 legs one way: +100 [69.6, 100], not the zero-width [100, 100]', () => {
    const r = newcombePaired(...legs(0, 0, 14, 0));
    expect(r.diff).toBe(1);
    expect(r.lo!).toBeCloseTo(0.6955, 3);
    expect(r.hi).toBe(1);
  });

  test("Altman et al. (2000)'s worked example (14 both, 5 only a, 0 only b, 22 neither): the published interval", () => {
    const r = newcombePaired(...legs(14, 5, 0, 22));
    expect(r.diff).toBeCloseTo(-5 / 41, 12);
    expect(r.lo!).toBeCloseTo(NEWCOMBE_ALTMAN[0], 3);
    expect(r.hi!).toBeCloseTo(NEWCOMBE_ALTMAN[1], 3);
  });

  test('holds the difference; identical legs give an interval around 0 of positive width', () => {
    fc.assert(
      fc.property(fc.nat(30), fc.nat(30), fc.nat(30), fc.nat(30), (w, x, y, z) => {
        fc.pre(w + x + y + z > 0);
        const r = newcombePaired(...legs(w, x, y, z));
        expect(r.lo!).toBeLessThanOrEqual(r.diff! + 1e-12);
        expect(r.hi!).toBeGreaterThanOrEqual(r.diff! - 1e-12);
        expect(r.hi! - r.lo!).toBeGreaterThan(0);
      }),
    );
  });
});

describe('Holm adjustment and the t interval', () => {
  test('Holm: step-down, monotone, capped at 1, nulls kept', () => {
    expect(holmAdjust([0.01, null, 0.04, 0.03])).toEqual([0.03, null, 0.06, 0.06]);
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]);
  });

  test("t interval: Student's quantile (df 9: 2.262) on the per-leg differences", () => {
    const a = Array(10).fill(0);
    const b = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
    const r = pairedTInterval(a, b);
    const sd = Math.sqrt(b.reduce((s, x) => s + (x - 0.55) ** 2, 0) / 9);
    expect(r.lo!).toBeCloseTo(0.55 - 2.2622 * (sd / Math.sqrt(10)), 3);
    expect(r.hi!).toBeCloseTo(0.55 + 2.2622 * (sd / Math.sqrt(10)), 3);
  });
});
