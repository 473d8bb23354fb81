import { readFileSync } from 'node:fs';
import { packagePath } from '../../../paths.js';
import { readAgentLog } from '../logs.js';
import type { AgentAdapter } from '../types.js';

export const ORACLE_BUNDLE = packagePath('dist', 'agents', 'oracle.cjs');

/**
 * The oracle: follows the leg's golden trace through the `tools` command and writes the passcode. A real
 * process in the container, through the same gateway as every agent: with the golden world, it must get
 * FA = PVR = RCR = 100%, which tests the whole pipeline.
 */
export const oracleAgent: AgentAdapter = {
  name: 'oracle',
  imageLayer: null,
  usesModel: false,
  launch(ctx) {
    return {
      files: [
        { path: '/opt/aar/oracle.cjs', content: readFileSync(ORACLE_BUNDLE) },
        { path: '/opt/aar/leg.json', content: ctx.leg.source },
      ],
      command: ['node', '/opt/aar/oracle.cjs', '/opt/aar/leg.json'],
      env: {},
      logDirs: [],
    };
  },
  /** Steps of the oracle: its tool calls (it has no model turns). */
  readLogs(hostAgentDir) {
    const log = readAgentLog(hostAgentDir, 'stdout.log');
    if (log === null) return {};
    const m = /oracle: (\d+) tool calls/.exec(log);
    return { steps: m ? Number(m[1]) : null };
  },
};
