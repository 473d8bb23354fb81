/**
 * A seam's conformance suite as library code: checks that every entry of the seam must pass, built-in or a
 * plugin's. Jest runs each suite for every registered entry (test/helpers/conformance.ts); `aar plugins check`
 * runs the same suites on a plugin's entries (harness/plugins/check.ts). A check throws (node:assert) when
 * the entry fails it.
 */

export interface ConformanceCheck {
  name: string;
  run(): void | Promise<void>;
  /** Longer than the default (e.g. a sandbox started): the runner's limit for this check. */
  timeoutMs?: number;
}

export interface ConformanceSuite {
  /** The seam (`task family`, `agent`, ...). */
  seam: string;
  /** The entry's name. */
  entry: string;
  checks: ConformanceCheck[];
  /** Set up what the checks share (a gateway, a sandbox provider); its failure fails every check. */
  before?(): Promise<void>;
  after?(): Promise<void>;
  /** Why the suite cannot run here (no Docker engine...): then it is skipped, saying so. */
  unavailable?(): Promise<string | undefined>;
}

export interface CheckOutcome {
  check: string;
  /** `skipped` when the suite could not run here. */
  status: 'passed' | 'failed' | 'skipped';
  /** The failure, or why it was skipped. */
  detail?: string;
  ms: number;
}

export const DEFAULT_CHECK_TIMEOUT_MS = 60_000;

async function within<T>(ms: number, what: string, work: () => T | Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(work),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n').filter(Boolean).slice(0, 6).join(' | ');

/** Runs a suite's checks one after the other outside any test framework. */
export async function runSuite(suite: ConformanceSuite): Promise<CheckOutcome[]> {
  const why = await suite.unavailable?.();
  if (why) return suite.checks.map((c) => ({ check: c.name, status: 'skipped', detail: why, ms: 0 }));
  const outcomes: CheckOutcome[] = [];
  try {
    await within(DEFAULT_CHECK_TIMEOUT_MS * 3, 'setting up the suite', () => suite.before?.());
  } catch (error) {
    return suite.checks.map((c) => ({ check: c.name, status: 'failed', detail: `set-up failed: ${firstLine(error)}`, ms: 0 }));
  }
  try {
    for (const check of suite.checks) {
      const started = Date.now();
      try {
        await within(check.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS, check.name, () => check.run());
        outcomes.push({ check: check.name, status: 'passed', ms: Date.now() - started });
      } catch (error) {
        outcomes.push({ check: check.name, status: 'failed', detail: firstLine(error), ms: Date.now() - started });
      }
    }
  } finally {
    await suite.after?.();
  }
  return outcomes;
}

/** JSON with each object's keys sorted: two values with the same content give the same text. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));

/**
 * Throws unless the two values are the same JSON (object keys in any order). Node's deepStrictEqual also
 * compares prototypes, and under a test runner's sandbox an array Node made (readdirSync) has another
 * Array.prototype than one made here.
 */
export function sameJson(actual: unknown, expected: unknown, message?: string): void {
  const a = canonical(actual);
  const e = canonical(expected);
  if (a !== e) throw new Error(`${message ? `${message}: ` : ''}got ${a}, expected ${e}`);
}
