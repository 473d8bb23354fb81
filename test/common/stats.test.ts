import { boundedMean, meanOf, proportion } from '../../common/stats.js';

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
  test('bounded mean with a clipped normal interval', () => {
    const e = boundedMean([1, 1, 1, 0.5]);
    expect(e.mean).toBeCloseTo(0.875);
    expect(e.hi).toBe(1);
    expect(e.lo).toBeCloseTo(0.875 - 1.96 * Math.sqrt(0.0625 / 4), 2);
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
});
