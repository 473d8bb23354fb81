/**
 * The exporter conformance suite: every `aar export` format (inspect, harbor, a plugin's) writes a job into
 * the folder it is given and nowhere else, and returns the files a user opens first, each of them there. The
 * job is one trial of each registered family's first example task, in which the agent did nothing, scored by
 * its family. Library code: Jest runs it for every registered format, `aar plugins check` for a plugin's.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sameJson, type ConformanceSuite } from '../../common/conformance.js';
import { writeIdleTrial } from '../../tasks/conformance.js';
import { FAMILIES, loadWholeFamilies, wholeFamily } from '../../tasks/families.js';
import { buildTrajectory } from '../../trial/trajectory/build.js';
import type { ExportJob, ExportTrial, Exporter } from './types.js';

const NAME = /^[a-z][a-z0-9-]*$/;

/** One idle trial per registered family that has examples, as `aar export` reads a job. */
async function exampleJob(root: string): Promise<ExportJob> {
  await loadWholeFamilies();
  const trials: ExportTrial[] = [];
  for (const declaration of FAMILIES.entries) {
    const family = wholeFamily(declaration.name)!;
    const task = declaration.examples ? (await family.load([declaration.examples])).tasks[0] : undefined;
    if (!task) continue;
    const stored = writeIdleTrial(family, task, path.join(root, `trial-${declaration.name}`));
    const { dir, record } = stored;
    const score = family.score(stored);
    const trajectory = buildTrajectory({ trialId: record.trial_id, agent: { name: 'idle', version: '0', model: null }, instruction: 'Solve the task.', modelLog: null, toolLog: null });
    trials.push({ result: { dir, record, score }, trajectory, metrics: { success: family.progress.success(score) } });
  }
  return { jobDir: root, name: 'conformance', trials };
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
          const job = await exampleJob(path.join(root, 'job'));
          assert.ok(job.trials.length > 0, 'no family gave an example trial');
          const out = path.join(root, 'out', exporter.name);
          const before = filesUnder(root);
          const written = exporter.write(job, out);
          assert.ok(written.length > 0, 'it returned no file');
          for (const file of written) {
            assert.ok(path.resolve(file).startsWith(path.resolve(out) + path.sep), `${file}: outside ${out}`);
            assert.ok(existsSync(file), `${file}: returned but not written`);
          }
          const outside = filesUnder(root).filter((f) => !f.startsWith(path.join('out', exporter.name) + path.sep) && !before.includes(f));
          sameJson(outside, [], 'files written outside its folder');
        },
      },
    ],
  };
}
