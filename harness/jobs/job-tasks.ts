import type { SliceKeys, TaskDescription } from '../../tasks/family.js';
import { InputError, type InputProblem } from '../../tasks/problems.js';
import { taskFamily } from '../../tasks/registry.js';
import type { LoadedConfig } from '../config/load.js';
import { familyNameOf } from '../config/schema.js';

/** The task family of a job and the tasks its `tasks` section selects; load problems are an InputError. */
export async function loadJobTasks(loaded: LoadedConfig) {
  const { config } = loaded;
  const taskPaths = (Array.isArray(config.tasks.path) ? config.tasks.path : [config.tasks.path]).map(loaded.resolve);
  const family = taskFamily(familyNameOf(config));
  const { tasks: all, problems } = await family.load(taskPaths);
  if (problems.length) throw new InputError(problems);
  const { path: _p, family: _f, ...filter } = config.tasks;
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
