import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { AddressPolicy, parseAllowEntry } from '../../../tools/providers/address-guard.js';
import type { Resolver } from '../../../tools/providers/guarded-fetch.js';
import { createProviderContext } from '../../../tools/providers/registry.js';
import { callTool, fakeProviderContext, useFakeUpstreams } from './fakes/index.js';

/** A loopback server that counts the requests it gets; `/hop` redirects to `redirectTo`. */
interface Target {
  server: Server;
  port: number;
  hits: string[];
  redirectTo?: string;
}

async function startTarget(): Promise<Target> {
  const target = { hits: [] as string[] } as Target;
  target.server = createServer((req, res) => {
    target.hits.push(req.url ?? '');
    if (req.url === '/hop' && target.redirectTo) {
      res.writeHead(302, { location: target.redirectTo });
      return res.end();
    }
    if (req.url === '/huge') {
      // 20 MiB of page, sent in pieces
      res.writeHead(200, { 'content-type': 'text/html' });
      const piece = Buffer.alloc(1024 * 1024, 'a');
      for (let i = 0; i < 20; i++) res.write(piece);
      return res.end();
    }
    if (req.url === '/bomb') {
      // 64 KiB on the wire, 64 MiB once decompressed
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      return res.end(gzipSync(Buffer.alloc(64 * 1024 * 1024, 'b')));
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('secret on the host');
  });
  await new Promise<void>((resolve) => target.server.listen(0, '127.0.0.1', resolve));
  target.port = (target.server.address() as AddressInfo).port;
  return target;
}

let a: Target;
let b: Target;
beforeAll(async () => {
  [a, b] = await Promise.all([startTarget(), startTarget()]);
});
afterAll(async () => {
  await Promise.all([a, b].map((t) => new Promise((resolve) => t.server.close(resolve))));
});
beforeEach(() => {
  a.hits.length = 0;
  b.hits.length = 0;
  a.redirectTo = undefined;
});

const quick = { providerDefaults: {}, defaultLimits: { maxAttempts: 1, timeoutMs: 2000 } };
/** Answers 127.0.0.1 for every name, as a hostile or rebinding DNS would. */
const toLoopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

const fetchWith = (url: string, http: Record<string, unknown> = {}) =>
  callTool('fetch_webpage', { url }, createProviderContext({ keys: {}, httpOptions: { ...quick, ...http } }));

describe('the address policy', () => {
  const policy = new AddressPolicy();
  test.each([
    ['127.0.0.1', 'loopback'], ['127.255.0.9', 'loopback'], ['::1', 'loopback'], ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'],
    ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['192.168.1.1', 'private'], ['169.254.169.254', 'linkLocal'], ['fe80::1', 'linkLocal'],
    ['224.0.0.1', 'multicast'], ['ff02::1', 'multicast'], ['0.0.0.0', 'unspecified'], ['::', 'unspecified'], ['100.64.0.1', 'carrierGradeNat'],
    ['fd00::1', 'uniqueLocal'], ['255.255.255.255', 'broadcast'], ['192.0.2.1', 'reserved'],
  ])('%s is refused (%s)', (address, kind) => {
    expect(policy.refusal(address, 80)).toContain(`is a ${kind} address`);
  });

  test.each(['8.8.8.8', '208.80.154.224', '2606:4700::1111'])('%s is public', (address) => {
    expect(policy.refusal(address, 443)).toBeUndefined();
  });

  test('the allow-list: addresses, ranges and ports', () => {
    const allow = new AddressPolicy(['10.0.0.0/8', '127.0.0.1:8080', '[::1]:9000', 'fd00::/8']);
    expect(allow.refusal('10.200.1.1', 1)).toBeUndefined();
    expect(allow.refusal('127.0.0.1', 8080)).toBeUndefined();
    expect(allow.refusal('::ffff:127.0.0.1', 8080)).toBeUndefined();
    expect(allow.refusal('127.0.0.1', 8081)).toMatch(/loopback/);
    expect(allow.refusal('::1', 9000)).toBeUndefined();
    expect(allow.refusal('::1', 9001)).toMatch(/loopback/);
    expect(allow.refusal('fd12::5', 1)).toBeUndefined();
    expect(allow.refusal('192.168.0.1', 8080)).toMatch(/private/);
  });

  test.each(['localhost', 'example.org:80', '10.0.0.0/40', '127.0.0.1:0', '::1:8080x', ''])('a bad allow-list entry %p is one clear error', (entry) => {
    expect(() => parseAllowEntry(entry)).toThrow(/^"/);
  });
});

describe('fetch_webpage refuses non-public targets', () => {
  test.each([
    'http://127.0.0.1:PORT/',
    'http://localhost:PORT/',
    'http://[::1]:PORT/',
    'http://0x7f000001:PORT/',
    'http://2130706433:PORT/',
    'http://017700000001:PORT/',
    'http://127.1:PORT/',
    'http://[::ffff:127.0.0.1]:PORT/',
    'http://0:PORT/',
    'http://169.254.169.254/latest/meta-data/',
  ])('%s is a tool error, and nothing reaches the server', async (spelling) => {
    const r = await fetchWith(spelling.replace('PORT', String(a.port)));
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/^Error: fetching .* failed: .*refused to connect to .*, not a public one/);
    expect(r.text).not.toContain('secret');
    expect(a.hits).toEqual([]);
  });

  test('a public-looking name that resolves to loopback is refused: the address connected is checked', async () => {
    const r = await fetchWith(`http://news.example.com:${a.port}/`, { resolve: toLoopback });
    expect(r.text).toContain(`refused to connect to news.example.com:${a.port}: 127.0.0.1 is a loopback address`);
    expect(a.hits).toEqual([]);
    // Allow-listed, the same name connects to the address the resolver gave: the check and the connection agree.
    const allowed = await fetchWith(`http://news.example.com:${a.port}/page`, { resolve: toLoopback, allowAddresses: [`127.0.0.1:${a.port}`] });
    expect(allowed).toMatchObject({ ok: true, text: 'secret on the host' });
    expect(a.hits).toEqual(['/page']);
  });

  test('every redirect hop is checked: an allow-listed server cannot send the fetch to another loopback port', async () => {
    for (const to of [`http://127.0.0.1:${b.port}/inner`, `http://localhost:${b.port}/inner`, `http://0x7f000001:${b.port}/inner`]) {
      a.redirectTo = to;
      const r = await fetchWith(`http://127.0.0.1:${a.port}/hop`, { allowAddresses: [`127.0.0.1:${a.port}`] });
      expect(r.ok).toBe(false);
      expect(r.text).toMatch(new RegExp(`refused to connect to .*:${b.port}: 127\\.0\\.0\\.1 is a loopback address`));
    }
    expect(b.hits).toEqual([]);
    expect(a.hits).toEqual(['/hop', '/hop', '/hop']);
    a.redirectTo = `http://127.0.0.1:${b.port}/inner`;
    const both = await fetchWith(`http://127.0.0.1:${a.port}/hop`, { allowAddresses: [`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`] });
    expect(both).toMatchObject({ ok: true, text: 'secret on the host', resolvedUrl: `http://127.0.0.1:${b.port}/inner` });
  });

  test('a refusal is not retried', async () => {
    const r = await fetchWith(`http://127.0.0.1:${a.port}/`, { defaultLimits: { maxAttempts: 4, timeoutMs: 2000 } });
    expect(r.text).not.toMatch(/attempts/);
    expect(a.hits).toEqual([]);
  });
});

describe('fetch_webpage bounds what it holds', () => {
  test.each(['/huge', '/bomb'])('an answer over 16 MiB (%s: a huge page, a decompression bomb) is a tool error, not retried', async (page) => {
    const r = await fetchWith(`http://127.0.0.1:${a.port}${page}`, { allowAddresses: [`127.0.0.1:${a.port}`], defaultLimits: { maxAttempts: 3, timeoutMs: 10_000 } });
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/the answer is larger than 16 MiB/);
    expect(a.hits).toEqual([page]);
  });
});

describe('a Wikipedia endpoint whose host holds the agent-chosen {lang}', () => {
  const upstreams = useFakeUpstreams();
  const wikiAt = (allow: string[]) => {
    const port = new URL(upstreams.fakes.servers.wikipedia.url).port;
    const ctx = fakeProviderContext(upstreams.fakes, { http: { resolve: toLoopback, allowAddresses: allow, defaultLimits: { maxAttempts: 1, timeoutMs: 2000 } } });
    return { ...ctx, endpoints: { ...ctx.endpoints, wikipedia: `http://{lang}.wiki.example:${port}/{lang}/w/api.php` } };
  };

  test('is guarded like any URL from the agent', async () => {
    const refused = await callTool('fetch_webpage', { url: 'https://en.wikipedia.org/wiki/Mount_Everest' }, wikiAt([]));
    expect(refused.text).toMatch(/refused to connect to en\.wiki\.example:\d+: 127\.0\.0\.1 is a loopback address/);
    expect(upstreams.fakes.servers.wikipedia.requests()).toHaveLength(0);
    const allowed = await callTool('fetch_webpage', { url: 'https://en.wikipedia.org/wiki/Mount_Everest' }, wikiAt([new URL(upstreams.fakes.servers.wikipedia.url).host]));
    expect(allowed.text).toMatch(/^# Mount Everest/);
  });
});
