import { ResponseCache } from '../../tools/response-cache.js';
import type { ToolResult } from '../../tools/providers/types.js';

const ok = (text: string): ToolResult => ({ ok: true, text });
/** Bytes a response takes in the cache: its text and key at two bytes a character. */
const cost = (key: string, text: string): number => 2 * (key.length + text.length);

describe('the response cache', () => {
  test('a call in flight is shared; once finished it is answered from memory', async () => {
    const cache = new ResponseCache();
    let finish!: (r: ToolResult) => void;
    const pending = cache.add('k', new Promise<ToolResult>((resolve) => (finish = resolve)));
    expect(cache.get('k')).toBe(pending);
    finish(ok('page'));
    await pending;
    await expect(cache.get('k')).resolves.toEqual(ok('page'));
  });

  test('finished responses are kept up to the byte budget, least recently used out first', async () => {
    const text = 'x'.repeat(100);
    const cache = new ResponseCache(3 * cost('a', text));
    for (const key of ['a', 'b', 'c']) await cache.add(key, Promise.resolve(ok(text)));
    await cache.get('a'); // used: now the most recent
    await cache.add('d', Promise.resolve(ok(text)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.get('b')).toBeUndefined();
    for (const key of ['a', 'c', 'd']) expect(cache.get(key)).toBeDefined();
  });

  test('transient failures, rejected calls and responses larger than the budget are not kept', async () => {
    const cache = new ResponseCache(1000);
    await cache.add('transient', Promise.resolve({ ok: false, text: 'Error: timeout', transient: true }));
    await cache.add('rejected', Promise.reject(new Error('boom'))).catch(() => {});
    await cache.add('huge', Promise.resolve(ok('y'.repeat(1000))));
    await new Promise((resolve) => setImmediate(resolve));
    for (const key of ['transient', 'rejected', 'huge']) expect(cache.get(key)).toBeUndefined();
  });
});
