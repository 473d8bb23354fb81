import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { writeSyntheticJob } from '../../../bench/synthetic-trials.js';
import { loadLegs } from '../../../tasks/aar/load.js';
import type { TrialScore } from '../../../tasks/aar/scoring/score.js';
import { aggregate } from '../../../verifier/aggregate.js';
import { buildHtmlReport } from '../../../verifier/html/build.js';
import type { ReportData, TrialDetail } from '../../../verifier/html/model.js';
import { loadJobResults } from '../../../verifier/results.js';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';

/** The embedded data of a report, read back as the page's script reads it. */
function embedded(html: string): { data: ReportData; details: TrialDetail[] } {
  const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]) as ReportData;
  const details = [...html.matchAll(/<script type="application\/x-trial\+deflate-raw\+base64" id="trial-data-(\d+)">(.*?)<\/script>/gs)].map(
    (m) => JSON.parse(inflateRawSync(Buffer.from(m[2], 'base64')).toString('utf8')) as TrialDetail,
  );
  return { data, details };
}

describe('the HTML report, built from trial folders', () => {
  const tmp = tempDir('aar-html-build-');
  afterAll(() => tmp.cleanup());
  let jobA: string;
  let jobB: string;

  beforeAll(async () => {
    const { legs } = await loadLegs(EXAMPLES_DIR);
    jobA = path.join(tmp.dir, 'job-a');
    jobB = path.join(tmp.dir, 'job-b');
    writeSyntheticJob(jobA, legs, 1, { withScores: true });
    writeSyntheticJob(jobB, legs, 2, { withScores: true });
  });

  test('is self-contained: no script, style, image or frame fetched from anywhere', async () => {
    const html = await buildHtmlReport([jobA]);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<(script|img|iframe|link)\b[^>]*\b(src|href)=/i);
    expect(html).not.toMatch(/@import|url\(\s*['"]?https?:/i);
    expect(html.match(/<svg\b/g)?.length).toBeGreaterThanOrEqual(4);
  });

  test('its rows and headline figures are the scores and the aggregate of the job', async () => {
    const html = await buildHtmlReport([jobA]);
    const { data, details } = embedded(html);
    const results = loadJobResults<TrialScore>(jobA);
    expect(data.rows.map((r) => [r.id, r.cells.fa, r.cells.pvr, r.cells.rcr])).toEqual(results.map((r) => [r.record.trial_id, r.score!.fa, r.score!.pvr, r.score!.rcr]));
    expect(details.map((d) => d.score)).toEqual(results.map((r) => r.score));
    const [all] = aggregate<{ fa: { mean: number } }>(results);
    expect(html).toContain(`data-agent="synthetic" data-figure="fa" data-mean="${all.fa.mean}"`);
  });

  test('the golden trace agrees with the score: tool stops completed give RCR, values seen give intermediate_correct', async () => {
    const { details } = embedded(await buildHtmlReport([jobA]));
    for (const d of details) {
      const score = d.score as unknown as TrialScore;
      const [trace] = d.tables;
      expect(trace.title).toMatch(/^Golden trace \(\d+ stops/);
      expect(trace.rows).toHaveLength(score.stops_total);
      const toolStops = trace.rows.filter((r) => r.type === 'tool');
      const completed = toolStops.filter((r) => !String(r.agent).includes('not matched')).length;
      expect(toolStops.length ? completed / toolStops.length : null).toBe(score.rcr);
      expect(trace.rows.filter((r) => String(r.agent).includes('value seen in')).length).toBe(score.intermediate_correct);
      const calls = d.tables.find((t) => t.title.startsWith('Tool calls'))!;
      expect(calls.rows).toHaveLength(score.total_tool_calls);
    }
  });

  test('several jobs: configurations and trial ids carry their job name; compare pairs them', async () => {
    const html = await buildHtmlReport([jobA, jobB]);
    const { data } = embedded(html);
    expect(html).toMatch(/<table class="analysis" data-table="paired">.*?<td>job-a:synthetic<\/td><td>job-b:synthetic<\/td><td>fa<\/td>/s);
    expect(html).toContain('data-table="table11"');
    expect(await buildHtmlReport([jobA])).not.toContain('data-table="paired"');
    expect([...new Set(data.rows.map((r) => r.agent))]).toEqual(['job-a:synthetic', 'job-b:synthetic']);
    expect(new Set(data.rows.map((r) => r.id)).size).toBe(data.rows.length);
    expect(data.jobs).toEqual(['job-a', 'job-b']);
  });

  test('an infrastructure error is listed, not scored; a timeout is diagnosed as such; an unreadable tool-log line is shown as such; model turns with their tokens', async () => {
    const [first, second, third] = loadJobResults(jobB);
    // A run killed at the timeout, without an answer: diagnosed by how it ended.
    const killed = JSON.parse(readFileSync(path.join(third.dir, 'trial.json'), 'utf8'));
    writeFileSync(path.join(third.dir, 'trial.json'), JSON.stringify({ ...killed, status: 'timed_out' }));
    rmSync(path.join(third.dir, 'answer.txt'), { force: true });
    rmSync(path.join(third.dir, 'score.json'));
    const record = JSON.parse(readFileSync(path.join(first.dir, 'trial.json'), 'utf8'));
    writeFileSync(path.join(first.dir, 'trial.json'), JSON.stringify({ ...record, status: 'infra_error', error: 'the engine went away' }));
    rmSync(path.join(first.dir, 'score.json'));
    appendFileSync(path.join(second.dir, 'tool_log.jsonl'), '{not json\n');
    const turn = { ts: 1, api: 'anthropic', model: 'claude-x', stream: false, status: 200, turn: 1, input_tokens: 1200, output_tokens: 80, cached_tokens: 1000, cache_write_tokens: null, cost_usd: 0.0042, latency_ms: 950, attempts: 1 };
    writeFileSync(path.join(second.dir, 'model_log.jsonl'), `${JSON.stringify(turn)}\n${JSON.stringify({ ...turn, turn: null, status: 429, error: 'rate limited' })}\n`);
    const { data, details } = embedded(await buildHtmlReport([jobB]));
    expect(data.rows[0]).toMatchObject({ status: 'infra_error', cells: { fa: null, diagnosis: 'not scored (infrastructure error)' } });
    expect(details[0]).toMatchObject({ score: null, error: 'the engine went away' });
    expect(data.rows[2]).toMatchObject({ status: 'timed_out', cells: { fa: 0, answer: `∅ / ${details[2].score!.expected_answer}`, diagnosis: 'timed out' } });
    const calls = details[1].tables.find((t) => t.title.startsWith('Tool calls'))!;
    expect(calls.rows.at(-1)).toMatchObject({ tool: '(unreadable line)', args: '{not json' });
    const turns = details[1].tables.find((t) => t.title.startsWith('Model turns'))!;
    expect(turns.title).toBe('Model turns (2)');
    expect(turns.rows).toEqual([
      { turn: 1, model: 'claude-x', status: 200, input: 1200, output: 80, cached: 1000, cost: 0.0042, latency: 950, note: null },
      { turn: null, model: 'claude-x', status: 429, input: 1200, output: 80, cached: 1000, cost: 0.0042, latency: 950, note: 'rate limited' },
    ]);
    expect(turns.marks).toEqual([null, 'miss']);
  });

  test('a missing job folder is a one-line error naming it', async () => {
    await expect(buildHtmlReport([path.join(tmp.dir, 'nope')])).rejects.toThrow(`${path.join(tmp.dir, 'nope')}: no such job folder`);
  });
});
