/**
 * Token counts of one model request, the same way for every API:
 * - `input`: every prompt token the model read, cached or not. Anthropic reports uncached input, cache
 *   reads and cache writes apart (input_tokens + cache_read_input_tokens + cache_creation_input_tokens);
 *   OpenAI's input_tokens / prompt_tokens already include the cached ones.
 * - `cached`: the part of `input` read from the prompt cache (Anthropic cache_read_input_tokens, OpenAI
 *   input_tokens_details.cached_tokens / prompt_tokens_details.cached_tokens). Cache writes are not cached
 *   tokens; they are `cacheWrite` (Anthropic cache_creation_input_tokens, priced apart, also part of input).
 * - `output`: output tokens, reasoning included (OpenAI counts reasoning inside output_tokens).
 */
export interface RequestTokens {
  input: number;
  output: number;
  cached: number;
  cacheWrite: number;
}
