import { jest } from '@jest/globals';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { dockerAvailable } from '../../../common/docker.js';
import { checkBudgets, UnequalBudgetsError } from '../../../verifier/compare/budgets.js';
import { compareConfigurations } from '../../../verifier/compare/compare.js';
import { loadConfigurations } from '../../../verifier/compare/select.js';
import { paperTables } from '../../../verifier/paper-tables/index.js';
import { tempDir } from '../../helpers/data.js';
import { harnessContainers, writeJobConfig } from '../../helpers/jobs.js';

/** Real Docker: the built-in agents and two that end early, run on the example legs, then compared. */
const HAVE_DOCKER = await dockerAvailable();
const describeDocker = HAVE_DOCKER ? describe : describe.skip;
if (!HAVE_DOCKER) console.warn('Docker tests skipped: no Docker engine answers (run images/docker-up.sh)');

jest.setTimeout(300_000);

const run = (configPath: string) => runJob({ configPath, reporter: new QuietReporter(), retryDelayMs: 10 });

describeDocker('compare on jobs run in Docker', () => {
  const tmp = tempDir('aar-compare-docker-');
  afterAll(() => tmp.cleanup());

  test('oracle vs random paired; a crash and a timeout are diagnosed as such; a different timeout is refused', async () => {
    const agents = [
      { name: 'oracle' },
      { name: 'random' },
      { name: 'command', id: 'crasher', options: { command: 'echo giving up; exit 3' } },
      { name: 'command', id: 'sleeper', options: { command: 'sleep 60' } },
    ];
    const a = await run(writeJobConfig(tmp.dir, { name: 'cmp-h10b-a', agents, timeout_s: 10 }, 'a.yaml'));
    expect(a).toMatchObject({ planned: 12, ran: 12, infraErrors: 0 });
    const configs = loadConfigurations([a.jobDir]);
    expect(configs.map((c) => c.label)).toEqual(['crasher', 'oracle', 'random', 'sleeper']);
    const result = compareConfigurations(configs, { seed: 2 });
    expect(result.budgets.equal).toBe(true);
    expect(result.pairing.sharedLegs).toBe(3);
    const fa = result.paired.find((p) => p.a === 'oracle' && p.b === 'random' && p.metric === 'fa' && p.variant === '*' && p.level === '*')!;
    expect(fa.a_mean).toBe(1);
    expect(fa.diff).toBe(fa.b_mean! - 1);
    const pvr = result.paired.find((p) => p.a === 'oracle' && p.b === 'random' && p.metric === 'pvr' && p.variant === '*' && p.level === '*')!;
    // PVR is 0 or 1 on every leg here: Newcombe's interval on 3 legs, not the bootstrap's zero-width [-1, -1].
    expect(pvr).toMatchObject({ a_mean: 1, b_mean: 0, diff: -1, lo: -1, n: 3, small_n: 'yes', interval: 'Newcombe' });
    expect(pvr.hi!).toBeCloseTo(-0.2059, 3);

    const crasher = configs[0].trials;
    expect(crasher.map((t) => [t.record.status, (t.score as { diagnosis: string }).diagnosis])).toEqual(Array(3).fill(['agent_error', 'agent_error']));
    const sleeper = configs[3].trials;
    expect(sleeper.map((t) => [t.record.status, (t.score as { diagnosis: string }).diagnosis])).toEqual(Array(3).fill(['timed_out', 'timeout']));
    const table3 = paperTables(configs).find((t) => t.id === 'table3')!;
    const all = (config: string) => table3.rows.find((r) => r.config === config && r.variant === '*' && r.level === 'all')!;
    expect(all('crasher')).toMatchObject({ agent_error: 1, navigation: 0, timeout: 0 });
    expect(all('sleeper')).toMatchObject({ timeout: 1, navigation: 0, agent_error: 0 });
    expect(all('oracle')).toMatchObject({ correct: 1 });

    const b = await run(writeJobConfig(tmp.dir, { name: 'cmp-h10b-b', agents: [{ name: 'random' }], timeout_s: 30 }, 'b.yaml'));
    const across = loadConfigurations([`${a.jobDir}:oracle`, `${b.jobDir}:random`]);
    expect(checkBudgets(across).differences).toEqual([{ key: 'timeout_s', values: { 'cmp-h10b-a:oracle': '10', 'cmp-h10b-b:random': '30' } }]);
    expect(() => compareConfigurations(across)).toThrow(UnequalBudgetsError);
    expect(await harnessContainers('cmp-h10b-a')).toEqual([]);
  });
});
