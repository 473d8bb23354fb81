import { InputError } from '../../tasks/problems.js';
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
  return { family, tasks: family.filter(all, filter) };
}
