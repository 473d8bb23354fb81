/** Small legs and tool logs built inline, for tests that score through `scoreTrial`. */

export interface GoldenStepSpec {
  tool_name: string;
  arguments?: unknown;
}

export interface StopSpec {
  stop_type: 'page' | 'tool' | 'compute' | 'reason';
  page_url?: string | null;
  extracted_value?: unknown;
  bridge?: { tool_chain: GoldenStepSpec[] };
}

export const pageStop = (url: string, value: unknown = null): StopSpec => ({ stop_type: 'page', page_url: url, extracted_value: value });
export const toolStop = (...chain: GoldenStepSpec[]): StopSpec => ({ stop_type: 'tool', page_url: null, extracted_value: null, bridge: { tool_chain: chain } });
export const computeStop = (...chain: GoldenStepSpec[]): StopSpec => ({ stop_type: 'compute', page_url: null, extracted_value: null, bridge: { tool_chain: chain } });
export const reasonStop = (value: unknown = null): StopSpec => ({ stop_type: 'reason', page_url: null, extracted_value: value });
export const step = (tool_name: string, args?: unknown): GoldenStepSpec => (args === undefined ? { tool_name } : { tool_name, arguments: args });

/** A leg object as the data holds it (only what scoring reads). */
export function makeLeg(stops: StopSpec[], passcode: number | string = 7): object {
  return { trail_id: 'inline', passcode, stops: stops.map((s, index) => ({ index, bridge: { tool_chain: [] }, ...s })) };
}

/** One tool-log line in the reference format; `url` is set from args.url unless given. */
export function call(tool: string, args: unknown = {}, extra: Record<string, unknown> = {}): string {
  const url = args && typeof args === 'object' && typeof (args as { url?: unknown }).url === 'string' ? { url: (args as { url: string }).url } : {};
  return JSON.stringify({ tool, args, success: true, result_preview: '', result_len: 0, ts: 1, ...url, ...extra });
}

export const fetchPage = (url: string, extra: Record<string, unknown> = {}): string => call('fetch_webpage', { url }, extra);

export const toolLog = (...lines: string[]): string => lines.join('\n');

/** `n` Wikipedia pages with titles that never contain one another. */
export const wikiPages = (n: number, prefix = 'Page'): string[] =>
  Array.from({ length: n }, (_, i) => `https://en.wikipedia.org/wiki/${prefix}_${String(i).padStart(3, '0')}`);
