import { postJson, type GatewayAddress, type GatewayReply } from './gateway-client.js';
import { TOOL_HELP } from './help-table.js';
import { runPython } from './python.js';

const CALL_TIMEOUT_MS = 330_000;

export const toolsByName = new Map(TOOL_HELP.flatMap((t) => [t.name, ...t.aliases].map((name) => [name, t] as const)));

/** One call: at the gateway, or (python_execute_code) here and then reported to the gateway for the log. */
export async function executeTool(gateway: GatewayAddress, name: string, args: unknown): Promise<GatewayReply> {
  const tool = toolsByName.get(name);
  if (tool?.runsIn !== 'container') return postJson(gateway, '/v1/tools/call', { tool: name, args }, CALL_TIMEOUT_MS);
  const a = (args ?? {}) as { code?: unknown; timeout_seconds?: unknown };
  const timeout = Math.min(300, Math.max(0.1, Number(a.timeout_seconds ?? 30) || 30));
  const started = Date.now();
  const result =
    typeof a.code === 'string' && a.code.trim()
      ? await runPython(a.code, timeout)
      : { ok: false, text: `Error: invalid arguments for ${tool.name}: code: a non-empty string is required` };
  return postJson(gateway, '/v1/tools/report', { tool: name, args, ...result, latency_ms: Date.now() - started }, CALL_TIMEOUT_MS);
}
