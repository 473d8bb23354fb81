import type { ModelHandler } from '../../server.js';
import { createModelHandler, type ModelHandlerOptions } from '../proxy.js';
import { startMessagesFace, type ChatUpstream, type MessagesFace } from './face.js';

/**
 * The model gateway with an OpenAI-compatible server as its upstream (`models: {provider: openai-compatible,
 * base_url}`): Chat Completions and Responses requests go to it as they are; Anthropic Messages requests
 * (Claude Code) go through the translating face on loopback (face.ts), started on the first request.
 */
export function openAICompatibleHandler(upstream: ChatUpstream, options: ModelHandlerOptions): ModelHandler & { close(): Promise<void> } {
  let started: Promise<{ face: MessagesFace; handler: ModelHandler }> | undefined;
  const start = async () => {
    const face = await startMessagesFace(upstream);
    const handler = createModelHandler({
      ...options,
      openaiBaseUrl: upstream.baseUrl,
      // A server that wants no key gets a placeholder: the proxy refuses to send a request without one.
      openaiApiKey: upstream.apiKey || 'none',
      anthropicBaseUrl: face.url,
      anthropicApiKey: face.key,
    });
    return { face, handler };
  };
  const handler: ModelHandler = async (req, res, trial) => (await (started ??= start())).handler(req, res, trial);
  return Object.assign(handler, {
    async close() {
      if (started) await (await started.catch(() => undefined))?.face.close();
    },
  });
}
