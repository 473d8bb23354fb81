/**
 * bench:peers: aar against Harbor (its `docker` environment, `oracle` agent) and Inspect AI (its `docker`
 * sandbox) on the same trivial task (write one file, score it; bench/peers-setup.ts), installed from PyPI
 * into a throwaway virtual environment, run interleaved (rounds, the order rotating) at the same
 * concurrency. Prints seconds and CPU per trial (the tool's own process tree with the docker CLIs it ran;
 * the engine's dockerd and containerd, shared with whatever else ran; the shims of its own containers,
 * which hold what ran in them) and trials per second, with versions. A peer that cannot run here is
 * reported with its exact error. Both peers drive Docker through `docker compose` (v2): DOCKER_CONFIG may
 * name a folder whose cli-plugins/ holds it when the machine has none.
 *
 *   npm run bench:peers [-- --trials 20] [-- --rounds 2] [-- --concurrency 4] [-- --python python3.12] [-- --venv DIR] [-- --data DIR]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { aarDataDir, packagePath } from '../paths.js';
import { loadLegs } from '../tasks/aar/load.js';
import { loadJobResults } from '../verifier/results.js';
import { engineCpuMeter } from './engine-cpu.js';
import { harborTask, inspectTask, inspectWithEngineCheckLowered, MARK, ourJob, peerVenv } from './peers-setup.js';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const trials = Number(flag('--trials') ?? 20);
const rounds = Number(flag('--rounds') ?? 2);
const concurrency = Number(flag('--concurrency') ?? 4);
const dataDir = flag('--data') ?? aarDataDir();
const tmp = mkdtempSync(path.join(os.tmpdir(), `aar-bench-${MARK}-`));
const f3 = (x: number): string => x.toFixed(3);
const load = (): string => os.loadavg().map((x) => x.toFixed(2)).join(' ');

interface Run {
  ok: boolean;
  error?: string;
  seconds: number;
  client: number;
  dockerd: number;
  containerd: number;
  shims: number;
  containers: number;
  scored: string;
  load: string;
}

/** Follows the engine's container creations from now on (its event log keeps only the last 256 events); `stop` gives the IDs whose labels say they are this run's. */
function watchCreations(ours: (labels: string) => boolean): { stop: () => Promise<string[]> } {
  const lines: string[] = [];
  const events = execa('docker', ['events', '--filter', 'type=container', '--filter', 'event=create', '--format', '{{.ID}} {{json .Actor.Attributes}}'], { reject: false });
  events.stdout!.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n')));
  return {
    stop: async () => {
      // a moment for the last creations to arrive
      await new Promise((resolve) => setTimeout(resolve, 500));
      events.kill();
      await events;
      return lines.filter((l) => l && ours(l.slice(l.indexOf(' ') + 1))).map((l) => l.split(' ')[0]);
    },
  };
}

/** Runs a tool's command under GNU time, metering the engine and finding its containers afterwards. */
async function measured(command: string[], cwd: string, env: Record<string, string>, ours: (labels: string) => boolean, scored: () => string, output?: (all: string) => void): Promise<Run> {
  const timeFile = path.join(tmp, 'time.txt');
  const creations = watchCreations(ours);
  const meter = engineCpuMeter();
  const child = await execa('/usr/bin/time', ['-f', '%e %U %S', '-o', timeFile, ...command], { cwd, env, reject: false, all: true });
  const engine = meter.stop();
  output?.(child.all ?? '');
  const [seconds, user, system] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
  const ids = await creations.stop();
  const base = { seconds, client: user + system, dockerd: engine.dockerd, containerd: engine.containerd, shims: engine.shimOf(ids), containers: ids.length, load: load() };
  if (child.exitCode !== 0) return { ...base, ok: false, error: (child.all ?? '').trim().split('\n').slice(-6).join('\n'), scored: 'n/a' };
  return { ...base, ok: true, scored: scored() };
}

try {
  console.log(`load average at the start: ${load()}; ${os.cpus().length} cores`);
  const { bin, versions } = await peerVenv(tmp, flag('--python') ?? 'python3.12', flag('--venv'));
  const compose = await execa('docker', ['compose', 'version'], { reject: false, all: true });
  console.log(`versions: harbor ${versions.harbor}, inspect-ai ${versions['inspect-ai']} (python ${versions.python}); docker compose: ${compose.exitCode === 0 ? compose.stdout.trim() : `NOT available: ${compose.all?.trim()}`}`);
  const { legs } = await loadLegs(dataDir);
  const leg = legs[0];
  const harborDir = harborTask(tmp);
  const inspectFile = inspectTask(tmp, trials);
  const env = { PATH: `${bin}:${process.env.PATH}` };

  const contestants: Record<string, (round: number) => Promise<Run>> = {
    aar: (round) => {
      const name = `${MARK}-aar-${round}`;
      const config = ourJob(tmp, name, { dataDir: leg.file, passcode: String(leg.leg.passcode), attempts: trials, concurrency, store: packagePath('tools', 'stores', 'examples') });
      // --allow-missing: the agent calls no tool, so a store that cannot serve the leg's golden calls is no matter.
      return measured([process.execPath, packagePath('dist', 'harness', 'cli', 'main.js'), 'run', config, '--progress', 'quiet', '--no-report', '--allow-missing'], tmp, env, (l) => l.includes(`"aar.job":"${name}"`), () => {
        const results = loadJobResults(path.join(tmp, 'jobs', name));
        return `${results.filter((r) => (r.score as { fa?: number } | null)?.fa === 1).length}/${results.length} scored 1`;
      });
    },
    harbor: (round) => {
      const jobs = path.join(tmp, 'harbor-jobs');
      return measured([path.join(bin, 'harbor'), 'run', '-p', harborDir, '-a', 'oracle', '-e', 'docker', '-k', String(trials), '-n', String(concurrency), '-o', jobs, '--job-name', `${MARK}-harbor-${round}`, '-q', '-y'], tmp, env, (l) => l.includes(MARK.toLowerCase()), () => {
        try {
          return readFileSync(path.join(jobs, `${MARK}-harbor-${round}`, 'result.json'), 'utf8').match(/"mean":\s*([\d.]+)/)?.[0] ?? 'see result.json';
        } catch {
          return 'no result.json';
        }
      });
    },
    inspect: (round) => inspect([path.join(bin, 'inspect')], round),
    'inspect, engine check lowered': (round) => inspect([path.join(bin, 'python'), lowered], round),
  };
  const lowered = inspectWithEngineCheckLowered(tmp);
  function inspect(cli: string[], round: number): Promise<Run> {
    const logs = path.join(tmp, `inspect-logs-${round}-${cli.length}`);
    // Inspect takes the task file relative to its folder (an absolute path is a glob pattern it refuses).
    const args = ['eval', path.basename(inspectFile), '--model', 'none', '--max-samples', String(concurrency), '--max-sandboxes', String(concurrency), '--log-dir', logs, '--display', 'plain'];
    let out = '';
    return measured([...cli, ...args], path.dirname(inspectFile), env, (l) => l.includes(MARK.toLowerCase()), () => /accuracy\s+([\d.]+)/.exec(out)?.[0] ?? 'see its log', (all) => (out = all));
  }

  const names = Object.keys(contestants);
  const runs: Record<string, Run[]> = Object.fromEntries(names.map((n) => [n, []]));
  const failedFirst = new Set<string>();
  // Round 0 warms each (Harbor builds its task image FROM the local one) and is not counted.
  for (let round = 0; round <= rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length];
      // One that could not run at all in the warm-up round is not tried again.
      if (failedFirst.has(name)) continue;
      const run = await contestants[name](round);
      if (round === 0 && !run.ok) {
        failedFirst.add(name);
        runs[name].push(run);
      }
      console.log(`round ${round} ${name}: ${run.ok ? `${run.seconds.toFixed(1)} s, ${run.containers} containers, ${run.scored}` : `FAILED: ${run.error}`} (load ${run.load})`);
      if (round > 0) runs[name].push(run);
    }
  }

  console.log(`\n${trials} trials per run, concurrency ${concurrency}, ${rounds} counted rounds; load average at the end: ${load()}`);
  console.log('| | version | s per trial (wall / n) | CPU s per trial: total | tool + docker CLIs | dockerd | containerd | own shims (with what ran in the containers) | trials/s |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const name of names) {
    const ok = runs[name].filter((r) => r.ok);
    const version = name === 'aar' ? 'this commit' : versions[name.startsWith('inspect') ? 'inspect-ai' : 'harbor'];
    if (!ok.length) {
      console.log(`| ${name} | ${version} | could not run here: ${(runs[name][0]?.error ?? 'not run').replaceAll('\n', ' / ')} | | | | | | |`);
      continue;
    }
    const n = ok.length * trials;
    const sum = (k: keyof Run): number => ok.reduce((s, r) => s + (r[k] as number), 0);
    const total = sum('client') + sum('dockerd') + sum('containerd') + sum('shims');
    console.log(`| ${name} | ${version} | ${f3(sum('seconds') / n)} | ${f3(total / n)} | ${f3(sum('client') / n)} | ${f3(sum('dockerd') / n)} | ${f3(sum('containerd') / n)} | ${f3(sum('shims') / n)} | ${(n / sum('seconds')).toFixed(2)} |`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
