import type { DataTable } from '../../common/table.js';
import type { BudgetCheck } from './budgets.js';
import type { EffortRow, FrontierRow } from './effort.js';
import type { Reducer } from '../../common/reducers.js';

/** What a comparison returns, and its options: the types compare.ts fills and compare-tables.ts renders. */

export interface CompareOptions {
  /** Compare although budgets differ; every table then carries a note saying so. */
  allowUnequal?: boolean;
  /** Seed of the bootstrap and Monte Carlo tests (default 0): the same seed gives the same figures. */
  seed?: number;
  /** Bootstrap resamples and Monte Carlo sign flips (default 2000). */
  resamples?: number;
  /** How a leg's attempts become its one value for binary metrics (default `mean`). */
  reducer?: Reducer;
}

/** Infrastructure-error rates (legs lost) further apart than this are warned about: the legs lost may not be lost at random. */
export const INFRA_RATE_WARNING = 0.03;
/** The significance level of the tests, the frontier's dominance and the power figure. */
export const ALPHA = 0.05;

/** One metric's paired difference between two configurations on one slice of their shared legs. */
export interface PairedRow {
  a: string;
  b: string;
  metric: string;
  /** The coarse and fine slice, `*` = all; the output names them by the family's sliceKeys (namedSlices). */
  variant: string;
  level: string;
  /** `primary` (the success rate over all the pair's shared legs, one row per pair) or `secondary` (slices, other metrics); each role is one Holm family. */
  role: 'primary' | 'secondary';
  /** Legs (the unit) where the metric is defined for both. */
  n: number;
  /** How each leg's attempts were reduced to one value, and how many attempts legs had. */
  reducer: string;
  attempts: string;
  a_mean: number | null;
  b_mean: number | null;
  /** b - a. */
  diff: number | null;
  lo: number | null;
  hi: number | null;
  interval: string | null;
  test: string | null;
  p_value: number | null;
  /**
   * p_value Holm-adjusted within its role's family: the primary rows (k(k-1)/2 for k configurations), or
   * every secondary row, where rows of the same pair and metric on the same legs count once.
   */
  p_holm: number | null;
  /** Set where the 95% interval and the test disagree (the interval excludes 0 while p >= 0.05, or the reverse): the test decides. */
  interval_vs_test: string | null;
  /** Legs where a's value is above b's / below it (the discordant legs for 0/1 values). */
  discordant_a: number;
  discordant_b: number;
  small_n: 'yes' | null;
  /** Primary rows: the smallest true difference the row's test detects with 80% power (alpha 0.05) on these legs, what else is true as measured. */
  mde_80: number | null;
  /** `exact` (exact McNemar: power by enumeration at the measured discordance) or `approximate (t)` (sign-flip test on per-leg means, t quantiles). */
  mde_80_method: 'exact' | 'approximate (t)' | null;
}

export interface ConfigurationSummary {
  label: string;
  jobDir: string;
  agent: string;
  model: string | null;
  trials: number;
  legs_run: number;
  legs_lost_to_infra: number;
  infra_rate: number | null;
  attempts_lost_to_infra: number;
  attempts_per_leg: string;
}

export interface PairSummary {
  a: string;
  b: string;
  sharedLegs: number;
  notInBoth: number;
  lostToInfra: Record<string, number>;
}

export interface CompareResult {
  family: string;
  unequal: boolean;
  budgets: BudgetCheck;
  reducer: Reducer;
  configurations: ConfigurationSummary[];
  /** Set when the configurations lost legs to infrastructure errors at rates more than INFRA_RATE_WARNING apart. */
  infraWarning: string | null;
  /** Legs every configuration has a value for (effort, frontier and --paper tables), and each pair's own legs (paired rows). */
  pairing: { sharedLegs: number; sharedLegIds: string[]; pairs: PairSummary[] };
  paired: PairedRow[];
  effort: EffortRow[];
  frontier: FrontierRow[];
  /** The frontier's dominance tests: every pair on the legs every configuration has a value for, Holm-adjusted as one family. */
  frontierTests: FrontierTest[];
  tables: DataTable[];
}

/** One pair's primary metric on the frontier's legs (those every configuration has a value for), the test its dominance reads. */
export interface FrontierTest {
  a: string;
  b: string;
  legs: number;
  a_success: number | null;
  b_success: number | null;
  /** b - a. */
  diff: number | null;
  test: string | null;
  p_value: number | null;
  /** Holm-adjusted over the k(k-1)/2 frontier tests. */
  p_holm: number | null;
  /** The pair's own shared legs are these legs: the test is its primary row's. */
  same_legs_as_primary: boolean;
}
