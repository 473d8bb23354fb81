import { jsonLines, num, readAgentLog } from '../logs.js';
import { shellJoin } from '../shell.js';
import type { AgentLogFacts } from '../../../trial/run-facts.js';
import type { AgentAdapter } from '../types.js';
import { builtInLayer } from '../image-layer.js';

/** The Claude Code version the image layer installs unless a job sets `version:`. */
export const CLAUDE_CODE_VERSION = '2.1.332';
export const CLAUDE_DEFAULT_MODEL = 'claude-sonnet-4-6';

/**
 * What Claude Code's stream-json output says: its last `result` event holds the turns, token usage and
 * cost of the whole run, and `subtype: error_max_turns` when it ran out of turns.
 */
export function readClaudeStream(text: string): AgentLogFacts {
  const result = jsonLines(text).filter((e) => e.type === 'result').at(-1);
  if (!result) return {};
  const usage = (result.usage ?? {}) as Record<string, unknown>;
  const input = num(usage.input_tokens);
  const cacheRead = num(usage.cache_read_input_tokens) ?? 0;
  const cacheWrite = num(usage.cache_creation_input_tokens) ?? 0;
  return {
    steps: num(result.num_turns),
    inputTokens: input === null ? null : input + cacheRead + cacheWrite,
    outputTokens: num(usage.output_tokens),
    cachedTokens: cacheRead,
    costUsd: num(result.total_cost_usd),
    stepLimitHit: result.subtype === 'error_max_turns',
  };
}

/**
 * Claude Code, headless: print mode with stream-json output, permissions bypassed (the container is
 * the sandbox), at most B turns, its model traffic sent to the gateway with the trial token as its key.
 */
export const claudeCodeAgent: AgentAdapter = {
  name: 'claude-code',
  families: 'any',
  imageLayer: builtInLayer('claude-code'),
  usesModel: true,
  hostKeys: ['ANTHROPIC_API_KEY'],
  buildArgs: (agent) => ({ CLAUDE_CODE_VERSION: agent.version ?? CLAUDE_CODE_VERSION }),
  launch(ctx) {
    const args = [
      'claude',
      '--output-format', 'stream-json',
      '--verbose',
      '--dangerously-skip-permissions',
      '--max-turns', String(ctx.stepBudget),
      '--model', ctx.agent.model ?? CLAUDE_DEFAULT_MODEL,
      ...ctx.agent.flags,
    ];
    return {
      files: [],
      // The prompt is the instruction; stdin must not be an open pipe (Claude Code would wait on it).
      command: ['sh', '-c', `exec ${shellJoin(args)} -p "$(cat /app/instruction.md)" < /dev/null`],
      env: {
        ANTHROPIC_BASE_URL: `${ctx.gatewayUrl}/anthropic`,
        ANTHROPIC_API_KEY: ctx.token,
        CLAUDE_CONFIG_DIR: '/root/.claude',
        IS_SANDBOX: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
      logDirs: ['/root/.claude/projects'],
    };
  },
  readLogs(hostAgentDir) {
    const stream = readAgentLog(hostAgentDir, 'stdout.log');
    return stream === null ? {} : readClaudeStream(stream);
  },
};
