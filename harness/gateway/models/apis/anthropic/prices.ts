import type { ModelPrices } from '../types.js';

/** Anthropic's models: USD per million tokens, standard (non-batch) API rates as published in mid 2026; check them before relying on costs. */
export const anthropicPrices: ModelPrices = {
  'claude-opus-4-7': { input: 5.00, output: 25.00, cached_input: 0.50, cache_write: 6.25 },
  'claude-opus-4-6': { input: 5.00, output: 25.00, cached_input: 0.50, cache_write: 6.25 },
  'claude-opus-4-5': { input: 5.00, output: 25.00, cached_input: 0.50, cache_write: 6.25 },
  'claude-opus-4-1': { input: 15.00, output: 75.00, cached_input: 1.50, cache_write: 18.75 },
  'claude-opus-4-0': { input: 15.00, output: 75.00, cached_input: 1.50, cache_write: 18.75 },
  'claude-opus-4': { input: 15.00, output: 75.00, cached_input: 1.50, cache_write: 18.75 },
  'claude-sonnet-4-6': { input: 3.00, output: 15.00, cached_input: 0.30, cache_write: 3.75 },
  'claude-sonnet-4-5': { input: 3.00, output: 15.00, cached_input: 0.30, cache_write: 3.75 },
  'claude-sonnet-4-0': { input: 3.00, output: 15.00, cached_input: 0.30, cache_write: 3.75 },
  'claude-sonnet-4': { input: 3.00, output: 15.00, cached_input: 0.30, cache_write: 3.75 },
  'claude-3-7-sonnet': { input: 3.00, output: 15.00, cached_input: 0.30, cache_write: 3.75 },
  'claude-haiku-4-5': { input: 1.00, output: 5.00, cached_input: 0.10, cache_write: 1.25 },
  'claude-3-5-haiku': { input: 0.80, output: 4.00, cached_input: 0.08, cache_write: 1.00 },
};
