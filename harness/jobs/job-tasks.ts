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
  if (!tasks.length) throw new InputError([noTaskMatches(loaded.file, all.map((t) => family.describe(t)), taskPaths)]);
  return { family, tasks };
}

/** The one-line problem of a config whose task filters select nothing: what there was to select from. */
function noTaskMatches(file: string, found: { variant: string; level: string }[], paths: string[]): InputProblem {
  if (!found.length) return { file, path: 'tasks.path', message: `no task found under ${paths.join(', ')}` };
  const values = (pick: (d: { variant: string; level: string }) => string): string => [...new Set(found.map(pick))].sort().join(', ');
  return { file, path: 'tasks', message: `no task of the ${found.length} loaded matches the filters (variants: ${values((d) => d.variant)}; levels: ${values((d) => d.level)})` };
}
