import { readFileSync, existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createModelHandler, type ModelHandlerOptions } from '../../../../harness/gateway/models/proxy.js';
import { parseSse } from '../../../../harness/gateway/models/sse.js';
import { GatewayServer, type ModelHandler } from '../../../../harness/gateway/server.js';
import type { GatewayTrial, TrialBudget } from '../../../../harness/gateway/trials.js';
import { ResponseStore } from '../../../../tools/store/store.js';
import { ToolService } from '../../../../tools/service.js';
import { tempDir } from '../../../helpers/data.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../../../doubles/scripted-model/server.js';
import type { ScriptTurn } from '../../../doubles/scripted-model/script.js';

export const HOST_ANTHROPIC_KEY = 'sk-ant-host-test-key';
export const HOST_OPENAI_KEY = 'sk-openai-host-test-key';

/** A gateway (tools in replay mode on an empty store) with the model handler, on loopback TCP. */
export interface ModelGateway {
  url: string;
  gateway: GatewayServer;
  newTrial(budget?: TrialBudget): GatewayTrial;
  logOf(trial: GatewayTrial): Record<string, unknown>[];
  close(): Promise<void>;
}

/** `options` of the proxy (test keys, short backoff), or a model handler of its own (the local model). */
export async function startModelGateway(options: ModelHandlerOptions | ModelHandler): Promise<ModelGateway> {
  const dirs = tempDir('aar-models-test-');
  const tools = new ToolService({ mode: 'replay', store: new ResponseStore(path.join(dirs.dir, 'store')) });
  const gateway = new GatewayServer({
    tools,
    models:
      typeof options === 'function'
        ? options
        : createModelHandler({ anthropicApiKey: HOST_ANTHROPIC_KEY, openaiApiKey: HOST_OPENAI_KEY, backoff: { backoffBaseMs: 5, backoffMaxMs: 20 }, ...options }),
  });
  const url = await gateway.listenTcp();
  let n = 0;
  return {
    url,
    gateway,
    newTrial: (budget) => {
      n++;
      return gateway.trials.register({ trialId: `t${n}`, toolLogPath: path.join(dirs.dir, `t${n}.tools.jsonl`), modelLogPath: path.join(dirs.dir, `t${n}.model_log.jsonl`), budget });
    },
    logOf: (trial) =>
      trial.modelLogPath && existsSync(trial.modelLogPath)
        ? readFileSync(trial.modelLogPath, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)
        : [],
    close: async () => {
      await gateway.close();
      dirs.cleanup();
    },
  };
}

/** A small upstream answering with a handler of its own (failures, slow streams). */
export async function startAdHocUpstream(handler: (req: IncomingMessage, res: ServerResponse, body: string, n: number) => void | Promise<void>) {
  let n = 0;
  const bodies: string[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    bodies.push(body);
    await handler(req, res, body, ++n);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    bodies,
    get calls() {
      return n;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// Requests shaped like the frameworks' (see /work/shared/docs/AGENT-CLIS.md).

const BASH_TOOL = {
  name: 'Bash',
  description: 'Executes a given bash command',
  input_schema: {
    type: 'object',
    properties: { command: { type: 'string' }, timeout: { type: 'number' }, description: { type: 'string' }, run_in_background: { type: 'boolean' } },
    required: ['command'],
  },
};
const READ_TOOL = { name: 'Read', description: 'Reads a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } };

/** Claude Code: Messages, always streaming, Bash among its tools. */
export function claudeCodeBody(messages: unknown[], stream = true) {
  return { model: 'claude-sonnet-4-6', max_tokens: 32000, stream, system: [{ type: 'text', text: 'You are Claude Code.' }], messages, tools: [READ_TOOL, BASH_TOOL] };
}

export function claudeCodeHeaders(token: string): Record<string, string> {
  return { 'content-type': 'application/json', 'x-api-key': token, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14', 'user-agent': 'claude-cli/2.1.332 (external, sdk-cli)' };
}

/** Codex: Responses, streaming, store false, exec_command {cmd}. */
export function codexBody(input: unknown[], stream = true) {
  return {
    model: 'gpt-5.4',
    instructions: 'You are Codex.',
    input: [{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'sandbox: danger-full-access' }] }, ...input],
    tools: [
      { type: 'function', name: 'exec_command', description: 'Runs a command', strict: false, parameters: { type: 'object', properties: { cmd: { type: 'string' }, workdir: { type: 'string' } }, required: ['cmd'] } },
      { type: 'function', name: 'write_stdin', description: 'Writes to a session', strict: false, parameters: { type: 'object', properties: { session_id: { type: 'number' }, chars: { type: 'string' } } } },
    ],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    store: false,
    stream,
  };
}

/** mini-swe-agent through litellm: Chat Completions, no tools. */
export function miniSweBody(messages: unknown[], stream = false) {
  return { model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You are a helpful assistant.' }, ...messages], ...(stream ? { stream: true } : {}) };
}

export const json = { 'content-type': 'application/json' };
export const bearer = (token: string) => ({ ...json, authorization: `Bearer ${token}` });

export async function postJson(url: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text), events: () => parseSse(text) };
}

/** The data of SSE events as JSON (skipping [DONE]). */
export const eventData = (events: { data: string }[]) => events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data) as Record<string, any>);

/** A scripted model server and a model gateway in front of it, started before a file's tests and stopped after. */
export function useScriptedGateway(script: readonly ScriptTurn[]): { upstream: ScriptedModelServer; gw: ModelGateway } {
  const env = {} as { upstream: ScriptedModelServer; gw: ModelGateway };
  beforeAll(async () => {
    env.upstream = await startScriptedModelServer({ script });
    env.gw = await startModelGateway({ anthropicBaseUrl: env.upstream.anthropicBaseUrl, openaiBaseUrl: env.upstream.openaiBaseUrl });
  });
  afterAll(async () => {
    await env.gw.close();
    await env.upstream.stop();
  });
  return env;
}
