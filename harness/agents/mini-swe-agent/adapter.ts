import { readdirSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { num, readAgentLog } from '../logs.js';
import { shellJoin } from '../shell.js';
import { PIP_REQUIREMENTS_ARG } from '../../../images/wheels.js';
import type { AgentLogFacts } from '../../../trial/run-facts.js';
import type { AgentAdapter } from '../types.js';
import { builtInLayer } from '../image-layer.js';

/** The mini-swe-agent version the image layer installs unless a job sets `version:`. */
export const MINI_SWE_AGENT_VERSION = '2.4.6';
export const MINI_DEFAULT_MODEL = 'gpt-5.4';
const TRAJECTORY = '/app/agent-logs/mini.traj.json';

/**
 * Our layer over mini-swe-agent's own `mini.yaml`: AAR's instruction instead of its coding workflow, the
 * step limit B, no cost limit (the gateway enforces budgets), no confirmations, and its model pointed at
 * the gateway (litellm, OpenAI protocol) with the trial token as key.
 */
export function miniConfig(model: string, gatewayUrl: string, token: string, stepLimit: number): string {
  return stringify({
    agent: {
      system_template: 'You are a capable agent solving a scavenger-hunt puzzle with shell commands in a Linux container.',
      instance_template: [
        '{{task}}',
        '',
        'Work with the bash tool: one command per call; each runs in a new subshell in /app.',
        'When /app/answer.txt holds your one-digit answer, finish by running `echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT` alone.',
      ].join('\n'),
      step_limit: stepLimit,
      cost_limit: 0,
      mode: 'yolo',
      confirm_exit: false,
    },
    model: {
      model_name: `openai/${model}`,
      cost_tracking: 'ignore_errors',
      model_kwargs: { api_base: `${gatewayUrl}/openai/v1`, api_key: token, drop_params: true },
    },
  });
}

/** mini-swe-agent's trajectory (`trajectory_format: mini-swe-agent-1.1`): calls, cost, exit status, per-call usage. */
export function readMiniTrajectory(text: string): AgentLogFacts {
  let data: { info?: Record<string, unknown>; messages?: Array<Record<string, unknown>> };
  try {
    data = JSON.parse(text) as typeof data;
  } catch {
    return {};
  }
  const stats = (data.info?.model_stats ?? {}) as Record<string, unknown>;
  let input = 0;
  let output = 0;
  let cached = 0;
  let counted = 0;
  for (const m of data.messages ?? []) {
    const usage = ((m.extra as Record<string, unknown> | undefined)?.response as Record<string, unknown> | undefined)?.usage as Record<string, unknown> | undefined;
    if (!usage) continue;
    counted++;
    input += num(usage.prompt_tokens) ?? 0;
    output += num(usage.completion_tokens) ?? 0;
    cached += num((usage.prompt_tokens_details as Record<string, unknown> | undefined)?.cached_tokens) ?? 0;
  }
  const cost = num(stats.instance_cost);
  return {
    steps: num(stats.api_calls),
    costUsd: cost && cost > 0 ? cost : null,
    stepLimitHit: data.info?.exit_status === 'LimitsExceeded',
    ...(counted ? { inputTokens: input, outputTokens: output, cachedTokens: cached } : {}),
  };
}

/**
 * mini-swe-agent, run with `mini` in yolo mode (every command runs, no prompt), exiting when it
 * submits; its trajectory file is its log.
 */
export const miniSweAgent: AgentAdapter = {
  name: 'mini-swe-agent',
  families: 'any',
  imageLayer: builtInLayer('mini-swe-agent'),
  usesModel: true,
  hostKeys: ['OPENAI_API_KEY'],
  buildArgs: (agent) => {
    const version = agent.version ?? MINI_SWE_AGENT_VERSION;
    return { MINI_SWE_AGENT_VERSION: version, [PIP_REQUIREMENTS_ARG]: `mini-swe-agent==${version}` };
  },
  launch(ctx) {
    const model = ctx.agent.model ?? MINI_DEFAULT_MODEL;
    const args = [
      'mini', '-y', '--exit-immediately',
      '-o', TRAJECTORY,
      // The built-in mini.yaml first: a -c option replaces the default config unless it is listed.
      '-c', 'mini.yaml', '-c', '/opt/aar/mini-aar.yaml', '-c', `agent.step_limit=${ctx.stepBudget}`,
      ...ctx.agent.flags,
    ];
    return {
      files: [{ path: '/opt/aar/mini-aar.yaml', content: miniConfig(model, ctx.gatewayUrl, ctx.token, ctx.stepBudget) }],
      command: ['sh', '-c', `exec ${shellJoin(args)} -t "$(cat /app/instruction.md)" < /dev/null`],
      env: {
        MSWEA_CONFIGURED: 'true',
        MSWEA_SILENT_STARTUP: '1',
        MSWEA_COST_TRACKING: 'ignore_errors',
        MSWEA_GLOBAL_CONFIG_DIR: '/root/.config/mini-swe-agent',
        OPENAI_API_KEY: ctx.token,
      },
      logDirs: [path.dirname(TRAJECTORY)],
    };
  },
  readLogs(hostAgentDir) {
    const dir = path.join(hostAgentDir, path.basename(path.dirname(TRAJECTORY)));
    let file: string | undefined;
    try {
      file = readdirSync(dir).find((f) => f.endsWith('.traj.json'));
    } catch {
      return {};
    }
    const trajectory = file ? readAgentLog(dir, file) : null;
    return trajectory === null ? {} : readMiniTrajectory(trajectory);
  },
};
