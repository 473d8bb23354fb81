import { chatAssembler } from './chat-stream.js';
import { openaiPrices } from './prices.js';
import { responsesAssembler } from './responses-stream.js';
import { chatTranscript, responsesTranscript } from './transcript.js';
import { errorText, num, obj, str, type Json, type ModelApiModule } from '../types.js';

/** OpenAI Responses and Chat Completions. Its base URL includes /v1 (as OPENAI_BASE_URL). */
export const openaiApi: ModelApiModule = {
  id: 'openai',
  defaultBaseUrl: 'https://api.openai.com/v1',
  prices: openaiPrices,
  keyVariable: 'OPENAI_API_KEY',
  routes: [
    { path: '/openai/v1/responses', api: 'openai-responses', counted: true, upstreamPath: '/responses', transcript: responsesTranscript },
    { path: '/openai/v1/chat/completions', api: 'openai-chat', counted: true, upstreamPath: '/chat/completions', transcript: chatTranscript },
  ],
  authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  errorBody: (type, message, code) => ({ error: { message, type, code: code ?? null, param: null } }),
  unreachableType: 'server_error',
  /** Chat Completions streams report usage only when asked: ask, so the gateway can count the tokens. */
  upstreamBody(api, raw, json) {
    if (api !== 'openai-chat' || json.stream !== true) return raw;
    const options = json.stream_options;
    const current = options && typeof options === 'object' ? (options as Json) : {};
    if (current.include_usage === true) return raw;
    return Buffer.from(JSON.stringify({ ...json, stream_options: { ...current, include_usage: true } }));
  },
  /** Responses (`input_tokens`) and Chat Completions (`prompt_tokens`) usage; input already includes the cached tokens. */
  tokens(usage) {
    const details = obj(usage.input_tokens_details) ?? obj(usage.prompt_tokens_details);
    return {
      input: num(usage.input_tokens ?? usage.prompt_tokens),
      output: num(usage.output_tokens ?? usage.completion_tokens),
      cached: num(details?.cached_tokens),
      cacheWrite: 0,
    };
  },
  /** Responses: the usage of response.completed (or .incomplete / .failed). Chat: the last chunk carrying `usage`. */
  onStreamEvent(api, type, data, state) {
    if (api === 'openai-responses') {
      const response = obj(data.response);
      if (response) state.model = str(response.model) ?? state.model;
      if (response && obj(response.usage)) state.usage = obj(response.usage);
      if (type === 'response.failed') state.error = errorText(response?.error ?? 'response.failed');
      else if (type === 'error') state.error = errorText(data);
    } else {
      state.model = str(data.model) ?? state.model;
      if (obj(data.usage)) state.usage = obj(data.usage);
      if (obj(data.error)) state.error = errorText(data);
    }
  },
  assembler: (api) => (api === 'openai-responses' ? responsesAssembler() : chatAssembler()),
  examples: {
    'openai-responses': {
      request: { model: 'gpt-4o-mini', instructions: 'Be brief.', input: 'What is 2 + 2?' },
      response: { object: 'response', model: 'gpt-4o-mini', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '4' }] }], usage: { input_tokens: 12, output_tokens: 1 } },
    },
    'openai-chat': {
      request: { model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'What is 2 + 2?' }] },
      response: { object: 'chat.completion', model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: '4' }, finish_reason: 'stop' }], usage: { prompt_tokens: 12, completion_tokens: 1 } },
    },
  },
};
