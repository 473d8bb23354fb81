/**
 * The part of node-llama-cpp's API the local model uses, declared here: the runtime is not a dependency of
 * this package (its prebuilt binaries for every GPU and CPU weigh 677 MB) but installed on first use into a
 * cache, for this machine's CPU alone (runtime.ts). These shapes follow the pinned LLAMA_RUNTIME_VERSION;
 * the local-model tests load the real runtime through them.
 */

export interface ChatModelFunctionCall {
  type: 'functionCall';
  name: string;
  description?: string;
  params: unknown;
  result: unknown;
}

export type ChatHistoryItem =
  | { type: 'system'; text: string }
  | { type: 'user'; text: string }
  | { type: 'model'; response: (string | ChatModelFunctionCall)[] };

/** The JSON-schema subset the runtime turns into a grammar (schema.ts builds only these shapes). */
export type GbnfJsonSchema =
  | { type: 'string' | 'number' | 'integer' | 'boolean' | 'null' }
  | { enum: (string | number | boolean | null)[] }
  | { const: string | number | boolean | null }
  | { oneOf: GbnfJsonSchema[] }
  | { type: 'array'; items: GbnfJsonSchema }
  | { type: 'object'; properties: Record<string, GbnfJsonSchema>; additionalProperties?: false };

export type ChatModelFunctions = Readonly<Record<string, { readonly description?: string; readonly params?: GbnfJsonSchema }>>;

export interface TokenMeterState {
  usedInputTokens: number;
  usedOutputTokens: number;
}

export interface LlamaContextSequence {
  readonly tokenMeter: { getState(): TokenMeterState };
  clearHistory(): Promise<void>;
}

export interface LlamaContext {
  readonly totalSequences: number;
  getSequence(): LlamaContextSequence;
  dispose(): Promise<void>;
}

export interface LlamaModel {
  readonly filename?: string;
  readonly trainContextSize: number;
  readonly tokenizer: unknown;
  createContext(options: { contextSize: number; sequences: number; threads: number }): Promise<LlamaContext>;
  dispose(): Promise<void>;
}

export interface LlamaGrammar {
  readonly grammar: string;
}

export interface Llama {
  loadModel(options: { modelPath: string }): Promise<LlamaModel>;
  createGrammarForJsonSchema(schema: GbnfJsonSchema): Promise<LlamaGrammar>;
  dispose(): Promise<void>;
}

export interface ChatWrapper {
  generateContextState(options: { chatHistory: ChatHistoryItem[]; availableFunctions?: ChatModelFunctions }): {
    contextText: { tokenize(tokenizer: unknown): readonly unknown[] };
  };
}

export interface GenerateOptions {
  maxTokens: number;
  signal?: AbortSignal;
  stopOnAbortSignal: boolean;
  temperature: number;
  grammar?: LlamaGrammar;
  functions?: ChatModelFunctions;
  onTextChunk?: (text: string) => void;
}

export interface GenerateResult {
  response: string;
  functionCalls?: { functionName: string; params?: unknown }[];
  metadata: { stopReason: string };
}

export interface LlamaChat {
  readonly chatWrapper: ChatWrapper;
  generateResponse(history: ChatHistoryItem[], options: GenerateOptions): Promise<GenerateResult>;
  dispose(options: { disposeSequence: boolean }): void;
}

/** The module's exports the engine calls. */
export interface LlamaRuntime {
  getLlama(options: { gpu: false; build: 'never'; progressLogs: boolean; logLevel: never }): Promise<Llama>;
  LlamaChat: new (options: { contextSequence: LlamaContextSequence; chatWrapper: ChatWrapper; autoDisposeSequence: boolean }) => LlamaChat;
  resolveChatWrapper(model: LlamaModel): ChatWrapper;
  TokenMeter: { diff(meter: { getState(): TokenMeterState }, before: TokenMeterState): TokenMeterState };
}
