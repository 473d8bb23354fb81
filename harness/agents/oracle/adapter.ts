import { readAgentLog } from '../logs.js';
import type { AgentAdapter } from '../types.js';

/**
 * The oracle: the task family's solver (AAR: follows the leg's golden trace through the `tools` command and
 * writes the passcode). A real process in the container, through the same gateway as every agent: with the
 * golden world, it must get FA = PVR = RCR = 100%, which tests the whole pipeline. It prints
 * `oracle: <n> tool calls` as its last word.
 */
export const oracleAgent: AgentAdapter = {
  name: 'oracle',
  families: 'any',
  imageLayer: null,
  usesModel: false,
  launch(ctx) {
    return { ...ctx.family.oracle(ctx.task), env: {}, logDirs: [] };
  },
  /** Steps of the oracle: its tool calls (it has no model turns). */
  readLogs(hostAgentDir) {
    const log = readAgentLog(hostAgentDir, 'stdout.log');
    if (log === null) return {};
    const m = /oracle: (\d+) tool calls/.exec(log);
    return { steps: m ? Number(m[1]) : null };
  },
};
