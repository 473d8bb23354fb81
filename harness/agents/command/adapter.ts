import path from 'node:path';
import type { AgentConfig } from '../../config/schema.js';
import type { AgentAdapter } from '../types.js';

/** `options.log_dirs`: absolute folders of plain names, each kept as agent/<its last name>/ (not stdout.log or stderr.log, no two alike). */
function logDirsOf(agent: AgentConfig): string[] {
  const dirs = agent.options.log_dirs ?? [];
  const where = `agent ${agent.id ?? 'command'}: options.log_dirs`;
  if (!Array.isArray(dirs) || dirs.some((d) => typeof d !== 'string')) throw new Error(`${where} must be a list of folders`);
  const names = new Set<string>();
  for (const dir of dirs as string[]) {
    const parts = dir.split('/').slice(1);
    if (!dir.startsWith('/') || !parts.length || parts.some((p) => p === '' || p === '.' || p === '..')) throw new Error(`${where}: ${JSON.stringify(dir)} is not an absolute folder of plain names`);
    const name = path.posix.basename(dir);
    if (names.has(name) || name === 'stdout.log' || name === 'stderr.log') throw new Error(`${where}: ${JSON.stringify(dir)} would be kept as agent/${name}/, which is taken`);
    names.add(name);
  }
  return dirs as string[];
}

/**
 * Your own agent: a shell command run in the trial container (`sh -c`), on the base image, with the
 * instruction at /app/instruction.md, the `tools` command on its PATH, and the step budget in
 * AAR_STEP_BUDGET. It answers by writing /app/answer.txt. Folders of its own logs (`log_dirs`) are kept in
 * the trial's agent/ folder, each under its last name.
 *
 *   agents:
 *     - name: command
 *       id: my-agent
 *       options: { command: "python3 /opt/my-agent.py /app/instruction.md", log_dirs: [/app/logs] }
 */
export const commandAgent: AgentAdapter = {
  name: 'command',
  families: 'any',
  imageLayer: null,
  usesModel: false,
  example: { options: { command: 'true' } },
  check(agent) {
    const command = agent.options.command;
    if (typeof command !== 'string' || !command.trim()) throw new Error(`agent ${agent.id ?? 'command'}: options.command must be a shell command`);
    logDirsOf(agent);
  },
  launch(ctx) {
    const command = String(ctx.agent.options.command);
    return {
      files: [],
      command: ['sh', '-c', command],
      env: { AAR_STEP_BUDGET: String(ctx.stepBudget), AAR_TRIAL_ID: ctx.trialId },
      logDirs: logDirsOf(ctx.agent),
    };
  },
};
