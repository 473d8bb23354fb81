import type { AgentAdapter } from '../types.js';

/**
 * The random baseline of the task family, drawn from the trial's seed (recorded in trial.json), run by a
 * real process inside the container. AAR: a uniformly random digit; FA near 10%, PVR = RCR = 0.
 */
export const randomAgent: AgentAdapter = {
  name: 'random',
  families: 'any',
  imageLayer: null,
  usesModel: false,
  launch(ctx) {
    return { ...ctx.family.randomBaseline(ctx.task, ctx.seed), env: {}, logDirs: [] };
  },
  readLogs: () => ({ steps: 0 }),
};
