import type { AgentAdapter } from '../types.js';

/**
 * Your own agent: a shell command run in the trial container (`sh -c`), on the base image, with the
 * instruction at /app/instruction.md, the `tools` command on its PATH, and the step budget in
 * AAR_STEP_BUDGET. It answers by writing /app/answer.txt.
 *
 *   agents:
 *     - name: command
 *       id: my-agent
 *       options: { command: "python3 /opt/my-agent.py /app/instruction.md" }
 */
export const commandAgent: AgentAdapter = {
  name: 'command',
  imageLayer: null,
  usesModel: false,
  check(agent) {
    const command = agent.options.command;
    if (typeof command !== 'string' || !command.trim()) throw new Error(`agent ${agent.id ?? 'command'}: options.command must be a shell command`);
  },
  launch(ctx) {
    const command = String(ctx.agent.options.command);
    return {
      files: [],
      command: ['sh', '-c', command],
      env: { AAR_STEP_BUDGET: String(ctx.stepBudget), AAR_TRIAL_ID: ctx.trialId },
      logDirs: [],
    };
  },
};
