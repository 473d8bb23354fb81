import { randomUUID } from 'node:crypto';
import path from 'node:path';
import PQueue from 'p-queue';
import type { ChatHistoryItem, ChatModelFunctions, ChatWrapper, Llama, LlamaChat, LlamaContext, LlamaContextSequence, LlamaModel, LlamaRuntime } from './llama-api.js';
import type { LocalRequest, LocalTool } from './requests.js';
import { loadLlamaRuntime } from './runtime.js';
import { grammarSchema } from './schema.js';

/**
 * A GGUF model loaded once on the host (node-llama-cpp, CPU), answering requests of every trial through a
 * queue: `parallel` sequences of one context generate at a time (batched together by llama.cpp), the rest
 * wait their turn. Each request starts on an empty sequence, so its prompt tokens are all its own.
 */

export interface LocalModelOptions {
  /** The .gguf file. */
  path: string;
  /** Requests generating at once (sequences of the context). */
  parallel?: number;
  /** Tokens per sequence: prompt and answer together (default 8192, at most the model's training size). */
  contextSize?: number;
  /** CPU threads (default 1: on a shared 2-core machine two threads spin against each other and the other
   * processes, and generation falls from ~30 to ~2 tokens/s; see bench/local-model.ts). */
  threads?: number;
  /** Output tokens when a request sets no limit (default 1024). */
  defaultMaxTokens?: number;
}

export interface LocalCall {
  id: string;
  name: string;
  arguments: unknown;
}

export interface LocalReply {
  text: string;
  calls: LocalCall[];
  /** Every token of the prompt as the model read it (the rendered conversation, tools included). */
  inputTokens: number;
  /** Tokens the model generated. */
  outputTokens: number;
  /** `length`: cut at the output limit; `tool`: ended with tool calls; `end`: the model stopped. */
  stop: 'end' | 'length' | 'tool';
}

export interface GenerateHooks {
  /** The prompt fits: generation starts (after the request's wait in the queue). */
  onStart?: (inputTokens: number) => void;
  /** Text as it is generated (not the JSON of a call forced by tool_choice). */
  onText?: (delta: string) => void;
  /** Stops generation (the client went away). */
  signal?: AbortSignal;
}

/** A prompt longer than the context: the server answers it with the API's own context-length error. */
export class ContextLengthError extends Error {
  constructor(
    readonly promptTokens: number,
    readonly contextSize: number,
  ) {
    super(`the prompt has ${promptTokens} tokens; this model's context holds ${contextSize}`);
  }
}

const FORCED_CALL_NOTE = 'Answer with one tool call as JSON: {"name": <tool name>, "arguments": {...}}. The tools:';

export class LocalModel {
  readonly name: string;
  readonly parallel: number;
  private readonly queue: PQueue;
  private readonly free: LlamaContextSequence[] = [];

  private constructor(
    private readonly runtime: LlamaRuntime,
    private readonly llama: Llama,
    readonly model: LlamaModel,
    private readonly context: LlamaContext,
    readonly contextSize: number,
    private readonly defaultMaxTokens: number,
    /** Resolved once: working it out from the model's template takes most of a second per chat. */
    private readonly chatWrapper: ChatWrapper,
  ) {
    this.name = path.basename(model.filename ?? 'local', '.gguf');
    this.parallel = context.totalSequences;
    this.queue = new PQueue({ concurrency: this.parallel });
    for (let i = 0; i < this.parallel; i++) this.free.push(context.getSequence());
  }

  static async load(options: LocalModelOptions): Promise<LocalModel> {
    // build: 'never': the prebuilt binary of the npm package, never a download or a compile at run time.
    const runtime = await loadLlamaRuntime();
    const llama = await runtime.getLlama({ gpu: false, build: 'never', progressLogs: false, logLevel: 'error' as never });
    const model = await llama.loadModel({ modelPath: options.path });
    const contextSize = Math.min(options.contextSize ?? 8192, model.trainContextSize);
    const context = await model.createContext({
      contextSize,
      sequences: options.parallel ?? 1,
      threads: options.threads ?? 1,
    });
    return new LocalModel(runtime, llama, model, context, contextSize, options.defaultMaxTokens ?? 1024, runtime.resolveChatWrapper(model));
  }

  /** Requests waiting for a sequence. */
  get waiting(): number {
    return this.queue.size;
  }

  async dispose(): Promise<void> {
    this.queue.clear();
    await this.context.dispose();
    await this.model.dispose();
    await this.llama.dispose();
  }

  /** Tokens of the request's prompt as the model would read it (count_tokens; the context check). */
  countPrompt(request: LocalRequest): number {
    const chat: LlamaChat = new this.runtime.LlamaChat({ contextSequence: this.free[0] ?? this.context.getSequence(), chatWrapper: this.chatWrapper, autoDisposeSequence: false });
    try {
      return this.promptTokens(chat, request);
    } finally {
      chat.dispose({ disposeSequence: false });
    }
  }

  private historyOf(request: LocalRequest): ChatHistoryItem[] {
    const history = [...request.history];
    if (forcedCall(request)) {
      const tools = toolsFor(request).map((t) => `- ${t.name}: ${t.description ?? ''} arguments ${JSON.stringify(grammarSchema(t.parameters))}`);
      history.unshift({ type: 'system', text: `${FORCED_CALL_NOTE}\n${tools.join('\n')}` });
    }
    return [...history, { type: 'model', response: [] }];
  }

  private promptTokens(chat: LlamaChat, request: LocalRequest): number {
    const functions = forcedCall(request) ? undefined : functionsOf(request);
    const { contextText } = chat.chatWrapper.generateContextState({ chatHistory: this.historyOf(request), availableFunctions: functions });
    return contextText.tokenize(this.model.tokenizer).length;
  }

  /** Answers one request when a sequence is free (see GenerateHooks). */
  generate(request: LocalRequest, hooks: GenerateHooks = {}): Promise<LocalReply> {
    return this.queue.add(() => this.generateOn(request, hooks)) as Promise<LocalReply>;
  }

  private async generateOn(request: LocalRequest, { onStart, onText, signal }: GenerateHooks): Promise<LocalReply> {
    if (signal?.aborted) throw new Error('the client went away before its turn');
    const sequence = this.free.pop()!;
    const chat: LlamaChat = new this.runtime.LlamaChat({ contextSequence: sequence, chatWrapper: this.chatWrapper, autoDisposeSequence: false });
    try {
      await sequence.clearHistory();
      const inputTokens = this.promptTokens(chat, request);
      // One token is left for the first generated one; the answer is cut where the context ends.
      if (inputTokens >= this.contextSize - 1) throw new ContextLengthError(inputTokens, this.contextSize);
      const maxTokens = Math.max(1, Math.min(request.maxTokens ?? this.defaultMaxTokens, this.contextSize - inputTokens - 1));
      onStart?.(inputTokens);
      const before = sequence.tokenMeter.getState();
      const common = { maxTokens, signal, stopOnAbortSignal: true, temperature: request.temperature ?? 0 };
      const history = this.historyOf(request);
      let reply: Omit<LocalReply, 'inputTokens' | 'outputTokens'>;
      if (forcedCall(request)) {
        const tools = toolsFor(request);
        const grammar = await this.llama.createGrammarForJsonSchema({
          oneOf: tools.map((t) => ({ type: 'object' as const, properties: { name: { const: t.name }, arguments: grammarSchema(t.parameters) } })),
        });
        const result = await chat.generateResponse(history, { ...common, grammar });
        reply = parseForcedCall(result.response, result.metadata.stopReason === 'maxTokens');
      } else {
        const result = await chat.generateResponse(history, { ...common, functions: functionsOf(request), onTextChunk: onText });
        const calls = (result.functionCalls ?? []).map((c) => ({ id: callId(), name: c.functionName, arguments: c.params ?? {} }));
        const stop = calls.length ? 'tool' : result.metadata.stopReason === 'maxTokens' ? 'length' : 'end';
        reply = { text: result.response, calls, stop };
      }
      const used = this.runtime.TokenMeter.diff(sequence.tokenMeter, before);
      return { ...reply, inputTokens, outputTokens: used.usedOutputTokens };
    } finally {
      chat.dispose({ disposeSequence: false });
      this.free.push(sequence);
    }
  }
}

const callId = (): string => randomUUID().replace(/-/g, '').slice(0, 24);

const forcedCall = (request: LocalRequest): boolean => (request.toolChoice.kind === 'required' || request.toolChoice.kind === 'tool') && toolsFor(request).length > 0;

function toolsFor(request: LocalRequest): LocalTool[] {
  const choice = request.toolChoice;
  if (choice.kind === 'none') return [];
  if (choice.kind === 'tool') return request.tools.filter((t) => t.name === choice.name);
  return request.tools;
}

function functionsOf(request: LocalRequest): ChatModelFunctions | undefined {
  const tools = toolsFor(request);
  if (!tools.length) return undefined;
  return Object.fromEntries(tools.map((t) => [t.name, { description: t.description, params: grammarSchema(t.parameters) }]));
}

/** The JSON the grammar made the model write: one call, or (cut at the output limit) text. */
function parseForcedCall(text: string, cut: boolean): Omit<LocalReply, 'inputTokens' | 'outputTokens'> {
  try {
    const call = JSON.parse(text) as { name: string; arguments: unknown };
    return { text: '', calls: [{ id: callId(), name: call.name, arguments: call.arguments ?? {} }], stop: 'tool' };
  } catch {
    return { text, calls: [], stop: cut ? 'length' : 'end' };
  }
}
