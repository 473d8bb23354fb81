import { hostSecrets } from '../common/secrets.js';
import { checkToolArgs, findTool, TOOLS, type ToolDefinition } from './catalog/index.js';
import { runOnHost } from './providers/registry.js';
import type { ProviderContext, ToolResult } from './providers/types.js';
import { callIdentity, type CallIdentity } from './store/canonical.js';
import { entryToResult, type ResponseStore } from './store/store.js';
import type { TrialToolSession } from './session.js';
import { PAPER_OUTPUT_LIMIT, truncateOutput } from './truncate.js';
import { ResponseCache } from './response-cache.js';

import type { ToolMode } from './modes.js';

// In a module of their own so the job config's schema can name them without loading the providers.
export { TOOL_MODES, type ToolMode } from './modes.js';

export interface ToolServiceOptions {
  mode: ToolMode;
  /** Needed for record, replay and pinned. */
  store?: ResponseStore;
  /** Needed for live, record and pinned. */
  providers?: ProviderContext;
  /** Tool outputs longer than this many characters are cut (default: the paper's 8,000). */
  outputLimit?: number;
  /** The tools the job's task family offers (default: the whole catalog); others are unknown to agents. */
  offered?: readonly string[];
}

/** One tool call as the gateway answers and logs it. */
export interface ToolCallOutcome {
  /** The catalog name (aliases resolved), or the name as called when unknown. */
  tool: string;
  ok: boolean;
  /** What the agent sees: truncated, with a note where it was cut. */
  text: string;
  truncated: boolean;
  fullLength: number;
  resolvedUrl?: string;
  /** Where the response came from. */
  source: 'provider' | 'cache' | 'store' | 'container' | 'gateway';
  providerError?: string;
  /** The gateway did not run the call at all (unknown tool, a tool in the wrong place): never credited in scoring. */
  refused?: true;
  /** The name as called, when it was an alias of `tool` (the log then records both). */
  calledAs?: string;
}

const failure = (tool: string, raw: string): ToolCallOutcome => {
  // A provider's error can name the URL it called, the key in its query.
  const message = hostSecrets.text(raw);
  return { tool, ok: false, text: `Error: ${message}`, truncated: false, fullLength: message.length + 7, source: 'gateway' };
};

/** A provider's answer with every host key and trial token masked (common/secrets.ts): an upstream may echo its request. */
function masked(result: ToolResult): ToolResult {
  const { text, providerError, resolvedUrl } = result;
  return {
    ...result,
    text: hostSecrets.text(text),
    ...(providerError === undefined ? {} : { providerError: hostSecrets.text(providerError) }),
    ...(resolvedUrl === undefined ? {} : { resolvedUrl: hostSecrets.text(resolvedUrl) }),
  };
}

/** A call the gateway refuses without running it: the agent sees `Error: <message>`; the log marks it refused. */
export const refusal = (tool: string, message: string): ToolCallOutcome => ({ ...failure(tool, message), refused: true });

/**
 * Executes tool calls for every trial of a job: argument checks, the response cache shared by all trials
 * (tools/response-cache.ts: concurrent identical calls wait for one upstream request), the tools' world (live,
 * record, replay, pinned: tools/modes.ts), and truncation.
 */
export class ToolService {
  private readonly responses = new ResponseCache();
  readonly outputLimit: number;

  constructor(private readonly options: ToolServiceOptions) {
    if (options.mode !== 'live' && !options.store) throw new Error(`tool mode ${options.mode} needs a store`);
    if (options.mode !== 'replay' && !options.providers) throw new Error(`tool mode ${options.mode} needs provider settings`);
    this.outputLimit = options.outputLimit ?? PAPER_OUTPUT_LIMIT;
  }

  get mode(): ToolMode {
    return this.options.mode;
  }

  /**
   * `session`: the calling trial's tool session, which serves the tools placed in `trial-session`; `leg`: the
   * calling trial's task id, whose own answers in a replay store come before the shared ones.
   */
  async call(name: string, rawArgs: unknown, session?: TrialToolSession, leg?: string): Promise<ToolCallOutcome> {
    const offered = this.options.offered ?? TOOLS.map((t) => t.name);
    const tool = findTool(name);
    if (!tool || !offered.includes(tool.name)) return refusal(name, `unknown tool '${name}'. Available: ${offered.join(', ')}`);
    const outcome = await this.callTool(tool, rawArgs, session, leg);
    return tool.name === name ? outcome : { ...outcome, calledAs: name };
  }

  /** A call of a tool the job offers, its name resolved (here, once per call). */
  private async callTool(tool: ToolDefinition, rawArgs: unknown, session?: TrialToolSession, leg?: string): Promise<ToolCallOutcome> {
    if (tool.runsIn === 'container') return refusal(tool.name, `${tool.name} runs inside your container: call it with the tools command`);
    const checked = checkToolArgs(tool, rawArgs ?? {});
    if (!checked.ok) return failure(tool.name, checked.error);
    if (tool.provider === 'trial-session') {
      if (!session) return failure(tool.name, `${tool.name} has no state in this trial`);
      return this.finish(tool.name, session.call(tool.name, checked.args), 'gateway');
    }
    const id = callIdentity(tool.name, checked.args);
    // A leg with its own answer in the store shares the cache only with its own trials.
    const stored = this.options.mode === 'replay' || this.options.mode === 'pinned';
    const ownLeg = stored && leg !== undefined && this.options.store!.hasLegEntry(id, leg) ? leg : undefined;
    const cacheKey = ownLeg === undefined ? id.key : `${id.key} ${ownLeg}`;

    let source: ToolCallOutcome['source'] = 'cache';
    let pending = this.responses.get(cacheKey);
    if (!pending) {
      const fetched = this.fetch(tool, id, checked.args, ownLeg);
      pending = this.responses.add(cacheKey, fetched.then((f) => f.result));
      source = await fetched.then((f) => f.source, () => 'provider' as const);
    }
    let result: ToolResult;
    try {
      result = await pending;
    } catch (error) {
      return failure(tool.name, `${tool.name} failed: ${(error as Error).message}`);
    }
    return this.finish(tool.name, result, source);
  }

  /** A call that ran inside the container (python_execute_code), reported for the log and truncated. */
  report(name: string, output: { ok: boolean; text: string }): ToolCallOutcome {
    const tool = findTool(name);
    if (!tool || tool.runsIn !== 'container') return refusal(name, `only tools that run in the container can be reported, not '${name}'`);
    return this.finish(tool.name, { ok: output.ok, text: output.text }, 'container');
  }

  /** One call's answer, and where it came from: the store, or the provider (recorded in record and pinned modes). */
  private async fetch(tool: ToolDefinition, id: CallIdentity, args: Record<string, unknown>, leg?: string): Promise<{ result: ToolResult; source: 'store' | 'provider' }> {
    const { mode, store, providers } = this.options;
    if (mode === 'replay' || mode === 'pinned') {
      const entry = store!.get(id, leg);
      if (entry) return { result: entryToResult(entry), source: 'store' };
      if (mode === 'replay') {
        return { result: { ok: false, text: `Error: no recorded response for ${id.tool} ${id.args} (tool mode is replay)`, providerError: 'replay miss' }, source: 'store' };
      }
    }
    const result = masked(await runOnHost(tool, args, providers!));
    if (mode === 'record' && !result.transient) store!.put(id, result, 'live');
    // Pinned: the first answer recorded for a call is the world's, also when another process recorded it meanwhile.
    if (mode === 'pinned' && !result.transient) return { result: entryToResult(store!.putIfAbsent(id, result, 'live').entry), source: 'provider' };
    return { result, source: 'provider' };
  }

  /** The outcome the agent sees: masked before it is cut, so a cut never leaves part of a secret. */
  private finish(tool: string, unmasked: ToolResult, source: ToolCallOutcome['source']): ToolCallOutcome {
    const result = masked(unmasked);
    const cut = truncateOutput(result.text, this.outputLimit);
    return {
      tool,
      ok: result.ok,
      text: cut.text,
      truncated: cut.truncated,
      fullLength: cut.fullLength,
      source,
      ...(result.resolvedUrl ? { resolvedUrl: result.resolvedUrl } : {}),
      ...(result.providerError ? { providerError: result.providerError } : {}),
    };
  }
}
