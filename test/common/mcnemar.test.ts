import { mcnemarExact, mcnemarMde, mcnemarPower, mcnemarRejectionLimits } from '../../common/mcnemar.js';
import { seededRandom } from '../../common/random.js';
import { plannedMde } from '../../common/stats.js';
import { comparePaired } from '../../verifier/compare/paired-test.js';

/** Power by brute force: every assignment of n legs to (only A right, only B right, alike), through mcnemarExact. */
function bruteForcePower(n: number, onlyA: number, onlyB: number): number {
  let power = 0;
  const walk = (leg: number, a: number, b: number, p: number): void => {
    if (leg === n) {
      if (mcnemarExact(a, b) < 0.05) power += p;
      return;
    }
    walk(leg + 1, a + 1, b, p * onlyA);
    walk(leg + 1, a, b + 1, p * onlyB);
    walk(leg + 1, a, b, p * (1 - onlyA - onlyB));
  };
  walk(0, 0, 0, 1);
  return power;
}

describe("exact power of compare's McNemar test", () => {
  test('the rejection limits are where mcnemarExact itself crosses 0.05', () => {
    const limits = mcnemarRejectionLimits(40, 0.05);
    for (let d = 0; d <= 40; d++) {
      for (let c = 0; 2 * c <= d; c++) expect(mcnemarExact(c, d - c) < 0.05).toBe(c <= limits[d]);
    }
    expect([limits[5], limits[6], limits[10]]).toEqual([-1, 0, 1]);
  });

  test.each([[8, 0.1, 0.4], [10, 0.05, 0.3], [11, 0.2, 0.2], [12, 0.3, 0.05]])('n = %d, only A %d, only B %d: equal to brute-force enumeration', (n, a, b) => {
    expect(mcnemarPower(n, a, b)).toBeCloseTo(bruteForcePower(n, a, b), 12);
  });

  test("the planned MDE reaches 80% power exactly, and a 2,000-experiment simulation through compare's comparePaired agrees", () => {
    const mde = plannedMde(60, 1)!;
    expect(mde.independentApproximate).toBe(false);
    const d = mde.attemptsIdentical!;
    expect(mcnemarPower(60, (0.5 - d / 2) ** 2, (0.5 + d / 2) ** 2)).toBeCloseTo(0.8, 4);
    expect(mcnemarMde(60, { planned: true })).toBe(d);
    const random = seededRandom(38);
    const a = new Array<number>(60);
    const b = new Array<number>(60);
    let rejected = 0;
    for (let r = 0; r < 2000; r++) {
      for (let i = 0; i < 60; i++) {
        a[i] = random() < 0.5 - d / 2 ? 1 : 0;
        b[i] = random() < 0.5 + d / 2 ? 1 : 0;
      }
      if (comparePaired(a, b).p! < 0.05) rejected++;
    }
    // 2,000 draws: 80% +- 2.7 points (3 standard errors); bench:compare-sim runs 10,000.
    expect(Math.abs(rejected / 2000 - 0.8)).toBeLessThan(0.027);
  });

  test('no power where the test cannot reject: 5 legs (p >= 0.0625), or no discordance measured', () => {
    expect(mcnemarMde(5, { planned: true })).toBeNull();
    expect(mcnemarMde(40, { discordance: 0 })).toBeNull();
    expect(plannedMde(1)).toBeNull();
  });
});
