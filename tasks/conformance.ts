/**
 * The task family conformance suite: what every family (aar, wikirace, a plugin's) must do for the harness,
 * the verifier and the reports to go through its interface alone. It loads the family's example tasks (its
 * declaration's `examples`), and scores a trial in which the agent did nothing, stored as the harness stores
 * one. Library code: Jest runs it for every registered family, `aar plugins check` for a plugin's.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sameJson, type ConformanceCheck, type ConformanceSuite } from '../common/conformance.js';
import { findTool } from '../tools/catalog/index.js';
import { TRIAL_FILES, TRIAL_FORMAT } from '../trial/folder.js';
import { TrialRecordSchema, type TrialRecord } from '../trial/record.js';
import { runFactsOfRecord } from '../trial/run-facts.js';
import type { ContainerProgram, FamilyDeclaration, FamilyTask, StoredTrial, TaskFamily, TrialScorer } from './family.js';

const NAME = /^[a-z][a-z0-9-]*$/;

function checkProgram(program: ContainerProgram, what: string): void {
  assert.ok(program.command.length > 0 && program.command.every((a) => typeof a === 'string'), `${what}: a command of strings`);
  for (const file of program.files) assert.ok(path.posix.isAbsolute(file.path), `${what}: ${file.path} is no absolute path in the container`);
}

/** trial.json of a trial of `task` that ran and ended with nothing done (no answer, no call). */
export function idleTrialRecord(family: TaskFamily, task: FamilyTask, stepBudget: number): TrialRecord {
  const now = new Date().toISOString();
  return TrialRecordSchema.parse({
    format: TRIAL_FORMAT,
    family: family.name,
    trial_id: 'conformance__idle__1',
    job: 'conformance',
    agent: { id: 'idle', name: 'idle' },
    leg: { ...family.describe(task), sha256: '0'.repeat(64) },
    attempt: 1,
    status: 'completed',
    started_at: now,
    finished_at: now,
    timings: { total_s: 1, agent_s: 1, overhead_s: 0 },
    step_budget: stepBudget,
    run: { steps: 0, step_limit_hit: false, exit_code: 0, timed_out: false, wall_s: 1, input_tokens: 0, output_tokens: 0, cached_tokens: 0, cost_usd: 0 },
    seed: 0,
    harness_version: 'conformance',
  });
}

/** Writes, into `dir` (made), the folder of a trial of `task` in which the agent did nothing, as the harness would store it. */
export function writeIdleTrial(family: TaskFamily, task: FamilyTask, dir: string): StoredTrial {
  const record = idleTrialRecord(family, task, family.stepBudget(task));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, TRIAL_FILES.leg), task.source);
  writeFileSync(path.join(dir, TRIAL_FILES.instruction), family.renderInstruction(task, { stepBudget: record.step_budget, attempt: 1 }));
  writeFileSync(path.join(dir, TRIAL_FILES.toolLog), '');
  family.toolSession?.(task, { dir, seed: 0, attempt: 1, stepBudget: record.step_budget });
  return { dir, record, run: runFactsOfRecord(record) };
}

/** The suite of one family; `examples` (a file or folder of tasks) replaces the declaration's own. */
export function familySuite(declaration: FamilyDeclaration, examples: string | undefined = declaration.examples): ConformanceSuite {
  let family: TaskFamily;
  let scorer: TrialScorer;
  let dir = '';
  let loading: ReturnType<TaskFamily['load']> | undefined;
  /** The example tasks, loaded once; each check that needs them fails when there are none. */
  const examplesLoaded = () => {
    assert.ok(examples, 'the declaration names no examples (a file or folder of tasks)');
    return (loading ??= family.load([examples]));
  };
  const exampleTasks = async (): Promise<FamilyTask[]> => {
    const { tasks } = await examplesLoaded();
    assert.ok(tasks.length > 0, `no task under ${examples}`);
    return tasks;
  };
  const task = async (): Promise<FamilyTask> => (await exampleTasks())[0]!;
  const checks: ConformanceCheck[] = [
    {
      name: 'its name is lower-case letters, digits and -, the same in its declaration and its family',
      run: () => {
        assert.match(declaration.name, NAME);
        assert.equal(family.name, declaration.name);
      },
    },
    {
      name: 'its example tasks load without a problem, each with a unique id, its file and its bytes',
      async run() {
        sameJson((await examplesLoaded()).problems, []);
        const tasks = await exampleTasks();
        assert.equal(new Set(tasks.map((t) => t.id)).size, tasks.length, 'two tasks share an id');
        for (const t of tasks) assert.ok(typeof t.file === 'string' && Buffer.isBuffer(t.source), `${t.id}: file and source`);
      },
    },
    {
      name: 'its filter schema takes an empty filter (all tasks, in a stable order) and refuses an unknown key',
      async run() {
        const tasks = await exampleTasks();
        const all = family.filter(tasks, family.filterSchema.parse({}));
        sameJson(all.map((t) => t.id), family.filter(tasks, family.filterSchema.parse({})).map((t) => t.id));
        assert.equal(all.length, tasks.length);
        assert.equal(family.filterSchema.safeParse({ no_such_filter_key: 1 }).success, false);
      },
    },
    {
      name: 'describe() gives the id, the file and a string for each of its two slice keys',
      async run() {
        const [coarse, fine] = family.sliceKeys;
        assert.ok(coarse && fine && coarse !== fine, 'two different slice keys');
        for (const t of await exampleTasks()) {
          const d = family.describe(t);
          assert.equal(d.id, t.id);
          for (const key of [coarse, fine]) assert.equal(typeof d[key], 'string', `${t.id}: describe().${key}`);
        }
      },
    },
    {
      name: 'each task has a positive step budget and an instruction that shows it',
      async run() {
        for (const t of await exampleTasks()) {
          const budget = family.stepBudget(t);
          assert.ok(Number.isInteger(budget) && budget > 0, `${t.id}: step budget ${budget}`);
          const text = family.renderInstruction(t, { stepBudget: budget, attempt: 1 });
          assert.ok(typeof text === 'string' && text.trim().length > 0, `${t.id}: an empty instruction`);
        }
      },
    },
    {
      name: 'the tools it offers are registered tools, each once',
      run: () => {
        assert.equal(new Set(family.tools).size, family.tools.length, 'a tool offered twice');
        for (const name of family.tools) assert.ok(findTool(name)?.name === name, `${name}: no registered tool of this name`);
      },
    },
    {
      name: 'its oracle and random baseline are programs the container can run',
      async run() {
        checkProgram(family.oracle(await task()), 'oracle');
        checkProgram(family.randomBaseline(await task(), 1), 'random baseline');
      },
    },
    {
      name: 'a trial in which the agent did nothing scores as no success, the same by its scorer alone',
      async run() {
        const stored = writeIdleTrial(family, await task(), dir);
        const score = family.score(stored);
        assert.equal(family.progress.success(score), 0);
        assert.equal(typeof family.progress.verdict(score), 'string');
        const json = family.scoreToJson(score);
        assert.doesNotThrow(() => JSON.parse(json), 'score.json is JSON');
        assert.equal(scorer.scoreToJson(scorer.score(stored)), json, "the declaration's scorer and the family disagree");
      },
    },
    {
      name: 'its report makes a row of no trials, flattened and as Markdown cells under its header',
      run: () => {
        const figures = family.report.summarize([]);
        const row = { agent: 'a', model: 'm', variant: '*', level: '*', trials: 0, n: 0, infra_errors: 0, ...figures };
        assert.equal(family.report.markdownCells(row).length, family.report.markdownHeader.length);
        assert.equal(typeof family.report.flatten(row), 'object');
        assert.ok(Array.isArray(family.report.levelOrder));
      },
    },
  ];
  return {
    seam: 'task family',
    entry: declaration.name,
    checks,
    async before() {
      family = await declaration.family();
      scorer = await declaration.scorer();
      dir = mkdtempSync(path.join(os.tmpdir(), 'aar-family-conf-'));
    },
    async after() {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
