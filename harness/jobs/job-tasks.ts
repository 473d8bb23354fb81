import { dataCacheDir, datasetTasksDir } from '../../tasks/datasets/catalog.js';
import { readSource } from '../../tasks/datasets/fetch.js';
import type { SliceKeys, TaskDescription } from '../../tasks/family.js';
import { InputError, type InputProblem } from '../../tasks/problems.js';
import { DEFAULT_FAMILY, FAMILY_NAMES, taskFamily } from '../../tasks/registry.js';
import type { LoadedConfig } from '../config/load.js';
import { familyNameOf } from '../config/schema.js';

/** The task family of a job and the tasks its `tasks` section selects; load problems are an InputError. */
export async function loadJobTasks(loaded: LoadedConfig) {
  const { config } = loaded;
  const taskPaths = jobTaskPaths(loaded);
  const family = taskFamily(familyNameOf(config));
  const { tasks: all, problems } = await family.load(taskPaths);
  if (problems.length) throw new InputError(await loadProblems(loaded, family.name, taskPaths, problems));
  const { path: _p, dataset: _d, family: _f, ...filter } = config.tasks;
  const tasks = family.filter(all, filter);
  if (!tasks.length) throw new InputError([noTaskMatches(loaded.file, family.sliceKeys, all.map((t) => family.describe(t)), taskPaths)]);
  return { family, tasks };
}

/** The one-line problem of a config whose task filters select nothing: what there was to select from. */
function noTaskMatches(file: string, keys: SliceKeys, found: TaskDescription[], paths: string[]): InputProblem {
  if (!found.length) return { file, path: 'tasks.path', message: `no task found under ${paths.join(', ')}` };
  const values = (key: string): string => `${key}s: ${[...new Set(found.map((d) => d[key]))].sort().join(', ')}`;
  return { file, path: 'tasks', message: `no task of the ${found.length} loaded matches the filters (${values(keys[0])}; ${values(keys[1])})` };
}

/** The files or folders a job's tasks come from: its `tasks.path`, or the cached folder of its `tasks.dataset`. */
export function jobTaskPaths(loaded: LoadedConfig): string[] {
  const { tasks } = loaded.config;
  if (tasks.dataset === undefined) return (Array.isArray(tasks.path) ? tasks.path : [tasks.path!]).map(loaded.resolve);
  if (!readSource(tasks.dataset)) {
    throw new InputError([{ file: loaded.file, path: 'tasks.dataset', message: `dataset ${tasks.dataset} is not in the cache (${dataCacheDir()}): run \`aar data fetch ${tasks.dataset}\`` }]);
  }
  return [datasetTasksDir(tasks.dataset)];
}

/** Load problems shown at most; the rest are counted in one line. */
const SHOWN_PROBLEMS = 10;

/**
 * What to say of task files the job's family cannot read: when another family reads them (the config names
 * the wrong family), that in one line; otherwise the first problems and a count of the rest.
 */
async function loadProblems(loaded: LoadedConfig, familyName: string, paths: string[], problems: InputProblem[]): Promise<InputProblem[]> {
  const failing = new Set(problems.map((p) => p.file));
  for (const other of FAMILY_NAMES.filter((n) => n !== familyName)) {
    const theirs = await taskFamily(other).load(paths).catch(() => null);
    if (!theirs?.tasks.length) continue;
    // Theirs when that family reads the paths without a problem (WikiRace's graph files are not legs), or reads every file ours could not.
    const read = new Set(theirs.tasks.map((t) => t.file));
    if (theirs.problems.length && ![...failing].every((f) => read.has(f))) continue;
    const fix = other === DEFAULT_FAMILY ? `remove \`tasks.family\` (${other} is the default) or set it to ${other}` : `set \`tasks.family: ${other}\``;
    return [{ file: loaded.file, path: 'tasks.family', message: `the task files under ${paths.join(', ')} are ${other} tasks (${theirs.tasks.length} read as such), not ${familyName}: ${fix}` }];
  }
  if (problems.length <= SHOWN_PROBLEMS) return problems;
  const rest = problems.slice(SHOWN_PROBLEMS);
  const restFiles = new Set(rest.map((p) => p.file)).size;
  return [...problems.slice(0, SHOWN_PROBLEMS), { file: loaded.file, path: 'tasks', message: `${rest.length} more problems in ${restFiles} ${restFiles === 1 ? 'file' : 'files'} not shown (${failing.size} task files of ${familyName} could not be read)` }];
}
