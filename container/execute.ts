import { postJson, type GatewayAddress, type GatewayReply } from './gateway-client.js';
import { TOOL_HELP } from './help-table.js';
import type { ToolHelp } from '../tools/catalog/types.js';
import { runPython } from './python.js';

const CALL_TIMEOUT_MS = 330_000;

/** A plugin's tools, which the bundle's table cannot know: the harness passes their help in AAR_TOOL_HELP (JSON). */
function pluginToolHelp(text: string | undefined): ToolHelp[] {
  if (!text) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.filter((t): t is ToolHelp => !!t && typeof t.name === 'string' && Array.isArray(t.aliases) && Array.isArray(t.params)) : [];
  } catch {
    return [];
  }
}

/** Every tool this command knows: the table built in, then a plugin's. */
export const TOOL_TABLE: readonly ToolHelp[] = [...TOOL_HELP, ...pluginToolHelp(process.env.AAR_TOOL_HELP)];

export const toolsByName = new Map(TOOL_TABLE.flatMap((t) => [t.name, ...t.aliases].map((name) => [name, t] as const)));

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
