/**
 * The exporter conformance suite: every `aar export` format (inspect, harbor, a plugin's) writes a job into
 * the folder it is given and nowhere else, and returns the files a user opens first, each of them there. For
 * each registered family, the job is one trial of its first example task in which the agent did nothing,
 * scored by the family. Library code: Jest runs it for every registered format, `aar plugins check` for a plugin's.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sameJson, type ConformanceSuite } from '../../common/conformance.js';
import { writeIdleTrial } from '../../tasks/conformance.js';
import { FAMILIES, loadWholeFamilies, wholeFamily } from '../../tasks/families.js';
import { buildTrajectory } from '../../trial/trajectory/build.js';
import { headlineMetrics } from './job.js';
import type { ExportJob, Exporter } from './types.js';

const NAME = /^[a-z][a-z0-9-]*$/;

/** For each registered family with examples, a job of one idle trial of its first example task, as `aar export` reads a job. */
async function exampleJobs(root: string): Promise<ExportJob[]> {
  await loadWholeFamilies();
  const jobs: ExportJob[] = [];
  for (const declaration of FAMILIES.entries) {
    const family = wholeFamily(declaration.name)!;
    const task = declaration.examples ? (await family.load([declaration.examples])).tasks[0] : undefined;
    if (!task) continue;
    const jobDir = path.join(root, `job-${declaration.name}`);
    const stored = writeIdleTrial(family, task, path.join(jobDir, 'trial'));
    const { dir, record } = stored;
    const score = family.score(stored);
    const result = { dir, record, score };
    const metrics = headlineMetrics(result);
    const outcome = family.outcome?.(score, { dir, record }) ?? { question: '', target: '', answer: null, explanation: 'the agent did nothing' };
    const trajectory = buildTrajectory({ trialId: record.trial_id, agent: { name: 'idle', version: '0', model: null }, instruction: 'Solve the task.', modelLog: null, toolLog: null });
    jobs.push({ jobDir, name: `conformance-${declaration.name}`, family: family.name, job: null, trials: [{ result, trajectory, metrics, outcome }] });
  }
  return jobs;
}

/** Every file under a folder, relative to it. */
const filesUnder = (dir: string): string[] => readdirSync(dir, { recursive: true }).map(String).filter((f) => statSync(path.join(dir, f)).isFile()).sort();

export function exporterSuite(exporter: Exporter): ConformanceSuite {
  let root = '';
  return {
    seam: 'export format',
    entry: exporter.name,
    async before() {
      root = mkdtempSync(path.join(os.tmpdir(), 'aar-export-conf-'));
    },
    async after() {
      if (root) rmSync(root, { recursive: true, force: true });
    },
    checks: [
      {
        name: 'its name is lower-case letters, digits and -, and it says what it writes',
        run: () => {
          assert.match(exporter.name, NAME);
          assert.ok(exporter.description.trim(), 'no description');
        },
      },
      {
        name: 'it writes a job into the folder it is given and nowhere else, and returns files that are there',
        async run() {
          const jobs = await exampleJobs(path.join(root, 'jobs'));
          assert.ok(jobs.length > 0, 'no family gave an example trial');
          for (const job of jobs) {
            const out = path.join(root, 'out', job.family);
            const before = filesUnder(root);
            const written = exporter.write(job, out);
            assert.ok(written.length > 0, `${job.family}: it returned no file`);
            for (const file of written) {
              assert.ok(path.resolve(file).startsWith(path.resolve(out) + path.sep), `${file}: outside ${out}`);
              assert.ok(existsSync(file), `${file}: returned but not written`);
            }
            const outside = filesUnder(root).filter((f) => !f.startsWith(path.join('out', job.family) + path.sep) && !before.includes(f));
            sameJson(outside, [], `${job.family}: files written outside its folder`);
          }
        },
      },
    ],
  };
}
