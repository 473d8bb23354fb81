import { jsonLines, num, readAgentLog } from '../logs.js';
import { shellJoin } from '../shell.js';
import type { AgentLogFacts } from '../../../trial/run-facts.js';
import type { AgentAdapter } from '../types.js';
import { builtInLayer } from '../image-layer.js';

/** The Codex CLI version the image layer installs unless a job sets `version:`. */
export const CODEX_VERSION = '0.169.0';
export const CODEX_DEFAULT_MODEL = 'gpt-5.4';
const CODEX_HOME = '/root/.codex';

/** Codex's config: a model provider whose base URL is the gateway, analytics off, no approvals, no sandbox. */
export function codexConfig(model: string, gatewayUrl: string): string {
  return [
    `model = ${JSON.stringify(model)}`,
    'model_provider = "aar"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[model_providers.aar]',
    'name = "AAR Harness gateway"',
    `base_url = ${JSON.stringify(`${gatewayUrl}/openai/v1`)}`,
    'wire_api = "responses"',
    'env_key = "AAR_TRIAL_TOKEN"',
    // The gateway retries upstream failures itself; a retry here would be a second, uncounted attempt.
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n');
}

/** What `codex exec --json` printed: usage per `turn.completed`, and the model's calls as items. */
export function readCodexEvents(text: string): AgentLogFacts {
  let input = 0;
  let cached = 0;
  let output = 0;
  let turns = 0;
  for (const e of jsonLines(text)) {
    if (e.type !== 'turn.completed') continue;
    turns++;
    const u = (e.usage ?? {}) as Record<string, unknown>;
    input += num(u.input_tokens) ?? 0;
    cached += num(u.cached_input_tokens) ?? 0;
    output += num(u.output_tokens) ?? 0;
  }
  if (!turns) return {};
  return { inputTokens: input, cachedTokens: cached, outputTokens: output };
}

/**
 * Codex CLI, headless: `codex exec --json`, approvals and its sandbox bypassed (the container is the
 * sandbox), git check skipped, model traffic through the gateway. Codex has no turn limit of its own:
 * the gateway enforces the step budget.
 */
export const codexAgent: AgentAdapter = {
  name: 'codex',
  families: 'any',
  imageLayer: builtInLayer('codex'),
  usesModel: true,
  hostKeys: ['OPENAI_API_KEY'],
  buildArgs: (agent) => ({ CODEX_VERSION: agent.version ?? CODEX_VERSION }),
  launch(ctx) {
    const args = ['codex', 'exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', ...ctx.agent.flags];
    return {
      files: [{ path: `${CODEX_HOME}/config.toml`, content: codexConfig(ctx.agent.model ?? CODEX_DEFAULT_MODEL, ctx.gatewayUrl) }],
      // stdin must be closed: with an open pipe codex exec waits forever.
      command: ['sh', '-c', `exec ${shellJoin(args)} "$(cat /app/instruction.md)" < /dev/null`],
      env: { CODEX_HOME },
      logDirs: [`${CODEX_HOME}/sessions`],
    };
  },
  readLogs(hostAgentDir) {
    const events = readAgentLog(hostAgentDir, 'stdout.log');
    return events === null ? {} : readCodexEvents(events);
  },
};
