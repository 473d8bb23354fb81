import type { ModelPrices } from '../types.js';

/** OpenAI's models: USD per million tokens, standard (non-batch) API rates as published in mid 2026; check them before relying on costs. */
export const openaiPrices: ModelPrices = {
  'gpt-5.5': { input: 5.00, output: 30.00, cached_input: 0.50 },
  'gpt-5.4': { input: 2.50, output: 15.00, cached_input: 0.25 },
  'gpt-5.4-mini': { input: 0.75, output: 4.50, cached_input: 0.075 },
  'gpt-5.2': { input: 1.75, output: 14.00, cached_input: 0.175 },
  'gpt-5.1': { input: 1.25, output: 10.00, cached_input: 0.125 },
  'gpt-5': { input: 1.25, output: 10.00, cached_input: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2.00, cached_input: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.40, cached_input: 0.005 },
  'gpt-4.1': { input: 2.00, output: 8.00, cached_input: 0.50 },
  'gpt-4.1-mini': { input: 0.40, output: 1.60, cached_input: 0.10 },
  'gpt-4.1-nano': { input: 0.10, output: 0.40, cached_input: 0.025 },
  'gpt-4o': { input: 2.50, output: 10.00, cached_input: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.60, cached_input: 0.075 },
  'o3': { input: 2.00, output: 8.00, cached_input: 0.50 },
  'o4-mini': { input: 1.10, output: 4.40, cached_input: 0.275 },
};
