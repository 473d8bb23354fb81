import { anthropicAssembler } from './stream.js';
import { anthropicPrices } from './prices.js';
import { anthropicTranscript } from './transcript.js';
import { errorText, num, obj, str, type ModelApiModule } from '../types.js';

/** Anthropic Messages. Its base URL has no /v1 (as ANTHROPIC_BASE_URL). */
export const anthropicApi: ModelApiModule = {
  id: 'anthropic',
  defaultBaseUrl: 'https://api.anthropic.com',
  prices: anthropicPrices,
  keyVariable: 'ANTHROPIC_API_KEY',
  routes: [
    { path: '/anthropic/v1/messages', api: 'anthropic-messages', counted: true, upstreamPath: '/v1/messages', transcript: anthropicTranscript },
    { path: '/anthropic/v1/messages/count_tokens', api: 'anthropic-count-tokens', counted: false, upstreamPath: '/v1/messages/count_tokens' },
  ],
  authHeaders: (apiKey) => ({ 'x-api-key': apiKey }),
  errorBody: (type, message) => ({ type: 'error', error: { type, message } }),
  unreachableType: 'api_error',
  /** Uncached input, cache reads and cache writes come apart; `input` is their sum. */
  tokens(usage) {
    const cached = num(usage.cache_read_input_tokens);
    const cacheWrite = num(usage.cache_creation_input_tokens);
    return { input: num(usage.input_tokens) + cached + cacheWrite, output: num(usage.output_tokens), cached, cacheWrite };
  },
  /** message_start's message.usage, then each message_delta's usage (cumulative: the last output_tokens wins). */
  onStreamEvent(_api, type, data, state) {
    const message = obj(data.message);
    if (type === 'message_start' && message) {
      state.model = str(message.model) ?? state.model;
      state.usage = { ...obj(message.usage) };
    } else if (type === 'message_delta' && obj(data.usage)) {
      state.usage = { ...state.usage, ...obj(data.usage) };
    } else if (type === 'error') state.error = errorText(data);
  },
  assembler: () => anthropicAssembler(),
  examples: {
    'anthropic-messages': {
      request: { model: 'claude-haiku-4-5', max_tokens: 64, system: 'Be brief.', messages: [{ role: 'user', content: 'What is 2 + 2?' }] },
      response: { type: 'message', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'text', text: '4' }], stop_reason: 'end_turn', usage: { input_tokens: 12, output_tokens: 1 } },
    },
  },
};
