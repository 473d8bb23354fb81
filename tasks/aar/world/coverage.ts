import type { StoredAnswer } from '../../family.js';
import type { LoadedLeg } from '../load.js';
import { runChain } from './golden-calls.js';

class Gap extends Error {}

/**
 * The calls of a leg's golden path a stored world has no answer to: the pages of its page stops, and its golden
 * tool chains' calls up to the first one missing (a later call's arguments come from that one's answer).
 * python_execute_code runs in the container and needs no answer.
 */
export async function storeGaps(loaded: LoadedLeg, answer: StoredAnswer): Promise<string[]> {
  const gaps: string[] = [];
  const ask = (tool: string, args: Record<string, unknown>): string => {
    const text = answer(tool, args);
    if (text === undefined) {
      gaps.push(`${tool} ${JSON.stringify(args)}`);
      throw new Gap();
    }
    return text;
  };
  for (const stop of loaded.leg.stops) {
    try {
      if (stop.stop_type === 'page' && stop.page_url) ask('fetch_webpage', { url: stop.page_url });
      if (stop.stop_type !== 'tool' || !stop.bridge.tool_chain.length) continue;
      await runChain(stop.bridge.tool_chain, async (call) => (call.tool === 'python_execute_code' ? String(stop.extracted_value) : ask(call.tool, call.args)));
    } catch (error) {
      if (!(error instanceof Gap)) gaps.push(`stop ${stop.index}: ${(error as Error).message}`);
    }
  }
  return [...new Set(gaps)];
}
