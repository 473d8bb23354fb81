import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { exportFolderNames } from '../folder-names.js';
import type { Exporter } from '../types.js';
import { jobConfig, jobResult } from './job.js';
import { rewardsOf, trialConfig, trialResult } from './trial.js';

/**
 * Harbor's job folder as its viewer and JobScanner read it: config.json (JobConfig: agents, models, source)
 * and result.json (JobResult: counts, tokens and cost, each agent's mean rewards), and one folder per trial
 * as a Harbor trial leaves it: result.json (TrialResult: task, agent, tokens and cost, the rewards, the
 * phases' times), config.json, agent/trajectory.json (the ATIF trajectory) and verifier/reward.json (the
 * family's headline figures; a yes/no figure as 1/0, a figure not defined for the trial left out). Ids are
 * UUIDs made from the trials' folder names, so the same job exports the same files; paths are relative to
 * the export.
 */
export const harborExporter: Exporter = {
  name: 'harbor',
  description: "Harbor's job layout: config.json, result.json, and per trial result.json, config.json, agent/trajectory.json, verifier/reward.json",
  write(job, outDir) {
    mkdirSync(outDir, { recursive: true });
    const written = [path.join(outDir, 'result.json'), path.join(outDir, 'config.json')];
    // Each trial's folder: safe and unique within this export (folder-names.ts), whatever its trial id holds.
    const folders = new Map(exportFolderNames(job.trials.map((t) => t.result.record.trial_id)).map((name, i) => [job.trials[i]!, name]));
    const folderOf = (trial: (typeof job.trials)[number]): string => folders.get(trial)!;
    for (const trial of job.trials) {
      const folder = folderOf(trial);
      const dir = path.join(outDir, folder);
      mkdirSync(path.join(dir, 'agent'), { recursive: true });
      mkdirSync(path.join(dir, 'verifier'), { recursive: true });
      writeJson(path.join(dir, 'agent', 'trajectory.json'), trial.trajectory);
      writeJson(path.join(dir, 'verifier', 'reward.json'), rewardsOf(trial));
      writeJson(path.join(dir, 'config.json'), trialConfig(job, trial, folder));
      writeJson(path.join(dir, 'result.json'), trialResult(job, trial, folder));
    }
    writeJson(written[0]!, jobResult(job, folderOf));
    writeJson(written[1]!, jobConfig(job));
    return written;
  },
};

const writeJson = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
