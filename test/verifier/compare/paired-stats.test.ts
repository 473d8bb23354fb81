import fc from 'fast-check';
import { mcnemarExact, pairedBootstrap } from '../../../verifier/compare/paired-stats.js';

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
