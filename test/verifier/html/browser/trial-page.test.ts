import { jest } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { chromiumAvailable, collectPageErrors, launchChromium } from '../../../../bench/browser.js';
import { dockerAvailable } from '../../../../common/docker.js';
import { modelHandlerFor } from '../../../../harness/gateway/models/handler.js';
import { runJob } from '../../../../harness/jobs/job.js';
import { QuietReporter } from '../../../../harness/jobs/reporters.js';
import { openGraph } from '../../../../tasks/wikirace/load.js';
import { shortestPath } from '../../../../verifier/html/wikirace/path-figure.js';
import { loadJobResults, type TrialResult } from '../../../../verifier/results.js';
import { startScriptedModelServer, type ScriptedModelServer } from '../../../doubles/scripted-model/index.js';
import { AAR_BIN } from '../../../helpers/cli.js';
import { REPO_ROOT } from '../../../helpers/data.js';
import { wikiraceJobSetup } from '../../../helpers/wikirace-job.js';

/**
 * The trial page as a conversation and `aar view` on a folder of jobs, in headless Chromium, over real
 * WikiRace jobs in Docker: the llm agent against the scripted model (its first reply an XSS attempt), the
 * command agent sending an XSS attempt as a tool argument, the random baseline; and an oracle job beside.
 */
const HAVE_DOCKER = await dockerAvailable();
const HAVE_CHROMIUM = chromiumAvailable();
if (!HAVE_DOCKER || !HAVE_CHROMIUM) console.warn(`trial page browser tests skipped: ${HAVE_DOCKER ? '' : 'no Docker engine; '}${HAVE_CHROMIUM ? '' : 'no chromium'}`);
jest.setTimeout(15 * 60_000);

const HOST_KEY = 'sk-viewer-test-host-key';
const TOKEN = /aar-[0-9a-f]{48}/;
const XSS_REPLY = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script> I am not sure yet.';
const XSS_PAGE = '<img src=x onerror=window.__xss=3>';
const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts', 'html-report');

const { tmp, writeConfig } = wikiraceJobSetup('aar-viewer-test-', [{ split: 'easy', source: 'Page 1', target: 'Page 40' }], {
  timeout_s: 180,
  concurrency: 2,
  resources: { memory_mb: 1024, cpus: 1, pids: 256 },
}, () => {
  process.env.ANTHROPIC_API_KEY = HOST_KEY;
  process.env.OPENAI_API_KEY = HOST_KEY;
});

const lines = (file: string): Record<string, unknown>[] => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);

(HAVE_DOCKER && HAVE_CHROMIUM ? describe : describe.skip)('the trial page and the job list in Chromium', () => {
  let browser: Browser;
  let server: ScriptedModelServer;
  let view: ChildProcess;
  let url: string;
  let trials: TrialResult[];
  const jobsDir = () => path.join(tmp.dir, 'jobs');
  const byAgent = (agent: string) => trials.find((t) => t.record.agent.id.startsWith(agent))!;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const world = await openGraph(path.join(tmp.dir, 'tasks', 'graph'));
    const walk = shortestPath(world, 'Page 1', 'Page 40')!;
    server = await startScriptedModelServer({ script: [{ text: XSS_REPLY }, ...walk.slice(1).map((page) => ({ text: `Closest to the target: \\boxed{${page}}` }))], requireKey: HOST_KEY, turns: 'sequence' });
    const forge = `tools wikirace_move '{"page": "${XSS_PAGE}"}' || true; tools wikirace_move '{"page": "Page 2"}'`;
    const config = writeConfig('viewer', {
      agents: [{ name: 'llm', model: 'claude-sonnet-4-6' }, { name: 'command', options: { command: forge } }, { name: 'random' }],
      models: { anthropic_base_url: server.anthropicBaseUrl, openai_base_url: server.openaiBaseUrl },
    });
    const summary = await runJob({ configPath: config, models: modelHandlerFor, reporter: new QuietReporter() });
    expect(summary).toMatchObject({ planned: 3, infraErrors: 0 });
    await runJob({ configPath: writeConfig('baseline', { agents: [{ name: 'oracle' }] }), reporter: new QuietReporter() });
    trials = loadJobResults(summary.jobDir);
    view = spawn(process.execPath, [AAR_BIN, 'view', jobsDir()], { stdio: ['ignore', 'pipe', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      view.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) resolve(m[1]);
      });
      view.once('exit', (code) => reject(new Error(`aar view exited (${code}): ${out}`)));
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    view?.kill('SIGTERM');
    await browser?.close();
    await server?.stop();
  });

  const open = async (address: string): Promise<{ page: Page; errors: string[] }> => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1360, height: 900 });
    const errors = collectPageErrors(page);
    await page.goto(address, { waitUntil: 'load' });
    return { page, errors };
  };
  const trialUrl = (t: TrialResult, query = '') => `${url}job/viewer/#trial/${encodeURIComponent(path.basename(t.dir))}${query}`;
  const shown = (page: Page, t: TrialResult) => page.waitForSelector(`#trial-page[data-shown="${path.basename(t.dir)}"]`);

  test('aar view on a folder of jobs lists each with its date, agents, legs and figures; a job opens its report', async () => {
    const { page, errors } = await open(url);
    const rows = await page.$$eval('#jobs-table tbody tr', (trs) => trs.map((tr) => ({ job: tr.getAttribute('data-job'), cells: [...tr.querySelectorAll('td')].map((td) => td.textContent) })));
    expect(rows.map((r) => r.job).sort()).toEqual(['baseline', 'viewer']);
    const viewer = rows.find((r) => r.job === 'viewer')!.cells;
    expect(viewer[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(viewer[2]).toBe('wikirace');
    for (const agent of ['llm@claude-sonnet-4-6 (claude-sonnet-4-6)', 'command', 'random']) expect(viewer[3]).toContain(agent);
    expect(viewer[3]).toMatch(/success \d+\.\d%/);
    expect(viewer.slice(4, 6)).toEqual(['1', expect.stringMatching(/^3 \(3 scored, \d correct\)$/)]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'jobs.png'), fullPage: true });
    await Promise.all([page.waitForNavigation(), page.click('#jobs-table tr[data-job="viewer"] a')]);
    expect(page.url()).toBe(`${url}job/viewer/`);
    expect(await page.$$eval('#trials-table tbody tr', (trs) => trs.length)).toBe(3);
    expect(await page.$eval('#totals tr[data-job="viewer"] td:nth-child(2)', (e) => e.textContent)).toBe('3');
    expect(errors).toEqual([]);
  });

  test('the llm trial reads as a conversation: every model turn of the model log in order, merged with the tool calls by time, the XSS reply inert, no secret', async () => {
    const llm = byAgent('llm');
    expect(llm.score).toMatchObject({ success: 1 });
    const { page, errors } = await open(trialUrl(llm));
    await shown(page, llm);
    const modelLog = lines(path.join(llm.dir, 'model_log.jsonl'));
    const toolLog = lines(path.join(llm.dir, 'tool_log.jsonl'));
    expect(modelLog.length).toBe(server.served.turns);
    const steps = await page.$$eval('#conversation article.step', (as) => as.map((a) => (a.classList.contains('model') ? `m${a.getAttribute('data-line')}` : `t${a.getAttribute('data-call')}`)));
    // Both logs in their own order, merged by their times (a model turn first on a tie).
    const expected = [...modelLog.map((l, i) => ({ key: `m${i + 1}`, ts: l.ts as number, kind: 0 })), ...toolLog.map((l, i) => ({ key: `t${i + 1}`, ts: l.ts as number, kind: 1 }))]
      .sort((a, b) => a.ts - b.ts || a.kind - b.kind)
      .map((s) => s.key);
    expect(steps).toEqual(expected);
    // Each turn's answer on the page is the model log's, in order.
    const answers = await page.$$eval('#conversation article.step.model', (as) => as.map((a) => a.querySelector('.msg.response pre.text')?.textContent ?? null));
    expect(answers).toEqual(modelLog.map((l) => ((l.response as { content: { text: string }[] }).content[0].text)));
    expect(answers[0]).toBe(XSS_REPLY);
    // What each request sent: the game state, in a user message.
    expect(await page.$eval('#turn-1 .msg.role-user', (e) => e.textContent)).toContain('Target page: Page 40');
    await page.$$eval('#trial-page details', (ds) => ds.forEach((d) => d.setAttribute('open', '')));
    expect(await page.$$eval('#trial-page img, #trial-page script', (es) => es.length)).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    const html = await page.content();
    expect(html).not.toContain(HOST_KEY);
    expect(html).not.toMatch(TOKEN);
    // The path on the graph: a shortest path walked, every page once.
    const pages = await page.$$eval('.path-figure g.page', (gs) => gs.map((g) => [g.getAttribute('data-title'), g.getAttribute('data-visits')]));
    const walk = shortestPath(await openGraph(path.join(tmp.dir, 'tasks', 'graph')), 'Page 1', 'Page 40')!;
    expect(pages).toEqual(walk.map((t) => [t, '1']));
    await page.$$eval('#trial-page details', (ds) => ds.forEach((d) => d.removeAttribute('open')));
    await page.screenshot({ path: path.join(ARTIFACTS, 'trial-conversation.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  test('a tool argument carrying markup shows as text; the raw files are served as plain text, inside the trial folder only', async () => {
    const command = byAgent('command');
    const { page, errors } = await open(trialUrl(command));
    await shown(page, command);
    const args = await page.$$eval('#conversation article.step.tool pre.args', (ps) => ps.map((p) => p.textContent));
    expect(args[0]).toBe(JSON.stringify({ page: XSS_PAGE }));
    expect(await page.$$eval('#trial-page img, #trial-page script', (es) => es.length)).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    const href = await page.$$eval('a.raw', (as) => as.find((a) => a.textContent === 'tool_log.jsonl')!.getAttribute('href')!);
    const raw = await fetch(new URL(href, page.url()));
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
    expect(raw.headers.get('content-security-policy')).toMatch(/^sandbox/);
    expect(await raw.text()).toBe(readFileSync(path.join(command.dir, 'tool_log.jsonl'), 'utf8'));
    expect((await fetch(new URL(href.replace('tool_log.jsonl', '..%2F..%2Fjob.json'), page.url()))).status).toBe(404);
    expect(errors).toEqual([]);
  });

  test('correct/wrong filter kept in the URL across a reload; previous/next follow the filtered list', async () => {
    const { page, errors } = await open(`${url}job/viewer/`);
    await page.waitForSelector('#trials-table tbody tr');
    const wrong = trials.filter((t) => t.score && !(t.score as { success: number }).success).map((t) => path.basename(t.dir)).sort();
    await page.select('#filter-outcome', 'wrong');
    expect(await page.evaluate(() => location.hash)).toBe('#trials?outcome=wrong');
    const rows = () => page.$$eval('#trials-table tbody tr', (trs) => trs.map((tr) => [tr.getAttribute('data-trial'), tr.getAttribute('data-correct')]));
    expect((await rows()).map((r) => r[0]).sort()).toEqual(wrong);
    expect((await rows()).every((r) => r[1] === 'false')).toBe(true);
    await page.reload();
    await page.waitForSelector('#trials-table tbody tr');
    expect(await page.$eval('#filter-outcome', (e) => (e as HTMLSelectElement).value)).toBe('wrong');
    expect((await rows()).map((r) => r[0]).sort()).toEqual(wrong);
    await page.select('#filter-outcome', 'correct');
    expect((await rows()).every((r) => r[1] === 'true')).toBe(true);
    // All trials sorted by configuration: previous/next walk that order, and keep the filters in their links.
    await page.select('#filter-outcome', '');
    await page.click('#trials-table th[data-key="agent"]');
    const order = (await rows()).map((r) => r[0]!);
    await page.click(`#trials-table tbody tr[data-trial="${order[0]}"] a`);
    await page.waitForSelector(`#trial-page[data-shown="${order[0]}"]`);
    expect(await page.$eval('#trial-position', (e) => e.textContent)).toBe(`1 of ${order.length}`);
    await page.click('#trial-next');
    await page.waitForSelector(`#trial-page[data-shown="${order[1]}"]`);
    expect(await page.evaluate(() => location.hash)).toBe(`#trial/${encodeURIComponent(order[1])}?sort=agent`);
    await page.click('#trial-prev');
    await page.waitForSelector(`#trial-page[data-shown="${order[0]}"]`);
    expect(errors).toEqual([]);
  });
});
