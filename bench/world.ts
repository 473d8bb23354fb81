/**
 * bench:world: the figures of the tools' worlds.
 *   1. `aar world audit` of every released leg against a store `aar world synthesize` made for them: all hold?
 *   2. the audit against the stand-in upstream made from the legs, as it is and with 3 facts drifted: the legs
 *      whose status the drift changes, against the legs that read a drifted fact (named by the facts).
 *   3. a pinned world: the oracle on sampled legs twice on one store over the stand-in; upstream requests of
 *      each run (the stand-in's own count) and whether the two score the same (needs Docker).
 *
 *   npm run bench:world [-- --data DIR] [-- --legs 20] [-- --skip-pinned]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { stringify } from 'yaml';
import { runJob } from '../harness/jobs/job.js';
import { QuietReporter } from '../harness/jobs/reporters.js';
import { aarDataDir } from '../paths.js';
import { loadLegs, type LoadedLeg } from '../tasks/aar/load.js';
import { auditLegs, type AuditReport } from '../tasks/aar/world/audit.js';
import { synthesizeWorld } from '../tasks/aar/world/synthesize.js';
import { applyDrift, collectFacts, type Drift } from '../tasks/aar/world/upstream/facts.js';
import { StandInUpstream } from '../tasks/aar/world/upstream/server.js';
import { createProviderContext } from '../tools/providers/registry.js';
import { ToolService } from '../tools/service.js';
import { ResponseStore } from '../tools/store/store.js';
import { loadJobResults } from '../verifier/results.js';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const dataDir = flag('--data') ?? aarDataDir();
const pinnedLegs = Number(flag('--legs') ?? 20);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-world-'));
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
const KEYS = { google: 'stand-in', serper: 'stand-in', codeModel: 'stand-in' };

/** The three facts drifted: Finland's population +10, an elevation within its whole metres, a route +2 minutes. */
const DRIFTS: Drift[] = [
  { stop: 'aar-linear/easy/sample_214#2', value: 5650335 },
  { stop: 'aar-dag/easy/sample_003#4', value: 1672.2 },
  { stop: 'aar-dag/easy/sample_090#7', value: 3087 },
];

async function auditAgainst(legs: readonly LoadedLeg[], standIn: StandInUpstream): Promise<AuditReport> {
  const service = new ToolService({ mode: 'live', outputLimit: 1e8, providers: createProviderContext({ endpoints: standIn.endpoints, keys: KEYS }) });
  return auditLegs(legs, (tool, args, leg) => service.call(tool, args, undefined, leg));
}

const statusTable = (rows: [string, AuditReport][]) => [
  `| world | legs | held | value drifted | passcode changed | call failed | tool calls | seconds |`,
  '|---|---|---|---|---|---|---|---|',
  ...rows.map(([name, r]) => `| ${name} | ${r.legs.length} | ${r.byStatus.held} | ${r.byStatus['value-drifted']} | ${r.byStatus['passcode-changed']} | ${r.byStatus['call-failed']} | ${r.calls} | ${r.seconds.toFixed(1)} |`),
];

try {
  const { legs, problems } = await loadLegs(dataDir);
  if (problems.length || !legs.length) throw new Error(`cannot load legs from ${dataDir}; pass --data DIR`);
  console.log(`${legs.length} legs from ${dataDir}; ${os.availableParallelism()} cores, load average ${load()} at the start`);

  // 1. against a synthesized store
  const storeDir = path.join(tmp, 'golden');
  const synthesizedAt = Date.now();
  await synthesizeWorld(legs, new ResponseStore(storeDir));
  const synthesizeS = (Date.now() - synthesizedAt) / 1000;
  const replay = new ToolService({ mode: 'replay', store: new ResponseStore(storeDir), outputLimit: 1e8 });
  const synthesized = await auditLegs(legs, (tool, args, leg) => replay.call(tool, args, undefined, leg));

  // 2. against the stand-in, as it is and drifted
  const facts = await collectFacts(legs);
  let standIn = await new StandInUpstream(facts).start();
  const baseline = await auditAgainst(legs, standIn);
  await standIn.stop();
  const driftedFacts = await collectFacts(legs);
  const keys = applyDrift(driftedFacts, DRIFTS);
  const readers = new Set([...driftedFacts.stopFacts].filter(([, key]) => keys.includes(key)).map(([stop]) => stop.split('#')[0]));
  standIn = await new StandInUpstream(driftedFacts).start();
  const drifted = await auditAgainst(legs, standIn);
  await standIn.stop();
  const before = new Map(baseline.legs.map((l) => [l.id, l.status]));
  const moved = drifted.legs.filter((l) => l.status !== before.get(l.id));

  console.log(`\n## Audit (synthesized in ${synthesizeS.toFixed(1)} s; load average ${load()} after the audits)\n`);
  console.log(statusTable([['synthesized store (replay)', synthesized], ['stand-in upstream (live)', baseline], ['stand-in, 3 facts drifted (live)', drifted]]).join('\n'));
  console.log(`\nstand-in as it is: ${baseline.legs.length - baseline.byStatus.held} legs do not hold, those of the ${facts.conflicts.length} facts the legs themselves disagree on (the first leg's value is the stand-in's):`);
  for (const c of facts.conflicts) console.log(`- ${c.key}: ${JSON.stringify(c.kept)} kept; ${c.others.join(', ')}`);
  console.log(`\ndrifted facts: ${keys.join('; ')}; legs reading them: ${[...readers].sort().join(', ')}`);
  console.log('\n| leg | before | after | passcode |\n|---|---|---|---|');
  for (const l of moved) console.log(`| ${l.id} | ${before.get(l.id)} | ${l.status} | ${l.passcode} -> ${l.passcodeNow} |`);
  const outside = moved.filter((l) => !readers.has(l.id)).map((l) => l.id);
  const unmoved = [...readers].filter((id) => !moved.some((l) => l.id === id));
  console.log(`\nlegs moved that read no drifted fact: ${outside.length ? outside.join(', ') : 'none'}; legs reading a drifted fact that did not move: ${unmoved.length ? unmoved.join(', ') : 'none'}`);
  console.log(`passcode changed by the drift: ${moved.filter((l) => l.status === 'passcode-changed').map((l) => l.id).join(', ')}`);

  // 3. a pinned run, twice
  if (!argv.includes('--skip-pinned')) {
    standIn = await new StandInUpstream(facts).start();
    const world = path.join(tmp, 'pinned');
    const config = (name: string) => {
      const file = path.join(tmp, `${name}.yaml`);
      writeFileSync(
        file,
        stringify({
          name,
          output: path.join(tmp, 'jobs'),
          tasks: { path: dataDir, sample: { n: pinnedLegs, seed: 3 } },
          agents: [{ name: 'oracle' }],
          concurrency: 2,
          timeout_s: 300,
          resources: { memory_mb: 1024, cpus: 1, pids: 512 },
          tools: { mode: 'pinned', store: world, endpoints: standIn.endpoints },
        }),
      );
      return file;
    };
    Object.assign(process.env, { GOOGLE_API_KEY: 'stand-in', SERPER_API_KEY: 'stand-in', OPENAI_API_KEY: 'stand-in' });
    const runs: { name: string; requests: number; seconds: number; scores: Record<string, unknown>; fa: number; pvr: number; rcr: number }[] = [];
    for (const name of ['pinned-first', 'pinned-second']) {
      const requestsBefore = standIn.requests.length;
      const started = Date.now();
      const summary = await runJob({ configPath: config(name), reporter: new QuietReporter() });
      const results = loadJobResults(summary.jobDir);
      const mean = (k: string) => results.reduce((s, r) => s + Number((r.score as Record<string, unknown>)[k] ?? 0), 0) / results.length;
      runs.push({
        name,
        requests: standIn.requests.length - requestsBefore,
        seconds: (Date.now() - started) / 1000,
        scores: Object.fromEntries(results.map((r) => [r.record.leg.id, { ...r.score, wall_s: undefined }])),
        fa: mean('fa'),
        pvr: mean('pvr'),
        rcr: mean('rcr'),
      });
    }
    await standIn.stop();
    console.log(`\n## Pinned world: the oracle on ${pinnedLegs} sampled legs (seed 3), twice on one store (load average ${load()})\n`);
    console.log('| run | upstream requests (stand-in log) | FA | PVR | RCR | seconds |\n|---|---|---|---|---|---|');
    for (const r of runs) console.log(`| ${r.name} | ${r.requests} | ${r.fa.toFixed(3)} | ${r.pvr.toFixed(3)} | ${r.rcr.toFixed(3)} | ${r.seconds.toFixed(1)} |`);
    console.log(`\nscores of every trial equal (but wall time): ${isDeepStrictEqual(runs[0].scores, runs[1].scores)}`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
