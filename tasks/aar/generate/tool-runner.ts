import path from 'node:path';
import { runProgram } from '../../../pycompat/interpreter/program.js';
import { checkToolArgs, findTool } from '../../../tools/catalog/index.js';
import { createProviderContext } from '../../../tools/providers/registry.js';
import type { Endpoints } from '../../../tools/providers/index.js';
import type { ProviderContext } from '../../../tools/providers/types.js';
import { ToolService } from '../../../tools/service.js';
import { callIdentity } from '../../../tools/store/canonical.js';
import type { Recorder } from '../../../tools/store/provenance.js';
import { ResponseStore } from '../../../tools/store/store.js';
import type { ConcreteCall } from '../world/golden-calls.js';
import { WorldStore } from '../world/described/store.js';
import type { GenerateConfig } from './config.js';

/**
 * The one place where the pipeline meets the tool service and its modes. Every call of a generation run
 * (the crawl's pages, every chain's steps) goes through `call`; each answer the run saw is written to the
 * output store (`<out>/store/`), so an oracle replaying the generated legs gets exactly what the
 * generation got.
 *
 *   live    the providers answer; the tool service records into the output store itself
 *   record  the providers answer, recorded into tools.store; each answer copied to the output store
 *   replay  tools.store (or tools.world, a described world) answers; each answer copied
 *   pinned  tools.store answers; a call it lacks is made live and recorded into it (issue 34's pinned
 *           world); each answer copied
 *
 * A store written (the output store; tools.store in record and pinned modes) records its provenance:
 * when, which harness version, which mode and endpoints (tools/store/provenance.ts, `aar world info`).
 * Answers are cut at tools.output_limit as an agent's are, so the crawl reads no fact an agent cannot see.
 * python_execute_code runs in the golden executor's interpreter, as the golden executor runs it.
 */

/** A folder under the output store that never holds entries: a world's overlay when it has none. */
const NO_OVERLAY = '.no-overlay';

export interface ToolAnswer {
  ok: boolean;
  text: string;
}

export interface ToolStats {
  calls: number;
  failed: number;
  byTool: Record<string, number>;
  /** Answers written to the output store (one per distinct call). */
  stored: number;
}

export class GenerationTools {
  readonly stats: ToolStats = { calls: 0, failed: 0, byTool: {}, stored: 0 };
  private readonly service: ToolService;
  private readonly source: ResponseStore | undefined;
  private readonly copied = new Set<string>();

  constructor(
    readonly mode: GenerateConfig['tools']['mode'],
    private readonly out: ResponseStore,
    options: { store?: ResponseStore; endpoints?: Partial<Endpoints>; allowAddresses?: string[]; outputLimit?: number; providers?: ProviderContext } = {},
  ) {
    if (mode !== 'live' && !options.store) throw new Error(`tools.mode ${mode} needs tools.store or tools.world`);
    this.source = mode === 'live' ? undefined : options.store;
    const providers = mode === 'replay' ? undefined : (options.providers ?? createProviderContext({ endpoints: options.endpoints ?? {}, httpOptions: { allowAddresses: options.allowAddresses } }));
    this.service = new ToolService({ mode: mode === 'live' ? 'record' : mode, store: mode === 'live' ? out : options.store, outputLimit: options.outputLimit, ...(providers ? { providers } : {}) });
  }

  /** The tools of a generation config, writing seen answers to `outDir`; stores written record `harnessVersion` in their provenance. */
  static fromConfig(tools: GenerateConfig['tools'], resolve: (p: string) => string, outDir: string, harnessVersion: string): GenerationTools {
    const providers = tools.mode === 'replay' ? undefined : createProviderContext({ endpoints: tools.endpoints as Partial<Endpoints>, httpOptions: { allowAddresses: tools.allow_addresses } });
    const recorder = (mode: Recorder['mode']): Recorder => ({ harnessVersion, mode, endpoints: { ...(providers?.endpoints ?? {}) } });
    // The output store's answers: synthetic from a described world, else as recorded (live, or copied from a recorded store).
    const out = new ResponseStore(outDir, { recorder: recorder(tools.world ? 'synthesize' : tools.mode === 'pinned' ? 'pinned' : 'record') });
    let store: ResponseStore | undefined;
    // A world may sit under a store of recorded answers (tools.store), which then come first.
    if (tools.world) store = WorldStore.fromFile(resolve(tools.world), tools.store ? resolve(tools.store) : path.join(outDir, NO_OVERLAY));
    else if (tools.store) store = new ResponseStore(resolve(tools.store), tools.mode === 'record' || tools.mode === 'pinned' ? { recorder: recorder(tools.mode) } : {});
    return new GenerationTools(tools.mode, out, { store, providers, outputLimit: tools.output_limit });
  }

  async call(call: ConcreteCall): Promise<ToolAnswer> {
    this.stats.calls++;
    this.stats.byTool[call.tool] = (this.stats.byTool[call.tool] ?? 0) + 1;
    const answer = call.tool === 'python_execute_code' ? runPython(call.args.code) : await this.viaService(call);
    if (!answer.ok) this.stats.failed++;
    return answer;
  }

  private async viaService(call: ConcreteCall): Promise<ToolAnswer> {
    const outcome = await this.service.call(call.tool, call.args);
    if (outcome.ok && !outcome.refused) this.copy(call);
    return { ok: outcome.ok, text: outcome.text };
  }

  /** The source store's whole entry (never the truncated text) into the output store, once per call. */
  private copy(call: ConcreteCall): void {
    const tool = findTool(call.tool);
    const checked = tool && checkToolArgs(tool, call.args);
    if (!tool || !checked?.ok) return;
    const id = callIdentity(tool.name, checked.args);
    if (this.copied.has(id.key)) return;
    this.copied.add(id.key);
    if (!this.source) {
      this.stats.stored++; // live: the service recorded it into the output store itself
      return;
    }
    const entry = this.source.get(id);
    if (!entry) return;
    this.out.put(id, { ok: entry.ok, text: entry.text, ...(entry.resolved_url ? { resolvedUrl: entry.resolved_url } : {}) }, entry.source, entry.note);
    this.stats.stored++;
  }
}

function runPython(code: unknown): ToolAnswer {
  if (typeof code !== 'string') return { ok: false, text: 'Error: python_execute_code needs code' };
  const result = runProgram(code);
  return result.ok ? { ok: true, text: result.stdout } : { ok: false, text: `Error: ${result.message}` };
}
