/**
 * bench:html: the HTML report of a 1,400-trial job (one synthetic trial per real leg): the time to build
 * it, its size, and in headless Chromium the time until the page is loaded and its trials table drawn,
 * and the time to open one trial page. Goal: under 15 MB and under 2 s to load.
 * Usage: npm run bench:html [-- DATA_DIR [OUT.html]]
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { aarDataDir } from '../paths.js';
import { loadLegs } from '../tasks/aar/load.js';
import { buildHtmlReport } from '../verifier/html/build.js';
import { chromiumAvailable, collectPageErrors, launchChromium } from './browser.js';
import { writeSyntheticJob } from './synthetic-trials.js';

const dataDir = process.argv[2] ?? aarDataDir();
const { legs, problems } = await loadLegs(dataDir);
if (problems.length || !legs.length) {
  console.error(`cannot load legs from ${dataDir} (${problems.length} problems); pass the AAR data folder as argument`);
  process.exit(1);
}
const tmp = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-html-'));
const jobDir = path.join(tmp, 'synthetic-1400');
const out = process.argv[3] ?? path.join(tmp, 'report.html');
try {
  writeSyntheticJob(jobDir, legs, 1, { withScores: true });
  let t = performance.now();
  const html = await buildHtmlReport([jobDir]);
  const buildMs = performance.now() - t;
  writeFileSync(out, html);
  const mb = statSync(out).size / 1e6;
  console.log(`${legs.length} trials: report built in ${(buildMs / 1000).toFixed(1)} s, ${mb.toFixed(1)} MB (${((mb * 1e3) / legs.length).toFixed(1)} kB per trial) -> ${out}`);

  if (!chromiumAvailable()) {
    console.log('no Chromium (install Debian\'s chromium package): load time not measured');
  } else {
    const browser = await launchChromium();
    try {
      const loads: number[] = [];
      let trialMs = 0;
      for (let i = 0; i < 3; i++) {
        const page = await browser.newPage();
        const errors = collectPageErrors(page);
        t = performance.now();
        await page.goto(pathToFileURL(out).href, { waitUntil: 'load', timeout: 120_000 });
        await page.waitForSelector('#trials-table tbody tr');
        loads.push(performance.now() - t);
        const id = await page.$eval('#trials-table tbody tr', (row) => row.getAttribute('data-trial'));
        t = performance.now();
        await page.click('#trials-table tbody tr a');
        await page.waitForSelector('#trial-page:not([hidden]) #trial-title');
        trialMs = performance.now() - t;
        if (errors.length) console.log(`page errors: ${errors.join('; ')}`);
        if (i === 0) console.log(`opened trial page of ${id}`);
        await page.close();
      }
      const median = [...loads].sort((a, b) => a - b)[1];
      console.log(`Chromium: loaded and trials table drawn in ${median.toFixed(0)} ms (median of 3: ${loads.map((l) => l.toFixed(0)).join(', ')}); a trial page opened in ${trialMs.toFixed(0)} ms`);
      console.log(`goal: under 15 MB and under 2,000 ms -> ${mb < 15 && median < 2000 ? 'met' : 'NOT met'}`);
    } finally {
      await browser.close();
    }
  }
} finally {
  rmSync(jobDir, { recursive: true, force: true });
  if (!process.argv[3]) rmSync(tmp, { recursive: true, force: true });
}
