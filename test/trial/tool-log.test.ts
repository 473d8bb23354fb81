import { toolLogLine } from '../../harness/gateway/tool-log.js';
import type { ToolCallOutcome } from '../../tools/service.js';
import { RESULT_PREVIEW_CHARS, toolLogText, type ToolLogLine } from '../../trial/tool-log.js';
import { parseToolLog } from '../../tasks/aar/scoring/tool-log.js';

const outcome = (over: Partial<ToolCallOutcome> = {}): ToolCallOutcome => ({
  tool: 'fetch_webpage',
  ok: true,
  text: 'page text',
  truncated: false,
  fullLength: 9,
  source: 'cache',
  ...over,
});

describe('tool_log.jsonl: one line type, written by the gateway, read by the verifier', () => {
  test('the gateway writes the reference fields first, then ours, in the order of ToolLogLine', () => {
    const url = 'https://en.wikipedia.org/wiki/Sofia';
    const text = toolLogLine('fetch', { url }, outcome({ resolvedUrl: url, providerError: 'slow' }), 12.34, 1_700_000_000_000);
    expect(text.endsWith('\n')).toBe(true);
    const line = JSON.parse(text) as ToolLogLine;
    expect(Object.keys(line)).toEqual([
      'tool', 'args', 'success', 'result_preview', 'result_len', 'ts', 'url', 'resolved_url',
      'latency_ms', 'source', 'cache_hit', 'truncated', 'full_len', 'provider_error',
    ]);
    expect(line).toMatchObject({ tool: 'fetch', args: { url }, success: true, result_len: 9, ts: 1_700_000_000, url, latency_ms: 12.3, cache_hit: true, full_len: 9 });
    expect(toolLogText(line)).toBe(text);
  });

  test('optional fields are left out; previews keep the first code points', () => {
    const long = '😀'.repeat(RESULT_PREVIEW_CHARS + 5);
    const line = JSON.parse(toolLogLine('search', undefined, outcome({ text: long, source: 'provider' }), 1)) as ToolLogLine;
    expect(Object.keys(line)).not.toContain('url');
    expect(Object.keys(line)).not.toContain('resolved_url');
    expect(Object.keys(line)).not.toContain('provider_error');
    expect(line.args).toEqual({});
    expect([...line.result_preview]).toHaveLength(RESULT_PREVIEW_CHARS);
    expect(line.result_len).toBe(RESULT_PREVIEW_CHARS + 5);
  });

  test('what the gateway writes, the verifier reads', () => {
    const url = 'https://en.wikipedia.org/wiki/Plovdiv';
    const log = toolLogLine('fetch_webpage', { url }, outcome({ text: 'Plovdiv is a city', resolvedUrl: url }), 5) + toolLogLine('nope', { a: 1 }, outcome({ ok: false }), 1);
    const { calls, skippedLines } = parseToolLog(log);
    expect(skippedLines).toBe(0);
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ tool: 'fetch_webpage', success: true, preview: 'Plovdiv is a city', canonicalName: 'fetch_webpage' });
    expect(calls[0].pages.length).toBeGreaterThan(0);
    expect(calls[1]).toMatchObject({ tool: 'nope', success: false });
  });
});
