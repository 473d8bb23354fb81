/**
 * `tools`: the command agents use inside a trial container. Bundled into one file with no dependencies
 * (dist/tools-cli.cjs) and installed in images as /usr/local/bin/tools.
 *
 *   tools --list                 the tool names
 *   tools NAME --help            arguments and an example
 *   tools NAME '<json>'          call a tool; prints the result, exits 1 when the call failed
 *   tools --batch                many calls, JSON Lines in and out (see batch())
 *
 * Calls go to the gateway on the host (AAR_GATEWAY_URL or AAR_GATEWAY_SOCKET, with AAR_TRIAL_TOKEN),
 * which runs them and logs them; python_execute_code runs here and is reported to the gateway.
 */
import type { ToolHelp } from '../tools/catalog/types.js';
import { forward } from './forward.js';
import { runTrial } from './trial-run.js';
import { createInterface } from 'node:readline';
import { gatewayFromEnv, getJson } from './gateway-client.js';
import { executeTool as execute, TOOL_TABLE, toolsByName as byName } from './execute.js';

const USAGE = `usage: tools --list | tools NAME --help | tools NAME '<json arguments>' | tools --batch < calls.jsonl`;

/** The tools of the trial's task family (AAR_TOOLS, comma-separated, set by the harness); all tools outside a trial. */
const offered = process.env.AAR_TOOLS ? new Set(process.env.AAR_TOOLS.split(',')) : undefined;
const listed = offered ? TOOL_TABLE.filter((t) => offered.has(t.name)) : TOOL_TABLE;

function help(tool: ToolHelp): string {
  const lines = [`${tool.name}: ${tool.summary}`, `Returns ${tool.returns}.`, '', 'Arguments:'];
  for (const p of tool.params) lines.push(`  ${p.name} (${p.type}${p.required ? ', required' : ''}): ${p.doc}`);
  lines.push('', 'Example:', `  tools ${tool.name} '${JSON.stringify(tool.example)}'`);
  return lines.join('\n');
}

async function call(name: string, rawArgs: string | undefined): Promise<number> {
  let args: unknown = {};
  if (rawArgs !== undefined && rawArgs.trim() !== '') {
    try {
      args = JSON.parse(rawArgs);
    } catch (error) {
      process.stdout.write(`Error: invalid JSON arguments: ${(error as Error).message}\n`);
      return 2;
    }
  }
  const reply = await execute(gatewayFromEnv(), name, args);
  process.stdout.write(reply.text.endsWith('\n') ? reply.text : reply.text + '\n');
  return reply.ok ? 0 : 1;
}

/**
 * `tools --batch`: many calls in one process. Reads JSON Lines `{"tool": NAME, "args": {...}}` from
 * standard input and answers each, in order, with one line `{"ok", "tool", "text", "truncated"}`.
 */
async function batch(): Promise<number> {
  const gateway = gatewayFromEnv();
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let request: { tool?: unknown; args?: unknown };
    try {
      request = JSON.parse(line) as typeof request;
    } catch (error) {
      process.stdout.write(JSON.stringify({ ok: false, tool: null, text: `Error: invalid JSON request: ${(error as Error).message}`, truncated: false }) + '\n');
      continue;
    }
    const reply = typeof request.tool === 'string'
      ? await execute(gateway, request.tool, request.args ?? {})
      : { ok: false, tool: null, text: 'Error: a request is {"tool": "<name>", "args": {...}}', truncated: false };
    process.stdout.write(JSON.stringify(reply) + '\n');
  }
  return 0;
}

/**
 * `tools --ping`: exit 0 when the gateway answers (the harness checks this before an agent runs). Retries
 * for a few seconds: the relay to the gateway starts with the container.
 */
async function ping(): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const reply = await getJson(gatewayFromEnv(), '/healthz', 5_000);
      process.stdout.write(`gateway ok (tools in ${String(reply.mode)} mode)\n`);
      return 0;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

async function main(argv: string[]): Promise<number> {
  const [first, second] = argv;
  if (!first || first === '--help' || first === '-h') {
    process.stdout.write(`${USAGE}\n\nTools:\n${listed.map((t) => `  ${t.name.padEnd(24)} ${t.summary}`).join('\n')}\n`);
    return first ? 0 : 2;
  }
  if (first === '--list') {
    process.stdout.write(listed.map((t) => t.name).join('\n') + '\n');
    return 0;
  }
  if (first === '--forward') return forward(argv[1], argv[2]);
  if (first === '--trial') return runTrial();
  if (first === '--ping') return ping();
  if (first === '--batch') return batch();
  const tool = byName.get(first);
  if (second === '--help' || second === '-h') {
    if (!tool) {
      process.stderr.write(`tools: unknown tool '${first}'; run tools --list\n`);
      return 2;
    }
    process.stdout.write(help(tool) + (tool.name !== first ? `\n(${first} is another name for ${tool.name})` : '') + '\n');
    return 0;
  }
  return call(first, second);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`tools: ${error.message}\n`);
    process.exit(3);
  },
);
