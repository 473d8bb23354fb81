import type { Command } from 'commander';
import type { z } from 'zod';
import type { Reducer } from '../common/reducers.js';
import type { DataTable } from '../common/table.js';
import type { TrialToolSession } from '../tools/session.js';
import type { TrialRecord } from '../trial/record.js';
import type { RunFacts } from '../trial/run-facts.js';
import type { InputProblem } from './problems.js';

/** The family of job configs without `tasks.family`, and of trial records written before families existed. */
export const DEFAULT_FAMILY = 'aar';

/** One task as the harness sees it; each family's tasks carry more. */
export interface FamilyTask {
  /** Unique within a task set; `/` separates its parts (a trial id spells them with `__`). */
  readonly id: string;
  /** The file it was loaded from. */
  readonly file: string;
  /** The file's exact bytes: the trial folder keeps them as they are, and scoring reads them back. Bytes,
   * not a string: a JavaScript string of a file with one non-Latin-1 character takes twice its size. */
  readonly source: Buffer;
}

/**
 * The two fields of trial.json's `leg` that reports and compare slice by, coarse then fine, named by the
 * family (AAR: variant, level; WikiRace keeps the same names for its task set and split). They are also
 * the names of the report's and compare's slice columns.
 */
export type SliceKeys = readonly [coarse: string, fine: string];

/** What trial.json says about the task: its id and file, and a value for each of the family's slice keys, in the order written. */
export type TaskDescription = { id: string; file: string } & Record<string, string>;


/** A program a built-in agent runs in the trial's container: the files it needs and its command. */
export interface ContainerProgram {
  files: { path: string; content: string | Buffer }[];
  command: string[];
  /** The command is `node FILE ARGS` with FILE a bundle started by container/program.ts: the trial runner
   * may load it into its own process (one Node process per trial instead of two). */
  inProcess?: boolean;
}

/** A stored trial as scoring sees it: its folder, its record, and what only the run knows. */
export interface StoredTrial {
  dir: string;
  record: TrialRecord;
  run: RunFacts;
}

/** What re-scoring a stored trial needs of a family (`aar verify` loads only this, through families.ts). */
export interface TrialScorer<Score extends object = object> {
  /** Scores a trial from its stored files alone (no Docker, no network). */
  score(trial: StoredTrial): Score;
  /** The exact text of score.json. */
  scoreToJson(score: Score): string;
}

/** A report row's fixed part; the family adds its figures. */
export interface ReportSlice {
  agent: string;
  model: string;
  /** The slice's coarse and fine group values (printed under the family's SliceKeys); `*` for all. */
  variant: string;
  level: string;
  /** Trials in the slice, scored or not. */
  trials: number;
  /** Scored trials (all but infrastructure errors). */
  n: number;
  infra_errors: number;
}

/** A stored world's answer to a call (the text an agent would get), or undefined when it has none. */
export type StoredAnswer = (tool: string, args: Record<string, unknown>) => string | undefined;

/** What a family's tool session knows of the trial it serves. */
export interface TrialSessionContext {
  /** The trial's folder while it runs (it becomes the trial folder): the session writes its files here, on the host. */
  dir: string;
  /** The trial's seed, as recorded in trial.json. */
  seed: number;
  /** The trial's attempt (1, 2, ...): with the task's id, what a session seeds state every configuration must share by (WikiRace's offered links). */
  attempt: number;
  /** The trial's step budget (the family's stepBudget unless the job sets another). */
  stepBudget: number;
}

/** A scored trial in words, as other tools show a sample (`aar export`): what was expected, what came, and why it scored so. */
export interface TrialOutcomeText {
  /** What the agent was asked, in one paragraph (AAR: the seed page and the riddle; WikiRace: from which page to which). */
  question: string;
  /** The expected answer (AAR: the passcode; WikiRace: the target page). */
  target: string;
  /** What the agent answered, or null when it gave nothing. */
  answer: string | null;
  /** A few sentences from the score: the verdict and the figures behind it. */
  explanation: string;
}

/** A per-trial figure `aar compare` pairs across configurations (e.g. AAR's FA, PVR, RCR). */
export interface CompareMetric<Score> {
  name: string;
  /** 0/1 per trial: the paired test is exact McNemar besides the bootstrap interval. */
  binary: boolean;
  /** The trial's value; null where the figure is not defined for the task (not counted). */
  of(score: Score): number | null;
}

/** How a family's scores become report rows and columns. */
export interface FamilyReport<Score, Figures extends object> {
  /** The figures compare pairs, the first being the success rate; absent: the progress success alone. */
  readonly compareMetrics?: readonly CompareMetric<Score>[];
  /** Levels in the order reports list them; others follow by name. */
  readonly levelOrder: readonly string[];
  /** The family's own step measure per trial (WikiRace: moves made) and what it counts; absent: the run's model calls (trial.json's run.steps). */
  readonly steps?: { of(score: Score): number | null; note: string };
  /** The figures of one slice from its scored trials. */
  summarize(scores: readonly Score[]): Figures;
  /** The Markdown table's columns after agent, model, variant, level and n. */
  readonly markdownHeader: readonly string[];
  markdownCells(row: ReportSlice & Figures): string[];
  /** One flat record per row after the fixed fields: the CSV and JSON output. */
  flatten(row: ReportSlice & Figures): Record<string, string | number | null>;
}

/** What compare passes the paper views: how a leg's attempts become its success (--reduce). */
export interface PaperOptions {
  reducer?: Reducer;
}

/** One scored trial of one configuration, as a family's paper views read it. */
export interface PaperTrial<Score> {
  config: string;
  dir: string;
  record: TrialRecord;
  score: Score;
}

/**
 * How `aar plan` estimates tokens for a family whose step is not a model call (WikiRace: a move): the
 * steps a task allows, a stored score's steps, and tokens per step for the agents it has figures for.
 */
export interface StepEstimate<Task, Score> {
  /** The step's name, singular ('move'). */
  readonly unit: string;
  /** Steps the task allows (WikiRace: its move limit). */
  allowed(task: Task): number;
  /** Steps a stored score made and allowed (the measured share of the budget). */
  measured(score: Score): { steps: number; allowed: number };
  /** Tokens per step before any trial of the agent was measured, and where the figure is from; undefined: the agent's own per-model-call figure over the step budget. */
  prior(agentName: string): { input: number; output: number; source: string } | undefined;
}

/**
 * A task family: where tasks come from, what the agent is told and offered, how a trial is scored and
 * reported. The harness, the verifier and the reports only go through this.
 */
export interface TaskFamily<Task extends FamilyTask = FamilyTask, Score extends object = object, Figures extends object = object>
  extends TrialScorer<Score> {
  readonly name: string;
  /** Tasks under these files or folders; unreadable or invalid files are problems, not exceptions. */
  load(paths: readonly string[]): Promise<{ tasks: Task[]; problems: InputProblem[] }>;
  /** The family's keys in a job config's `tasks` section, besides `family` and `path` (a strict object). */
  readonly filterSchema: z.ZodType<object>;
  /** The tasks a filter (parsed by filterSchema) selects, in a stable order. */
  filter(tasks: readonly Task[], filter: object): Task[];
  describe(task: Task): TaskDescription;
  /** Which of describe()'s fields reports and compare slice by (a new grouping is a new field there and its name here). */
  readonly sliceKeys: SliceKeys;
  /** Model turns the task's protocol allows (a job's `budget.steps: auto`). */
  stepBudget(task: Task): number;
  /**
   * The text the agent gets as /app/instruction.md; templatePath replaces the family's own template.
   * `attempt` is the trial's, for families whose instruction shows state seeded per task and attempt
   * (WikiRace's first offered links); absent, such a family shows none.
   */
  renderInstruction(task: Task, options: { templatePath?: string; stepBudget: number; attempt?: number }): string;
  /** Names of the gateway tools an agent may call on this family's tasks. */
  readonly tools: readonly string[];
  /**
   * Optional: per-trial tool state on the host, for families whose tools are placed in `trial-session`
   * (WikiRace's game). Opened when the trial's folder is staged, before the agent starts; the gateway sends
   * it that trial's calls and drops it when the trial ends. Families without it (AAR) are unaffected.
   */
  toolSession?(task: Task, trial: TrialSessionContext): TrialToolSession;
  /**
   * Optional: the calls of the task's golden path that a stored world cannot answer (`answer` looks a call up
   * in the store, for this task; undefined when it has none), each as `tool {args}`: `aar plan` and `aar run`
   * check a replay or pinned store with it before any trial starts. Families without golden tool calls leave it out.
   */
  storeGaps?(task: Task, answer: StoredAnswer): Promise<string[]>;
  /** The built-in oracle: solves the task through the same tools as any agent. */
  oracle(task: Task): ContainerProgram;
  /** The built-in random baseline, drawing from the trial's seed. */
  randomBaseline(task: Task, seed: number): ContainerProgram;
  /** What a running job shows per trial: the share of successes under this label, and a short verdict. */
  readonly progress: { label: string; success(score: Score): number; verdict(score: Score): string };
  readonly report: FamilyReport<Score, Figures>;
  /**
   * Optional: the paper's views (`aar compare --paper`, the HTML report) of each configuration's scored
   * trials, in configuration order. A table that reduces each leg's success by `options.reducer` says so in
   * its `reducedBy`; the others are marked as not reduced.
   */
  paperTables?(configs: readonly [string, readonly PaperTrial<Score>[]][], options?: PaperOptions): DataTable[];
  /** Optional: the plan's token estimate in the family's own steps (absent: model calls up to the step budget). */
  readonly estimate?: StepEstimate<Task, Score>;
  /** Optional: a scored trial in words for exports (absent: its headline figures, no target or answer). */
  outcome?(score: Score, trial: StoredTrialFiles): TrialOutcomeText;
}

/** A stored trial's folder and record: what a family may read besides its score. */
export interface StoredTrialFiles {
  dir: string;
  record: TrialRecord;
}

/** The harness's model gateway, started on loopback for a family's command: what a client needs, and the usage so far. */
export interface CliModelGateway {
  /** The gateway's base URL (`<url>/anthropic/v1/messages`, `<url>/openai/v1/chat/completions`). */
  readonly url: string;
  /** The key a client sends (the gateway swaps in the host's real key). */
  readonly token: string;
  usage(): { turns: number; inputTokens: number; outputTokens: number; costUsd: number };
  close(): Promise<void>;
}

/**
 * What the harness lends a family's commands, passed in when they register: tasks/ never imports
 * harness/, so a command that needs a harness service (WikiRace's probe: the model gateway) gets it here.
 */
export interface CliServices {
  /** The harness's version, as a store's provenance records it. */
  harnessVersion: string;
  /**
   * Starts the model gateway with a job config's `models:` settings (none: the defaults), the local model
   * or an OpenAI-compatible server when they name one; `baseUrl` replaces the upstream of the model API `api`. Every request is logged to `<out>/model_log.jsonl`
   * under the pseudo-trial `name`.
   */
  startModelGateway(options: {
    config?: string;
    /** A `models:` section written in another file (e.g. a generation config): checked as a job config's, paths resolved by `resolve`. */
    models?: { section: unknown; file: string; resolve: (p: string) => string };
    api: string;
    baseUrl?: string;
    /** The host key sent upstream for `api` (default: the host's variable), e.g. for a local test server. */
    apiKey?: string;
    out: string;
    name: string;
  }): Promise<CliModelGateway>;
}

/** Commands a family adds to the CLI; each registers synchronously and loads its code when it runs. */
export interface FamilyCli {
  /** Subcommands of `aar tasks` (two families naming the same one is commander's error at start). */
  tasks?(tasks: Command, services: CliServices): void;
  /** Commands of its own at the top level (`aar score`, `aar wikirace`). */
  program?(program: Command, services: CliServices): void;
}

/**
 * A family as the one registry (tasks/families.ts) lists it: a small module, cheap to import, whose parts
 * load when first asked for. `aar verify` loads a family's scorer alone; jobs and reports load it whole.
 */
export interface FamilyDeclaration {
  readonly name: string;
  /** The whole family: loader, instruction, tools, report (this file's TaskFamily). */
  family(): Promise<TaskFamily<any, any, any>>;
  /** Its scorer alone (the scoring code, nothing else of the family). */
  scorer(): Promise<TrialScorer>;
  readonly cli?: FamilyCli;
  /** Its HTML report view is verifier/html/<name>/view.ts (exporting `htmlView`); absent: the generic view. */
  readonly htmlView?: boolean;
  /** Files its trial folders hold beside the generic ones (trial/folder.ts's TRIAL_FILES), by name. */
  readonly trialFiles?: Readonly<Record<string, string>>;
  /** Example tasks (a file or folder, absolute): its conformance suite (tasks/conformance.ts) loads and scores them. */
  readonly examples?: string;
}
