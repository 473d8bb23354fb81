import { Ledger } from '../../../../tasks/aar/generate/ledger.js';
import type { ModelClient } from '../../../../tasks/aar/generate/model/client.js';
import { scriptedReply } from '../../../../tasks/aar/generate/model/scripted.js';
import { withoutTitles, type ClueView } from '../../../../tasks/aar/generate/verbalize/clues.js';
import { alignment, numberedClues, ruleImpliedCode, ruleReadSteps } from '../../../../tasks/aar/generate/verbalize/reader.js';
import { templateRiddle } from '../../../../tasks/aar/generate/verbalize/template.js';
import { verbalize } from '../../../../tasks/aar/generate/verbalize/verbalize.js';
import type { Leg } from '../../../../tasks/aar/schema.js';
import { wiki } from './helpers.js';

/** A small leg (page, page, roadblock, detour, finish) and its clue view, written by hand. */
const step = (tool_name: string, args: Record<string, string>, output_key: string) => ({ tool_name, arguments: args, expected_output: null, output_key });
const bridge = (type: string, extra: Partial<Leg['stops'][number]['bridge']> = {}) => ({ bridge_type: type, target_url: null, search_query: null, expected_result_url: null, tool_chain: [], expression: null, expression_code: null, referenced_stops: [], ...extra });
const stop = (index: number, stop_type: 'page' | 'tool' | 'reason' | 'compute', page_url: string | null, value: number, b = bridge('link_follow')) => ({ index, stop_type, page_url, extraction_target: 't', extraction_section: null, extracted_value: value, extracted_value_type: 'number', bridge: b, reasoning: '', reason_transform: null, reason_source_stop: null, reason_code: null });
const leg: Leg = {
  trail_id: 't',
  seed_url: wiki('Port Alder'),
  seed_title: 'Port Alder',
  stops: [
    stop(0, 'page', wiki('Port Alder'), 48213),
    stop(1, 'page', wiki('Alder Bridge'), 486),
    stop(2, 'tool', wiki('Alder Bridge'), 209.6, bridge('tool_call', { tool_chain: [step('maps_geocode', { address: 'Port Alder' }, 'coords'), step('maps_elevation', {}, 'elevation')] })),
    { ...stop(3, 'reason', wiki('Alder Bridge'), 17), reason_transform: 'digit_sum', reason_source_stop: 1 },
    stop(4, 'compute', null, 2, bridge('compute', { expression: '(486 + 209 + 17) % 10', referenced_stops: [1, 2, 3] })),
  ],
  passcode: 2,
  difficulty: { level: 'easy', depth: 5, tool_stop_count: 1, reason_stop_count: 1, extraction_difficulty: 'infobox', bridge_obscurity: 'direct_link' },
  riddle: '',
  metadata: { theme: 't', difficulty: 'easy', sample_id: 's', pages_crawled: 2 },
  generated_at: '2025-01-01',
};
const view: ClueView = {
  forbidden: ['Port Alder', 'Alder Bridge'],
  stops: [
    { n: 1, kind: 'page', via: 'start', from: null, place: 'a lakeside town', ask: 'how many people live there' },
    { n: 2, kind: 'page', via: 'link', from: 1, place: 'a steel arch bridge across the harbour', ask: 'how long it is, by its own figure' },
    { n: 3, kind: 'lookup', ask: 'Look up the elevation (height above sea level, in metres) of the place given as its location on the page of clue 2.' },
    { n: 4, kind: 'detour', of: 2, transform: 'the sum of its digits' },
    { n: 5, kind: 'finish', op: 'sum_mod10', clues: [2, 3, 4] },
  ],
};
const options = { minAlignment: 0.7, attempts: 2 };

/** A model that answers each step's prompt by a function of its own. */
function model(replies: Partial<Record<'verbalize' | 'roundtrip', (user: string) => string>>): ModelClient & { asked: string[] } {
  const asked: string[] = [];
  return {
    name: 'test-model',
    steps: new Set(['verbalize', 'roundtrip']),
    usage: {} as ModelClient['usage'],
    asked,
    async ask(step, _system, user) {
      asked.push(step);
      return (replies[step as 'verbalize' | 'roundtrip'] ?? scriptedReply)(user);
    },
  };
}

describe('step 8, verbalize', () => {
  test('the template riddle: one numbered clue per stop, no title, no tool, aligned, implying y*', async () => {
    const riddle = templateRiddle(view);
    expect(numberedClues(riddle).map((c) => c.n)).toEqual([1, 2, 3, 4, 5]);
    expect(riddle).toContain('In symbols: (clue 2 + clue 3 + clue 4) % 10.');
    expect(ruleImpliedCode(riddle, new Map([[2, 486], [3, 209.6], [4, 17]]))).toBe(2);
    expect(alignment(leg, ruleReadSteps(riddle))).toBeGreaterThanOrEqual(0.7);
    const r = await verbalize(leg, view, undefined, options, new Ledger());
    expect(r).toEqual({ ok: true, value: { riddle, alignment: expect.any(Number), implied: 2 } });
  });

  test('a circumlocution loses every forbidden title and the words left dangling', () => {
    expect(withoutTitles('a lakeside town on the southern shore of Lake Miren in Veldrania', ['Lake Miren'])).toBe('a lakeside town on the southern shore');
    expect(withoutTitles('a steel arch bridge across the harbour of Port Alder, designed by Tomas Erlund', ['Port Alder'])).toBe('a steel arch bridge across the harbour');
  });

  test('each gate refuses its riddle: clue count, a title (after one correction), a tool name, low alignment, another code', async () => {
    const riddle = templateRiddle(view);
    const reasons = async (m: ModelClient) => {
      const ledger = new Ledger();
      const r = await verbalize(leg, view, m, options, ledger);
      return { result: r.ok ? 'kept' : r.reason, reasons: Object.values(ledger.toJson().verbalize?.riddles?.reasons ?? {}).map((x) => x.example) };
    };
    const short = await reasons(model({ verbalize: () => riddle.split('\n\n').slice(0, 4).join('\n\n') }));
    expect(short.reasons[0]).toMatch(/^the riddle has 4 numbered clues for 5 stops/);
    const leaky = model({ verbalize: (user) => (user.includes('<<DATA correct>>') ? riddle.replace('a steel arch bridge', 'the Alder Bridge') : riddle.replace('a steel arch bridge', 'the Port Alder bridge')) });
    const leak = await reasons(leaky);
    expect(leak.reasons[0]).toBe('the riddle names "Alder Bridge"');
    expect(leaky.asked.filter((s) => s === 'verbalize')).toHaveLength(4); // two attempts, each corrected once
    expect((await reasons(model({ verbalize: () => riddle.replace('Look up the elevation', 'Call maps_elevation for the elevation') }))).reasons[0]).toBe('the riddle names the tool maps_elevation');
    const lost = await reasons(model({ roundtrip: (user) => (user.includes('<<DATA implied>>') ? '2' : JSON.stringify([{ page_or_topic: 'x', what_to_find: 'y', tool_or_method: 'z' }])) }));
    expect(lost.reasons[0]).toMatch(/^round-trip alignment 0\.\d+ is below 0\.7$/);
    const wrong = await reasons(model({ roundtrip: (user) => (user.includes('<<DATA implied>>') ? 'It comes to\n7' : scriptedReply(user)) }));
    expect(wrong.reasons[0]).toBe('the riddle implies 7, the golden code is 2');
    expect(wrong.result).toBe('no riddle passed its gates in 2 attempts (last: the riddle implies 7, the golden code is 2)');
    const silent = await reasons(model({ roundtrip: (user) => (user.includes('<<DATA implied>>') ? 'I cannot tell.' : scriptedReply(user)) }));
    expect(silent.reasons[0]).toMatch(/^the implied-code reply holds no digit \(the reply began "I cannot tell\."\)$/);
    expect((await reasons(model({}))).result).toBe('kept');
  });
});
