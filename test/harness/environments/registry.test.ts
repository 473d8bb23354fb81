/**
 * The environment registry: each environment registers itself (its folder's definition.ts), brings its own
 * job config key, and says what `aar cleanup` removes of it. Nothing here starts a sandbox.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { loadJobConfig, parseJobConfig } from '../../../harness/config/load.js';
import { ENVIRONMENT_NAMES, environmentLeftovers, environmentProvider } from '../../../harness/environments/registry.js';
import { definedEnvironments } from '../../../harness/environments/define.js';
import { DockerEnvironmentProvider } from '../../../harness/environments/docker/environment.js';
import { SwarmEnvironmentProvider } from '../../../harness/environments/swarm/environment.js';
import { configProblems as problemsOf } from '../../helpers/config-problems.js';
import { REPO_ROOT } from '../../helpers/data.js';

const BASE = 'tasks:\n  path: legs\nagents:\n  - name: oracle\n';


describe('the environment registry', () => {
  test('names docker (the default) first, and swarm and kubernetes wherever a new one is added, each with what a killed run leaves of it', () => {
    expect(ENVIRONMENT_NAMES[0]).toBe('docker');
    const each = definedEnvironments().map((e) => `${e.name} (${e.leftovers})`);
    expect(each).toEqual(expect.arrayContaining(['docker (containers)', 'swarm (services and networks)', 'kubernetes (pods)']));
    expect(environmentLeftovers()).toBe(`${each.slice(0, -1).join(', ')} or ${each.at(-1)}`);
  });

  test('makes each environment by name, with its settings from the job config', async () => {
    expect(await environmentProvider('docker')).toBeInstanceOf(DockerEnvironmentProvider);
    const config = parseJobConfig('job.yaml', `${BASE}environment: swarm\nswarm:\n  name_prefix: aar-x-\n`);
    const swarm = await environmentProvider(config.environment, config);
    expect(swarm).toBeInstanceOf(SwarmEnvironmentProvider);
    expect((swarm as unknown as { prefix: string }).prefix).toBe('aar-x-');
    await expect(environmentProvider('nowhere')).rejects.toThrow(`unknown environment 'nowhere'; known: ${ENVIRONMENT_NAMES.join(', ')}`);
  });

  test("an environment's settings are its own key of the job config, in the place job.json has always kept it", () => {
    const config = parseJobConfig('job.yaml', `${BASE}environment: swarm\nswarm:\n  registry: 127.0.0.1:5000\nnetwork: none\n`);
    expect((config as Record<string, unknown>).swarm).toEqual({ registry: '127.0.0.1:5000', node_engines: {}, node_down_grace_s: 0, name_prefix: 'aar-' });
    const keys = Object.keys(config);
    expect(keys.slice(keys.indexOf('environment'), keys.indexOf('environment') + 3)).toEqual(['environment', 'swarm', 'network']);
    // Absent when not given, so a job without one keeps its job.json.
    expect(Object.keys(parseJobConfig('job.yaml', BASE))).not.toContain('swarm');
  });

  test('bad environment settings are one line naming the file and the field', () => {
    expect(problemsOf(`${BASE}environment: swarm\nswarm:\n  registry: "not an address!"\n`)).toEqual(['job.yaml:7:13: swarm.registry: a registry address such as 127.0.0.1:5000']);
    expect(problemsOf(`${BASE}swarm:\n  name_prefx: aar-\n`)).toEqual(['job.yaml:6:3: swarm.name_prefx: unknown key; did you mean name_prefix (prefix of the services and networks the job creates)?']);
    expect(problemsOf(`${BASE}environment: nowhere\n`)).toEqual([`job.yaml:5:14: environment: unknown environment 'nowhere'; known: ${ENVIRONMENT_NAMES.join(', ')}`]);
    // A key no environment brings is still an unknown key.
    expect(problemsOf(`${BASE}docker:\n  host: x\n`)).toEqual([expect.stringMatching(/^job\.yaml:5:1: docker: unknown key/)]);
  });

  test('every config the package ships is still valid', () => {
    const dir = path.join(REPO_ROOT, 'configs');
    // generate-*.yaml configure `aar legs generate`, not a job (test/tasks/aar/generate/config.test.ts loads them).
    const jobs = readdirSync(dir).filter((f) => f.endsWith('.yaml') && f !== 'prices.yaml' && !f.startsWith('generate-'));
    expect(jobs.length).toBeGreaterThan(0);
    for (const file of jobs) expect(ENVIRONMENT_NAMES).toContain(loadJobConfig(path.join(dir, file)).config.environment);
  });
});
