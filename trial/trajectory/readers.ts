import { Registry } from '../../common/registry.js';
import type { TranscriptReader } from './exchanges.js';

/**
 * The transcript readers by the `api` of a model log line (`anthropic-messages`, `openai-chat`, ...). Each
 * model API brings its own beside its routes and registers it here when it is registered (the model API
 * registry, harness/gateway/models/apis/registry.ts); the trajectory reads each exchange with its API's
 * reader, and a line whose API registered none says so instead of coming out empty.
 */
export const TRANSCRIPT_READERS = new Registry<{ api: string; reader: TranscriptReader }>('model API transcript reader', (r) => r.api);

export const transcriptReader = (api: string): TranscriptReader | undefined => TRANSCRIPT_READERS.find(api)?.reader;
