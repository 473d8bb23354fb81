import type { ProviderSpec } from './define.js';

/** An OpenAI-compatible API (`/chat/completions` is appended), for python_generate_code. */
export const codeModel = {
  name: 'code-model',
  endpoints: { codeModel: 'https://api.openai.com/v1' },
  keys: { codeModel: 'OPENAI_API_KEY' },
  limits: { 'code-model': { concurrency: 4, timeoutMs: 120_000, maxAttempts: 3 } },
} as const satisfies ProviderSpec;
