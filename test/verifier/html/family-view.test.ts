import { aarFamily } from '../../../tasks/aar/family.js';
import { scoreTrial } from '../../../tasks/aar/scoring/score.js';
import { genericHtmlView, htmlViewOf } from '../../../verifier/html/family-view.js';
import { aggregate } from '../../../verifier/aggregate.js';
import { flatten, toMarkdown } from '../../../verifier/report.js';
import type { TrialResult } from '../../../verifier/results.js';

const LEG = JSON.stringify({
  passcode: 3,
  stops: [{ index: 0, stop_type: 'page', page_url: 'https://en.wikipedia.org/wiki/Danube', extracted_value: 2850, bridge: { tool_chain: [] } }],
});

describe('how a task family is shown', () => {
  test('a family without its own view gets the generic one: its progress label per trial, its report columns as headline', () => {
    const view = genericHtmlView(aarFamily);
    expect(view.columns.map((c) => [c.key, c.label])).toEqual([['success', 'FA'], ['verdict', 'verdict']]);
    const wrong = scoreTrial(LEG, '4', null);
    expect(view.cells(wrong)).toEqual({ success: 0, verdict: 'incorrect (navigation)' });
    expect(view.cells(null)).toEqual({ success: null, verdict: null });
    const record = { agent: { id: 'a', model: null }, leg: { variant: 'v', level: 'easy' }, status: 'completed' } as unknown as TrialResult['record'];
    const [row] = aggregate([{ dir: '-', record, score: wrong }]);
    expect(view.headline(row).map((h) => [h.label, h.value])).toEqual([['FA %', '0.0 [0.0, 79.3]'], ['PVR %', '0.0 [0.0, 100.0]'], ['RCR %', '-'], ['steps', '-']]);
    expect(view.charts([], [])).toEqual([]);
  });

  test('AAR has its own view (verifier/html/aar/view.ts, by its declaration): FA, PVR, RCR and the diagnosis per trial', async () => {
    const view = await htmlViewOf(aarFamily);
    expect(view.columns.map((c) => c.key)).toEqual(['fa', 'pvr', 'rcr', 'answer', 'steps', 'tool_calls', 'cost_usd', 'diagnosis']);
    expect(view.cells(scoreTrial(LEG, '3', null))).toMatchObject({ fa: 1, pvr: 0, answer: '3 / 3', diagnosis: 'correct (shortcut)' });
  });

  test("reports group by the family's slice keys (AAR: variant, level) and name their columns after them; a record without one is an error naming its trial.json and the field", () => {
    expect(aarFamily.sliceKeys).toEqual(['variant', 'level']);
    const wrong = scoreTrial(LEG, '4', null);
    const record = { agent: { id: 'a', model: null }, leg: { id: 'l', variant: 'v', file: 'l.json' }, status: 'completed' } as unknown as TrialResult['record'];
    expect(() => aggregate([{ dir: '/jobs/j/t1', record, score: wrong }])).toThrow('/jobs/j/t1/trial.json: leg.level: expected a string (a slice key of the family), got nothing');
    const full = { ...record, leg: { ...record.leg, level: 'easy' } } as TrialResult['record'];
    const rows = aggregate([{ dir: '/jobs/j/t1', record: full, score: wrong }]);
    expect(rows.map((r) => [r.variant, r.level])).toEqual([['*', '*'], ['v', 'easy']]);
    expect(toMarkdown(rows).split('\n')[0]).toMatch(/^\| agent \| model \| variant \| level \| n \|/);
    expect(Object.keys(flatten(rows[1])).slice(0, 4)).toEqual(['agent', 'model', 'variant', 'level']);
  });
});
