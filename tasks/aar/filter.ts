import { z } from 'zod';
import type { LoadedLeg } from './load.js';
import { LEVELS } from './schema.js';
import { commonFilterFields, selectTasks } from '../selection.js';

/** Which legs of a task set to run. Filters apply in this order: variant, level, ids, exclude, sample, limit. */
export const TaskFilterSchema = z.strictObject({
  variants: z.array(z.string()).optional().describe("Only legs of these variants (`aar-linear`, `aar-dag`: the name of the leg's folder above its level)."),
  levels: z.array(z.enum(LEVELS)).optional().describe('Only legs of these difficulty levels.'),
  ...commonFilterFields,
});
export type TaskFilter = z.input<typeof TaskFilterSchema>;

export function filterLegs(legs: readonly LoadedLeg[], filter: TaskFilter = {}): LoadedLeg[] {
  const f = TaskFilterSchema.parse(filter);
  return selectTasks(legs, f, (l) => (!f.variants || f.variants.includes(l.variant)) && (!f.levels || (f.levels as string[]).includes(l.level)));
}
