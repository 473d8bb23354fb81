import type { DataTable } from '../../common/table.js';
import type { BudgetCheck } from './budgets.js';
import type { EffortRow, FrontierRow } from './effort.js';
import type { Reducer } from './pairing.js';

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
/** The significance level of the frontier's dominance and of the power figure. */
export const ALPHA = 0.05;

/** One metric's paired difference between two configurations on one slice of their shared legs. */
export interface PairedRow {
  a: string;
  b: string;
  metric: string;
  /** The coarse and fine slice, `*` = all; the output names them by the family's sliceKeys (namedSlices). */
  variant: string;
  level: string;
  /** `primary` (the success rate over all the pair's shared legs, reported as is) or `secondary` (Holm-adjusted as a family). */
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
  /** p_value Holm-adjusted over every secondary row (null on primary rows). */
  p_holm: number | null;
  /** Legs where a's value is above b's / below it (the discordant legs for 0/1 values). */
  discordant_a: number;
  discordant_b: number;
  small_n: 'yes' | null;
  /** Primary rows: the smallest true difference the test detects with 80% power on these legs (per-leg spread as measured). */
  mde_80: number | null;
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
  tables: DataTable[];
}
