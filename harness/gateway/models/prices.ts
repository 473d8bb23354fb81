import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { RequestTokens } from './tokens.js';

/** USD per million tokens for one model. */
const ModelPriceSchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  /** Input tokens read from the prompt cache. */
  cached_input: z.number().nonnegative(),
  /** Input tokens written to the prompt cache (Anthropic); the input price when absent. */
  cache_write: z.number().nonnegative().optional(),
});

const PriceTableSchema = z.strictObject({
  currency: z.literal('USD').default('USD'),
  unit: z.literal('per_million_tokens').default('per_million_tokens'),
  models: z.record(z.string().min(1), ModelPriceSchema),
});

export type ModelPrice = z.infer<typeof ModelPriceSchema>;
export type PriceTable = z.infer<typeof PriceTableSchema>;

export function parsePriceTable(text: string, source = 'price table'): PriceTable {
  const parsed = PriceTableSchema.safeParse(parseYaml(text));
  if (!parsed.success) throw new Error(`${source}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export function loadPriceTable(file: string): PriceTable {
  return parsePriceTable(readFileSync(file, 'utf8'), file);
}

/** A date suffix of a model name: `-20251001`, `-2024-08-06`, optionally followed by more (e.g. `-v1`). */
const DATED_SUFFIX = /^-(\d{8}|\d{4}-\d{2}-\d{2})(\b|$)/;

/**
 * The price of a model: its exact name, or the longest table name it extends by a date
 * (`claude-haiku-4-5-20251001` -> `claude-haiku-4-5`, `gpt-4o-2024-08-06` -> `gpt-4o`). A name that extends
 * a table name otherwise (`gpt-4o-audio-preview`) has no price, rather than a wrong one.
 */
export function findPrice(table: PriceTable, model: string | undefined): { name: string; price: ModelPrice } | undefined {
  if (!model) return undefined;
  const exact = table.models[model];
  if (exact) return { name: model, price: exact };
  let best: string | undefined;
  for (const name of Object.keys(table.models)) {
    if (model.startsWith(name) && DATED_SUFFIX.test(model.slice(name.length)) && (!best || name.length > best.length)) best = name;
  }
  return best ? { name: best, price: table.models[best] } : undefined;
}

/**
 * Cost in USD of one request: uncached input at the input price, cache reads at the cached price, cache
 * writes at the cache-write price (input price when none), output at the output price. `tokens.input`
 * includes the cached and cache-write tokens (see tokens.ts).
 */
export function requestCost(price: ModelPrice, tokens: RequestTokens): number {
  const uncached = Math.max(0, tokens.input - tokens.cached - tokens.cacheWrite);
  const usd = uncached * price.input + tokens.cached * price.cached_input + tokens.cacheWrite * (price.cache_write ?? price.input) + tokens.output * price.output;
  return usd / 1_000_000;
}
