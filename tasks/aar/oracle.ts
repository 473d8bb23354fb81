/**
 * The oracle agent's program, run inside the trial container (bundled into one file): it follows the
 * leg's golden trace through the `tools` command in batch mode (fetches every page stop, runs every tool chain),
 * recomputes the reason and compute stops, and writes the passcode to /app/answer.txt. Its log says,
 * stop by stop, whether the tool results held the golden value.
 *
 *   node oracle.cjs LEG.json     (or loaded by the trial runner into its own process: container/program.ts)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { toolsSession } from '../../container/batch-session.js';
import { startUnlessLoaded } from '../../container/program.js';
import { evaluateExpression, pyStr } from '../../pycompat/interpreter/expression.js';
import { applyTransform } from './golden/transforms.js';
import type { JsonValue, Leg } from './schema.js';
import { runChain, type ConcreteCall } from './world/golden-calls.js';

const shown = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

export async function main([legFile]: string[]): Promise<number> {
  try {
    await solve(legFile);
    return 0;
  } catch (error) {
    console.error(`oracle: ${(error as Error).message}`);
    return 1;
  }
}

async function solve(legFile: string): Promise<void> {
  const tools = toolsSession();
  const callTool = (call: ConcreteCall): Promise<string> => tools.call(call.tool, call.args).then((reply) => reply.text);
  const leg = JSON.parse(readFileSync(legFile, 'utf8')) as Leg;
  const values = new Map<number, unknown>();
  let calls = 0;
  for (const stop of leg.stops) {
    const expected = stop.extracted_value;
    if (stop.stop_type === 'page' && stop.page_url) {
      calls++;
      const page = await callTool({ tool: 'fetch_webpage', args: { url: stop.page_url } });
      console.log(`stop ${stop.index} page ${stop.page_url}: ${page.includes(shown(expected)) ? 'found' : 'NOT found'} ${shown(expected)}`);
    } else if (stop.stop_type === 'tool') {
      const outputs = await runChain(stop.bridge.tool_chain, (call) => {
        calls++;
        return callTool(call);
      });
      const last = outputs.at(-1) ?? '';
      console.log(`stop ${stop.index} tool ${stop.bridge.tool_chain.map((s) => s.tool_name).join(' -> ')}: ${last.includes(String(expected)) ? 'found' : 'NOT found'} ${shown(expected)}`);
    } else if (stop.stop_type === 'reason' && stop.reason_transform && stop.reason_source_stop !== null) {
      const source = leg.stops.find((s) => s.index === stop.reason_source_stop)?.extracted_value;
      const outcome = applyTransform(stop.reason_transform, (source ?? null) as JsonValue);
      const got = outcome.ok ? pyStr(outcome.value) : `error: ${outcome.message}`;
      console.log(`stop ${stop.index} reason ${stop.reason_transform}: ${got} (golden ${shown(expected)})`);
    }
    if (stop.stop_type === 'compute' && stop.bridge.expression) {
      const result = evaluateExpression(stop.bridge.expression);
      const got = result.ok ? pyStr(result.value) : `error: ${result.message}`;
      console.log(`stop ${stop.index} compute ${stop.bridge.expression} = ${got}`);
      values.set(stop.index, got);
    }
  }
  const last = [...leg.stops].reverse().find((s) => s.stop_type === 'compute');
  const answer = last ? String(values.get(last.index)) : String(leg.passcode);
  writeFileSync('/app/answer.txt', answer);
  tools.close();
  console.log(`oracle: ${calls} tool calls; answer ${answer}`);
}

startUnlessLoaded(main);
