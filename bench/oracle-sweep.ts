/**
 * The oracle over released legs on their synthetic golden-world store, through `aar run` in a process of its
 * own (its CPU and peak memory by GNU time): shared by bench:trials and bench:vs-bare.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { stringify } from 'yaml';
import type { dockerUsage } from '../harness/environments/docker/usage.js';
import { packagePath } from '../paths.js';
import { loadLegs } from '../tasks/aar/load.js';
import type { AarFigures } from '../tasks/aar/scoring/report.js';
import { synthesizeWorld } from '../tasks/aar/world/synthesize.js';
import { ResponseStore } from '../tools/store/store.js';
import { aggregate } from '../verifier/aggregate.js';
import { loadJobResults, type TrialResult } from '../verifier/results.js';
import { engineCpuMeter, type EngineCpu } from './engine-cpu.js';

/** A job config for the oracle under `tmp` (output in tmp/jobs/NAME). */
export function writeOracleConfig(tmp: string, name: string, config: Record<string, unknown>): string {
  const file = path.join(tmp, `${name}.yaml`);
  writeFileSync(file, stringify({ name, output: path.join(tmp, 'jobs'), agents: [{ name: 'oracle' }], infra_retries: 1, resources: { memory_mb: 1024, cpus: 1, pids: 512 }, ...config }));
  return file;
}

/** CPU seconds by component, over a number of trials. */
export interface Cost {
  harness: number;
  engine: EngineCpu;
  container: number;
  containersMeasured: number;
  apiCalls: number;
}

export const engineTotal = (e: EngineCpu): number => e.dockerd + e.containerd + e.shim;

export interface SweepResult {
  results: TrialResult[];
  planned: number;
  complete: boolean;
  seconds: number;
  rate: number;
  figures: AarFigures | undefined;
  cost: Cost;
  rssMb: number;
  /** Shim CPU of every container on the engine meanwhile (cost.engine.shim is the sweep's own). */
  allShims: number;
  worldLine: string;
}

export interface SweepOptions {
  tmp: string;
  dataDir: string;
  /** Legs sampled (seed 1); all when null. */
  legs: number | null;
  concurrency: number;
  /** Its job's name (and folder under tmp/jobs). */
  name?: string;
  maxMinutes?: number;
  stopped?: () => boolean;
  /** The world store, when one is already synthesized for these legs. */
  worldDir?: string;
}

/** Synthesizes the golden world of the legs under dataDir into tmp/world (once per benchmark). */
export async function synthesizeSweepWorld(tmp: string, dataDir: string): Promise<{ worldDir: string; line: string }> {
  const { legs, problems } = await loadLegs(dataDir);
  if (problems.length || !legs.length) throw new Error(`cannot load legs from ${dataDir}; pass --data DIR`);
  const worldDir = path.join(tmp, 'world');
  const world = await synthesizeWorld(legs, new ResponseStore(worldDir));
  const line =
    `synthetic world (one store for all ${legs.length} legs): ${world.pages} pages, ${world.toolResponses} tool responses, ` +
    `${world.legEntries} per-leg answers (${world.conflicts.length} where legs disagree, ${world.merged.length} holding two answers one leg needs)`;
  return { worldDir, line };
}

/** Runs the sweep; SIGINT (or maxMinutes) stops `aar run`, and what ran is reported as incomplete. */
export async function runOracleSweep(o: SweepOptions): Promise<SweepResult> {
  const { worldDir, line } = o.worldDir ? { worldDir: o.worldDir, line: '' } : await synthesizeSweepWorld(o.tmp, o.dataDir);
  const name = o.name ?? 'all-legs';
  const config = writeOracleConfig(o.tmp, name, {
    tasks: { path: o.dataDir, ...(o.legs ? { sample: { n: o.legs, seed: 1 } } : {}) },
    concurrency: o.concurrency,
    timeout_s: 300,
    tools: { mode: 'replay', store: worldDir },
  });
  const usageFile = path.join(o.tmp, `${name}-engine-usage.json`);
  const timeFile = path.join(o.tmp, `${name}-time.txt`);
  const meter = engineCpuMeter();
  const started = Date.now();
  const child = execa('/usr/bin/time', ['-f', '%U %S %M', '-o', timeFile, process.execPath, packagePath('dist', 'harness', 'cli', 'main.js'), 'run', config, '--progress', 'lines', '--no-report'], {
    env: { AAR_ENGINE_USAGE: usageFile },
    reject: false,
    stdout: 'inherit',
    stderr: 'inherit',
    // its own process group, so a stop reaches `aar run` (GNU time ignores SIGINT while it waits)
    detached: true,
  });
  const stopRun = (): void => void process.kill(-child.pid!, 'SIGINT');
  process.on('SIGINT', stopRun);
  const timer = o.maxMinutes ? setTimeout(stopRun, o.maxMinutes * 60_000) : undefined;
  const result = await child;
  clearTimeout(timer);
  process.off('SIGINT', stopRun);
  const seconds = (Date.now() - started) / 1000;
  const engine = meter.stop();
  const [user, system, maxRssKb] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
  const results = loadJobResults(path.join(o.tmp, 'jobs', name));
  const planned = o.legs ?? (await loadLegs(o.dataDir)).legs.length;
  const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as typeof dockerUsage;
  const [all] = aggregate<AarFigures>(results);
  return {
    results,
    planned,
    complete: !o.stopped?.() && result.exitCode === 0 && results.length === planned,
    seconds,
    rate: results.length / seconds,
    figures: all,
    // The shims of this sweep's containers only (other containers on a shared engine are not its cost), less
    // the containers' own CPU: a shim reaps the container's first process, so its children's CPU holds it.
    cost: { harness: user + system, engine: { dockerd: engine.dockerd, containerd: engine.containerd, shim: engine.shimOf(usage.containerIds) - usage.containerCpuNs / 1e9 }, container: usage.containerCpuNs / 1e9, containersMeasured: usage.containersMeasured, apiCalls: usage.apiCalls },
    rssMb: maxRssKb / 1024,
    allShims: engine.shim,
    worldLine: line,
  };
}

/** Legs where the oracle's own account says a served answer did not hold the golden value (each trial's agent/ log says which stop). */
export function missedLegs(results: TrialResult[]): string[] {
  return results
    .filter((r) => {
      const agentDir = path.join(r.dir, 'agent');
      return existsSync(agentDir) && readdirSync(agentDir).some((f) => /: NOT found /.test(readFileSync(path.join(agentDir, f), 'utf8')));
    })
    .map((r) => r.record.leg.id);
}
