import { jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { chromiumAvailable, collectPageErrors, launchChromium } from '../../../bench/browser.js';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { dockerAvailable } from '../../../common/docker.js';
import type { TrialScore } from '../../../tasks/aar/scoring/score.js';
import { CLIENT_BUNDLE } from '../../../verifier/html/client.js';
import { loadJobResults, type TrialResult } from '../../../verifier/results.js';
import { AAR_BIN, runAar } from '../../helpers/cli.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';
import { writeJobConfig } from '../../helpers/jobs.js';

/**
 * The HTML report of a real job (the built-in oracle and random agents on the example legs, in Docker),
 * opened in headless Chromium (Debian's chromium, driven by puppeteer-core). Screenshots go to
 * test-artifacts/html-report/ (gitignored).
 */
const HAVE_DOCKER = await dockerAvailable();
const HAVE_CHROMIUM = chromiumAvailable();
const describeBrowser = HAVE_DOCKER && HAVE_CHROMIUM ? describe : describe.skip;
if (!HAVE_DOCKER || !HAVE_CHROMIUM) console.warn(`HTML report browser tests skipped: ${HAVE_DOCKER ? '' : 'no Docker engine; '}${HAVE_CHROMIUM ? '' : 'no chromium (.ci/run installs it)'}`);

jest.setTimeout(300_000);

const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts', 'html-report');

const pct1 = (v: number) => `${(100 * v).toFixed(1)}%`;

describeBrowser('the HTML report in Chromium', () => {
  const tmp = tempDir('aar-html-test-');
  let browser: Browser;
  let jobDir: string;
  let results: TrialResult<TrialScore>[];
  let reportFile: string;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const config = writeJobConfig(tmp.dir, { name: 'h10c-html-report', agents: [{ name: 'oracle' }, { name: 'random' }] });
    const summary = await runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10 });
    expect(summary).toMatchObject({ planned: 6, ran: 6, infraErrors: 0 });
    jobDir = summary.jobDir;
    results = loadJobResults<TrialScore>(jobDir);
    reportFile = path.join(tmp.dir, 'report.html');
    const made = runAar(['report', jobDir, '--format', 'html', '--out', reportFile]);
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    tmp.cleanup();
  });

  const open = async (url: string): Promise<{ page: Page; errors: string[] }> => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1360, height: 900 });
    const errors = collectPageErrors(page);
    // Offline: a report that fetched anything (a CDN, a font) would fail here.
    await page.setRequestInterception(true);
    page.on('request', (request) => void (request.url().startsWith('http') && !request.url().startsWith('http://127.0.0.1') ? request.abort() : request.continue()));
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('#trials-table tbody tr');
    return { page, errors };
  };

  test('the overview shows every configuration with the figures of its score.json files, and the charts as SVG', async () => {
    const { page, errors } = await open(pathToFileURL(reportFile).href);
    for (const agent of ['oracle', 'random']) {
      const scores = results.filter((r) => r.record.agent.id === agent).map((r) => r.score!);
      const fa = scores.filter((s) => s.fa === 1).length / scores.length;
      const pvr = scores.reduce((a, s) => a + s.pvr!, 0) / scores.length;
      const shown = (figure: string) => page.$eval(`.figure[data-agent="${agent}"][data-figure="${figure}"] .value`, (e) => e.textContent);
      expect(await shown('fa')).toBe(pct1(fa));
      expect(await shown('pvr')).toBe(pct1(pvr));
    }
    expect(await page.$eval('.figure[data-agent="oracle"][data-figure="fa"] .value', (e) => e.textContent)).toBe('100.0%');
    const charts = await page.$$eval('figure.chart', (figs) => figs.map((f) => ({ title: f.querySelector('strong')?.textContent, svg: !!f.querySelector('svg .mark-rect, svg .mark-symbol') })));
    expect(charts.map((c) => c.title)).toEqual(['FA, PVR and RCR per level', 'FA, PVR and RCR per variant', 'All legs (Figure 5a)', 'Linear → DAG', 'Time vs FA']);
    expect(charts.every((c) => c.svg)).toBe(true);
    const analysis = await page.$$eval('#analysis details.analysis', (ds) => ds.map((d) => d.querySelector('table')?.getAttribute('data-table') ?? null));
    expect(analysis).toEqual(expect.arrayContaining(['paired', 'effort', 'frontier', 'table11', 'table12']));
    await page.screenshot({ path: path.join(ARTIFACTS, 'overview.png'), clip: { x: 0, y: 0, width: 1360, height: 1700 } });
    await page.screenshot({ path: path.join(ARTIFACTS, 'overview-full.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  test('the aggregate table fits a 1,400 px window: no column left off to the right (issue 35)', async () => {
    const { page, errors } = await open(pathToFileURL(reportFile).href);
    await page.setViewport({ width: 1400, height: 900 });
    const [scrollWidth, clientWidth] = await page.$eval('#aggregate .scroll', (e) => [e.scrollWidth, e.clientWidth]);
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    // The interval sits under its figure, and the last column is on the page.
    expect(await page.$eval('#aggregate table.aggregate tbody tr td:nth-child(5) .ci', (e) => e.textContent)).toMatch(/^\[\d+\.\d, \d+\.\d\]$/);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('the trials table lists every trial with its score, filters and sorts', async () => {
    const { page, errors } = await open(pathToFileURL(reportFile).href);
    const rows = await page.$$eval('#trials-table tbody tr', (trs) =>
      trs.map((tr) => ({ id: tr.getAttribute('data-trial'), fa: tr.querySelector('[data-key="fa"]')?.textContent, pvr: tr.querySelector('[data-key="pvr"]')?.textContent })),
    );
    expect(rows).toHaveLength(results.length);
    for (const r of results) {
      const row = rows.find((x) => x.id === r.record.trial_id);
      expect(row).toEqual({ id: r.record.trial_id, fa: String(r.score!.fa), pvr: `${(100 * r.score!.pvr!).toFixed(0)}%` });
    }
    await page.select('#filter-agent', 'random');
    expect(await page.$$eval('#trials-table tbody tr', (trs) => trs.map((t) => t.querySelector('td')?.textContent))).toEqual(['random', 'random', 'random']);
    await page.select('#filter-agent', '');
    await page.click('#trials-table th[data-key="pvr"]');
    await page.click('#trials-table th[data-key="pvr"]');
    const sorted = await page.$$eval('#trials-table tbody tr [data-key="pvr"]', (tds) => tds.map((t) => parseFloat(t.textContent ?? '')));
    expect(sorted).toEqual([...sorted].sort((a, b) => b - a));
    expect(await page.$eval('#trials-table th[data-key="pvr"]', (e) => e.textContent)).toMatch(/▼$/);
    await page.type('#filter-text', 'examples-dag');
    const dag = results.filter((r) => r.record.leg.id.includes('examples-dag')).length;
    expect(await page.$$eval('#trials-table tbody tr', (trs) => trs.length)).toBe(dag);
    expect(await page.$eval('#trial-count', (e) => e.textContent)).toBe(`(${dag} of ${results.length})`);
    expect(await page.$eval('#trials-more', (e) => (e as HTMLElement).hidden)).toBe(true);
    await page.screenshot({ path: path.join(ARTIFACTS, 'trials-filtered.png'), fullPage: true });
    // The page runs the script bundled from verifier/html/browser/ (dist/viewer-client.js), inlined as it is.
    const inline = await page.$$eval('script:not([type])', (ss) => ss.map((s) => s.textContent));
    expect(inline).toEqual([readFileSync(CLIENT_BUNDLE, 'utf8')]);
    await page.goto(`${pathToFileURL(reportFile).href}#trial/no-such-trial`);
    await page.waitForSelector('#trial-page:not([hidden]) h2');
    expect(await page.$eval('#trial-page h2', (e) => e.textContent)).toBe('No trial no-such-trial in this report');
    expect(errors).toEqual([]);
  });

  test('a trial link opens its page: answer, score, golden trace and tool calls as stored', async () => {
    const { page, errors } = await open(pathToFileURL(reportFile).href);
    const trial = results.find((r) => r.record.agent.id === 'oracle' && r.record.leg.id.includes('examples-dag'))!;
    await page.click(`#trials-table tbody tr[data-trial="${trial.record.trial_id}"] a`);
    await page.waitForSelector('#trial-page:not([hidden]) #trial-title');
    expect(await page.evaluate(() => location.hash)).toBe(`#trial/${encodeURIComponent(trial.record.trial_id)}`);
    expect(await page.$eval('#overview', (e) => (e as HTMLElement).hidden)).toBe(true);
    expect(await page.$eval('#trial-answer', (e) => e.textContent)).toBe(readFileSync(path.join(trial.dir, 'answer.txt'), 'utf8').trim());
    expect(await page.$eval('#trial-expected', (e) => e.textContent)).toBe(trial.score!.expected_answer);
    expect(JSON.parse((await page.$eval('#trial-score', (e) => e.textContent))!)).toEqual(JSON.parse(readFileSync(path.join(trial.dir, 'score.json'), 'utf8')));
    const tables = await page.$$eval('#trial-page section.detail', (sections) =>
      sections.map((s) => ({ title: s.querySelector('h3')?.textContent, rows: s.querySelectorAll('tbody tr').length, misses: s.querySelectorAll('tbody tr.miss').length })),
    );
    const leg = JSON.parse(readFileSync(path.join(trial.dir, 'leg.json'), 'utf8')) as { stops: unknown[] };
    const calls = readFileSync(path.join(trial.dir, 'tool_log.jsonl'), 'utf8').split('\n').filter(Boolean).length;
    expect(tables[0]).toMatchObject({ title: expect.stringMatching(/^Golden trace/), rows: leg.stops.length, misses: 0 });
    expect(tables.find((t) => t.title?.startsWith('Tool calls'))).toEqual({ title: `Tool calls (${calls})`, rows: calls, misses: 0 });
    // The conversation: the oracle uses no model, so its tool calls alone, each linked to the golden stops it served.
    expect(await page.$$eval('#conversation article.step.tool', (as) => as.map((a) => a.getAttribute('data-call')))).toEqual(Array.from({ length: calls }, (_, i) => String(i + 1)));
    const jump = await page.$eval('#conversation button.jump', (b) => b.getAttribute('data-jump'));
    expect(jump).toMatch(/^stop-\d+$/);
    await page.click('#conversation button.jump');
    await page.waitForSelector(`#${jump}.flash`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'trial.png'), clip: { x: 0, y: 0, width: 1360, height: 1500 } });
    await page.screenshot({ path: path.join(ARTIFACTS, 'trial-full.png'), fullPage: true });
    // Back to the overview, and a random trial's page says why it failed.
    await page.click('a[href="#trials"]');
    await page.waitForSelector('#overview:not([hidden])');
    const wrong = results.find((r) => r.record.agent.id === 'random' && r.score!.fa === 0);
    if (wrong) {
      await page.goto(`${pathToFileURL(reportFile).href}#trial/${encodeURIComponent(wrong.record.trial_id)}`);
      await page.waitForSelector('#trial-page:not([hidden]) #trial-verdict');
      expect(await page.$eval('#trial-verdict', (e) => e.textContent)).toMatch(/^incorrect|^unknown/);
    }
    expect(errors).toEqual([]);
  });

  test('aar view serves the same report on 127.0.0.1 and prints its URL', async () => {
    const child = spawn(process.execPath, [AAR_BIN, 'view', jobDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`aar view exited (${code}): ${out}`)));
      });
      const { page, errors } = await open(url);
      expect(await page.$$eval('#trials-table tbody tr', (trs) => trs.length)).toBe(results.length);
      expect(await page.$eval('.figure[data-agent="oracle"][data-figure="fa"] .value', (e) => e.textContent)).toBe('100.0%');
      expect(errors).toEqual([]);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
