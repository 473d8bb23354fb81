import { readFileSync } from 'node:fs';
import path from 'node:path';
import { scoreTrial } from '../../../../tasks/aar/scoring/score.js';
import { EXAMPLES_DIR } from '../../../helpers/data.js';

const legText = readFileSync(path.join(EXAMPLES_DIR, 'examples-dag/medium/sample_002.json'), 'utf8');
const leg = JSON.parse(legText);

const line = (tool: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ tool, args, success: true, result_preview: '', result_len: 0, ts: 1, ...(typeof args.url === 'string' ? { url: args.url } : {}), ...extra });

describe('paper metrics', () => {
  test('PVR uses the canonical page identity and the page a fetch resolved to', () => {
    const log = [
      line('fetch_webpage', { url: 'http://en.m.wikipedia.org/wiki/danube#Course' }),
      line('fetch_webpage', { url: 'https://en.wikipedia.org/wiki/Euxine' }, { resolved_url: 'https://en.wikipedia.org/wiki/Black_Sea' }),
    ].join('\n');
    const s = scoreTrial(legText, '4', log);
    expect(s.pvr).toBe(1);
    // the reference rule only folds en.m and keeps the scheme and case: neither page counts there
    expect(s.pages_visited).toBe(0);
  });

  test('RCR: every step of a tool stop must have a matching call; python steps match by name', () => {
    const all = [
      line('countries_population', { country: 'romania' }),
      line('maps_search_places', { query: 'Museums in Constanta' }),
      line('python_execute_code', { code: 'print(42)' }),
    ];
    expect(scoreTrial(legText, null, all.join('\n')).rcr).toBe(1);
    expect(scoreTrial(legText, null, all.slice(0, 2).join('\n')).rcr).toBeCloseTo(2 / 3);
    expect(scoreTrial(legText, null, line('countries_population', { country: 'Bulgaria' })).rcr).toBe(0);
  });

  test('a step with nothing comparable matches on the tool name for RCR, never for the reference', () => {
    const elevationLeg = JSON.parse(readFileSync(path.join(EXAMPLES_DIR, 'examples-linear/easy/sample_001.json'), 'utf8'));
    const log = [line('maps_geocode', { address: 'Eiffel Tower' }), line('maps_elevation', { locations: [{ latitude: 48.8, longitude: 2.3 }] })].join('\n');
    const s = scoreTrial(elevationLeg, null, log);
    expect(s.rcr).toBe(1);
    expect(s.right_tool_calls).toBe(1);
    expect(s.golden_chain_length).toBe(2);
  });

  test('diagnosis, shortcut and near miss', () => {
    const nothing = scoreTrial(leg, '3', '');
    expect(nothing).toMatchObject({ fa: 0, status: 'incorrect', diagnosis: 'navigation', shortcut: false });
    const lucky = scoreTrial(leg, String(leg.passcode), '');
    expect(lucky).toMatchObject({ fa: 1, diagnosis: null, shortcut: true, near_miss: false });
    const pages = [line('fetch_webpage', { url: leg.stops[0].page_url }), line('fetch_webpage', { url: leg.stops[1].page_url })];
    expect(scoreTrial(leg, '3', pages.join('\n')).diagnosis).toBe('tool_use');
    const values = leg.stops.map((s: { extracted_value: unknown }) => String(s.extracted_value)).join(' ');
    const full = [...pages, line('countries_population', { country: 'Romania' }), line('maps_search_places', { query: 'museums in Constanta' }), line('python_execute_code', { code: 'x' }, { result_preview: values })];
    const wrong = scoreTrial(leg, '3', full.join('\n'));
    expect(wrong).toMatchObject({ diagnosis: 'computation', near_miss: true, intermediate_rate: 1, pvr: 1, rcr: 1 });
  });

  test('step limit: the whole budget used and no valid answer', () => {
    expect(scoreTrial(leg, null, '', { steps: 10 }).step_limit_hit).toBe(true);
    expect(scoreTrial(leg, 'x', '', { steps: 12 }).step_limit_hit).toBe(true);
    expect(scoreTrial(leg, '3', '', { steps: 10 }).step_limit_hit).toBe(false);
    expect(scoreTrial(leg, null, '', { steps: 9 }).step_limit_hit).toBe(false);
    expect(scoreTrial(leg, null, '', { steps: 3, stepLimitHit: true }).step_limit_hit).toBe(true);
    expect(scoreTrial(leg, null, '').step_budget).toBe(10);
  });

  test('run facts pass through; skipped log lines are counted', () => {
    const s = scoreTrial(leg, '4', 'garbage\n\n[1,2]\n' + line('x', {}), { timedOut: true, wallS: 12.5, inputTokens: 10, costUsd: 0.01 });
    expect(s).toMatchObject({ timed_out: true, wall_s: 12.5, input_tokens: 10, output_tokens: null, cost_usd: 0.01, log_lines_skipped: 2, tool_calls: 1 });
  });
});
