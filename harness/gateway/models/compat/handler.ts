import { hostSecrets } from '../../../../common/secrets.js';
import type { ModelHandler } from '../../server.js';
import { createModelHandler, type ModelHandlerOptions } from '../proxy.js';
import { startCompatFace, type ChatUpstream, type CompatFace } from './face.js';

/**
 * The model gateway with an OpenAI-compatible server as its upstream (`models: {provider: openai-compatible,
 * base_url}`) that speaks Chat Completions: every model API goes through the face on loopback (face.ts,
 * started on the first request), which translates Anthropic Messages (Claude Code) and Responses (Codex)
 * to Chat Completions and back, and passes Chat Completions as they are.
 */
export function openAICompatibleHandler(upstream: ChatUpstream, options: ModelHandlerOptions): ModelHandler & { close(): Promise<void> } {
  // The real key is the face's, never the proxy's: it is masked like the proxy's own.
  hostSecrets.add(upstream.apiKey);
  let started: Promise<{ face: CompatFace; handler: ModelHandler }> | undefined;
  const start = async () => {
    const face = await startCompatFace(upstream);
    const handler = createModelHandler({
      ...options,
      openaiBaseUrl: `${face.url}/v1`,
      openaiApiKey: face.key,
      anthropicBaseUrl: face.url,
      anthropicApiKey: face.key,
    });
    return { face, handler };
  };
  const handler: ModelHandler = async (req, res, trial, readBody) => (await (started ??= start())).handler(req, res, trial, readBody);
  return Object.assign(handler, {
    async close() {
      if (started) await (await started.catch(() => undefined))?.face.close();
    },
  });
}
