import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';
import { AddressPolicy, AddressRefusedError, literalAddress } from './address-guard.js';

/** Resolves a host name to all its addresses (tests give one that answers 127.0.0.1 for any name). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

export interface GuardedFetchOptions {
  policy: AddressPolicy;
  resolve?: Resolver;
  /** Redirects followed before giving up (fetch's own limit is 20). */
  maxRedirects?: number;
  /** Most bytes of a body, after decompression (default MAX_BODY_BYTES). */
  maxBodyBytes?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const defaultPort = (url: URL): number => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);

/**
 * A lookup for one connection that hands the socket only addresses the policy allows: the address checked
 * is the address connected, so a name that resolves to a private address (or changes its answer between a
 * check and the connection) gets nowhere.
 */
function guardedLookup(policy: AddressPolicy, resolve: Resolver, port: number, what: string): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const family = typeof options.family === 'number' ? options.family : 0;
        const candidates = found.filter((a) => family === 0 || a.family === family);
        const allowed = candidates.filter((a) => policy.refusal(a.address, port) === undefined);
        if (!allowed.length) {
          const first = candidates[0];
          const why = first ? policy.refusal(first.address, port) : 'no address';
          return callback(new AddressRefusedError(`refused to connect to ${what}: ${why}`), '', 0);
        }
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
        return callback(null, allowed[0].address, allowed[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

/** Most bytes of an answer's body (after decompression) kept in memory: a larger page is refused. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** An answer larger than the limit (a huge page or a decompression bomb): refused, never retried. */
export class ResponseTooLargeError extends Error {
  constructor(limit: number) {
    super(`the answer is larger than ${limit / (1024 * 1024)} MiB`);
    this.name = 'ResponseTooLargeError';
  }
}

/** The response body, decoded from the content encodings fetch would undo; refused past `maxBytes`. */
async function readBody(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoders: Record<string, () => NodeJS.ReadWriteStream> = {
    gzip: () => zlib.createGunzip(),
    'x-gzip': () => zlib.createGunzip(),
    deflate: () => zlib.createInflate(),
    br: () => zlib.createBrotliDecompress(),
  };
  const chunks: Buffer[] = [];
  let size = 0;
  const sink = new PassThrough();
  sink.on('data', (c: Buffer) => {
    size += c.length;
    if (size > maxBytes) sink.destroy(new ResponseTooLargeError(maxBytes));
    else chunks.push(c);
  });
  const decoder = decoders[encoding];
  await (decoder ? pipeline(res, decoder(), sink) : pipeline(res, sink));
  return Buffer.concat(chunks);
}

interface Hop {
  status: number;
  statusText: string;
  headers: Headers;
  location?: string;
  body: Buffer | null;
}

function requestOnce(url: URL, init: RequestInit, options: Required<Omit<GuardedFetchOptions, 'maxRedirects'>>): Promise<Hop> {
  const port = defaultPort(url);
  const literal = literalAddress(url);
  // A literal address is connected without a lookup: check it before any packet leaves.
  if (literal) options.policy.check(literal, port, url.host);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Hop>((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: init.method ?? 'GET',
        headers: init.headers as Record<string, string>,
        signal: init.signal ?? undefined,
        lookup: guardedLookup(options.policy, options.resolve, port, url.host),
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        if (REDIRECTS.has(status) && location) {
          res.resume();
          return resolve({ status, statusText: res.statusMessage ?? '', headers: headersOf(res), location, body: null });
        }
        readBody(res, options.maxBodyBytes).then(
          (body) => resolve({ status, statusText: res.statusMessage ?? '', headers: headersOf(res), body }),
          reject,
        );
      },
    );
    // The connected peer, checked once more (a literal was checked above, a name by the lookup).
    req.on('socket', (socket: Socket) => {
      socket.once('connect', () => {
        const why = socket.remoteAddress ? options.policy.refusal(socket.remoteAddress, port) : undefined;
        if (why) req.destroy(new AddressRefusedError(`refused to connect to ${url.host}: ${why}`));
      });
    });
    req.on('error', reject);
    req.end(init.body as string | undefined);
  });
}

/**
 * fetch for targets an agent chose: http and https only, every hop of a redirect checked by the policy on
 * the address it connects to. A refusal rejects with an AddressRefusedError (as a fetch network failure's
 * `cause`), so the caller can tell it from a network error.
 */
export function guardedFetch(options: GuardedFetchOptions): typeof fetch {
  const resolved = { policy: options.policy, resolve: options.resolve ?? systemResolver, maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES };
  const maxRedirects = options.maxRedirects ?? 20;
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    let current: RequestInit = { ...init };
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('fetch failed', { cause: new AddressRefusedError(`refused to fetch ${url.protocol} URLs: only http and https`) });
      let answer: Hop;
      try {
        answer = await requestOnce(url, current, resolved);
      } catch (error) {
        if ((error as Error).name === 'AbortError' || (error as Error).name === 'TimeoutError') throw init.signal?.reason ?? error;
        throw new TypeError('fetch failed', { cause: error });
      }
      if (answer.location === undefined || current.redirect === 'manual') {
        const nullBody = answer.status === 204 || answer.status === 205 || answer.status === 304;
        const response = new Response(nullBody ? null : new Uint8Array(answer.body ?? Buffer.alloc(0)), {
          status: answer.status,
          statusText: answer.statusText,
          headers: answer.headers,
        });
        Object.defineProperty(response, 'url', { value: url.toString() });
        return response;
      }
      if (hop >= maxRedirects) throw new TypeError('fetch failed', { cause: new Error(`more than ${maxRedirects} redirects`) });
      url = new URL(answer.location, url);
      // As fetch does: 303, and 301/302 after a POST, continue as a GET without a body.
      if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && current.method === 'POST')) {
        current = { ...current, method: 'GET', body: undefined };
      }
    }
  }) as typeof fetch;
}
