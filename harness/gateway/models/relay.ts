import type { ServerResponse } from 'node:http';
import { hostSecrets } from '../../../common/secrets.js';
import { clientHeaders } from './headers.js';
import type { ModelApi } from './routes.js';
import { SseReader } from './sse.js';
import type { UpstreamAnswer } from './upstream.js';
import { factsFromJson, StreamUsage, type ResponseFacts } from './usage.js';

/** Largest non-streaming body kept aside to read its usage (it is relayed whatever its size). */
const JSON_USAGE_LIMIT = 32 * 1024 * 1024;

export interface RelayOutcome {
  facts: ResponseFacts;
  /** The whole body reached the client. */
  complete: boolean;
  error?: string;
  clientGone: boolean;
}

/** Writes a chunk, waiting for the client to drain when its buffer is full (or for it to go away). */
function write(res: ServerResponse, chunk: Uint8Array): Promise<void> {
  if (res.write(chunk)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Reads usage from the bytes passing through: SSE events as they arrive, or the JSON body at its end;
 * when `record`, also the answer itself (the body, or the stream reassembled).
 */
function usageTap(api: ModelApi, contentType: string, record: boolean): { push(chunk: Uint8Array): void; facts(): ResponseFacts } {
  if (contentType.includes('text/event-stream')) {
    const usage = new StreamUsage(api, record);
    const sse = new SseReader((event, data) => usage.onEvent(event, data));
    let ended = false;
    return {
      push: (chunk) => sse.push(chunk),
      facts: () => {
        if (!ended) sse.end();
        ended = true;
        return usage.facts();
      },
    };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    push: (chunk) => {
      size += chunk.length;
      if (size <= JSON_USAGE_LIMIT) chunks.push(chunk);
    },
    facts: () => {
      if (size > JSON_USAGE_LIMIT) return {};
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        const body = JSON.parse(text) as unknown;
        return { ...factsFromJson(api, body), ...(record ? { response: body } : {}) };
      } catch {
        return record && text ? { response: text } : {};
      }
    },
  };
}

/**
 * Relays an upstream answer to the client chunk by chunk as it arrives (a stream is never held back),
 * reading its usage (and, when `record`, the answer) on the way. Every host key and trial token is masked in
 * what the client gets, headers too, also when split between chunks (an upstream that echoes its request
 * would otherwise hand the agent the key). A body that stalls for `idleTimeoutMs` is cut, and so is the
 * client's connection, since a partial body cannot be completed any more.
 */
export async function relayAnswer(answer: UpstreamAnswer, res: ServerResponse, api: ModelApi, idleTimeoutMs: number, clientGone: AbortSignal, record: boolean): Promise<RelayOutcome> {
  const tap = usageTap(api, answer.headers.get('content-type') ?? '', record);
  const onClientGone = () => answer.abort(new Error('client closed the connection'));
  clientGone.addEventListener('abort', onClientGone);
  let error: string | undefined;
  const mask = hostSecrets.stream();
  const pass = async (chunk: Uint8Array) => {
    tap.push(chunk);
    const out = mask.push(chunk);
    if (out.length) await write(res, out);
  };
  try {
    res.writeHead(answer.status, Object.fromEntries(Object.entries(clientHeaders(answer.headers)).map(([name, value]) => [name, hostSecrets.text(value)])));
    res.flushHeaders();
    if (answer.first) await pass(answer.first);
    if (answer.reader) {
      for (;;) {
        let idle = false;
        const timer = setTimeout(() => {
          idle = true;
          answer.abort(new Error('upstream stalled'));
        }, idleTimeoutMs);
        try {
          const { done, value } = await answer.reader.read();
          if (done) break;
          await pass(value);
        } catch (e) {
          error = idle ? `upstream sent nothing for ${idleTimeoutMs} ms mid-response` : `upstream body failed: ${(e as Error).message}`;
          break;
        } finally {
          clearTimeout(timer);
        }
        if (clientGone.aborted) break;
      }
    }
  } finally {
    clientGone.removeEventListener('abort', onClientGone);
  }
  if (clientGone.aborted) return { facts: tap.facts(), complete: false, error: 'the client closed the connection', clientGone: true };
  if (error) {
    res.destroy();
    return { facts: tap.facts(), complete: false, error, clientGone: false };
  }
  res.end(mask.end());
  return { facts: tap.facts(), complete: true, clientGone: false };
}
