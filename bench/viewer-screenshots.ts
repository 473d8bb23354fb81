/**
 * viewer screenshots: every trial page of a folder of jobs, opened in headless Chromium through `aar view`'s
 * server, saved as PNG, with two checks printed per trial: every model turn of its model_log.jsonl is on the
 * page, in the log's order, and no secret is on it (the given keys, any trial token `aar-<48 hex>`).
 *
 *   node dist/bench/viewer-screenshots.js JOBS_DIR OUT_DIR [--secret KEY]...
 *
 * Exits 1 when a check fails.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { launchChromium, collectPageErrors } from './browser.js';
import { loadJobResults } from '../verifier/results.js';
import { jobFoldersIn } from '../verifier/html/job-list.js';
import { serveJobs } from '../verifier/html/serve.js';

const [jobsDir, outDir, ...rest] = process.argv.slice(2);
if (!jobsDir || !outDir) {
  console.error('usage: viewer-screenshots JOBS_DIR OUT_DIR [--secret KEY]...');
  process.exit(2);
}
const secrets = rest.flatMap((a, i) => (rest[i - 1] === '--secret' ? [a] : []));
const TOKEN = /aar-[0-9a-f]{48}/;
// A folder that is not one of jobs, or a browser that does not start: one line, not a stack trace.
const fail = (error: unknown): never => {
  console.error(`viewer screenshots: ${(error as Error).message.split('\n')[0]}`);
  process.exit(1);
};
mkdirSync(outDir, { recursive: true });
const server = await serveJobs(jobsDir).catch(fail);
const browser = await launchChromium().catch(async (error: unknown) => {
  await server.close();
  return fail(error);
});
let failures = 0;
try {
  const listPage = await browser.newPage();
  await listPage.setViewport({ width: 1360, height: 700 });
  await listPage.goto(server.url);
  await listPage.screenshot({ path: path.join(outDir, 'jobs.png'), fullPage: true });
  for (const jobDir of jobFoldersIn(jobsDir) ?? []) {
    const job = path.basename(jobDir);
    for (const { dir, record } of loadJobResults(jobDir)) {
      const page = await browser.newPage();
      await page.setViewport({ width: 1360, height: 900 });
      const errors = collectPageErrors(page);
      const id = path.basename(dir);
      await page.goto(`${server.url}job/${encodeURIComponent(job)}/#trial/${encodeURIComponent(id)}`);
      await page.waitForSelector(`#trial-page[data-shown="${id}"]`);
      const logLines = (() => {
        try {
          return readFileSync(path.join(dir, 'model_log.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).length;
        } catch {
          return 0;
        }
      })();
      const shown = await page.$$eval('#conversation article.step.model', (as) => as.map((a) => Number(a.getAttribute('data-line'))));
      const inOrder = shown.length === logLines && shown.every((line, i) => line === i + 1);
      // Every folded text opened, so the whole page text is searched and shown.
      await page.$$eval('#trial-page details', (ds) => ds.forEach((d) => d.setAttribute("open", "")));
      const html = await page.content();
      const secretHits = secrets.filter((s) => html.includes(s)).length + (TOKEN.test(html) ? 1 : 0);
      const file = path.join(outDir, `${id.replace(/[^\w.-]+/g, '_')}.png`);
      await page.$$eval('#trial-page details', (ds) => ds.forEach((d) => d.removeAttribute("open")));
      await page.screenshot({ path: file, fullPage: true });
      const ok = inOrder && secretHits === 0 && errors.length === 0;
      if (!ok) failures++;
      console.log(
        `${job}/${id}: ${shown.length} of ${logLines} model turns on the page${inOrder ? ', in order' : ' -- NOT ALL, OR OUT OF ORDER'}; ` +
          `${await page.$$eval('#conversation article.step.tool', (as) => as.length)} tool calls; ${secretHits} secret hits; ${errors.length} page errors${errors.length ? ` (${errors.join('; ')})` : ''}; ${file}`,
      );
      await page.close();
    }
  }
} catch (error) {
  failures++;
  console.error(`viewer screenshots: ${(error as Error).message.split('\n')[0]}`);
} finally {
  await browser.close();
  await server.close();
}
if (failures) {
  console.error(`viewer screenshots: ${failures} trial pages failed a check`);
  process.exit(1);
}
