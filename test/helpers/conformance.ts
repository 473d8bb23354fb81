/**
 * A seam's conformance suite (library code, common/conformance.ts) as Jest tests: one `describe` per entry,
 * one test per check, skipped with its reason when the suite cannot run here. Tests call it for every entry
 * of a registry, so a new entry is tested without editing a test.
 */
import { DEFAULT_CHECK_TIMEOUT_MS, type ConformanceSuite } from '../../common/conformance.js';

export function describeConformance(suite: ConformanceSuite | (() => ConformanceSuite)): void {
  const made = typeof suite === 'function' ? suite() : suite;
  describe(`${made.seam} conformance: ${made.entry}`, () => {
    let skip: string | undefined;
    beforeAll(async () => {
      skip = await made.unavailable?.();
      if (skip) console.warn(`${made.seam} ${made.entry}: conformance skipped: ${skip}`);
      else await made.before?.();
    }, 600_000);
    afterAll(async () => {
      if (!skip) await made.after?.();
    }, 300_000);
    for (const check of made.checks) {
      test(check.name, async () => {
        if (skip) return;
        await check.run();
      }, check.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS);
    }
  });
}
