import { seededRandom } from '../../../tasks/aar/filter.js';
import type { AgentAdapter } from '../types.js';

/**
 * The random baseline: writes a uniformly random digit, drawn from the trial's seed (recorded in
 * trial.json), by a real process inside the container. Expected scores: FA near 10%, PVR = RCR = 0.
 */
export const randomAgent: AgentAdapter = {
  name: 'random',
  imageLayer: null,
  usesModel: false,
  launch(ctx) {
    const digit = Math.floor(seededRandom(ctx.seed)() * 10);
    return {
      files: [],
      command: ['sh', '-c', `echo "random agent: seed ${ctx.seed}, digit ${digit}"; printf %s ${digit} > /app/answer.txt`],
      env: {},
      logDirs: [],
    };
  },
  readLogs: () => ({ steps: 0 }),
};
