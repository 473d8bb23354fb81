/**
 * The worked example plugin as a user gets it: `npm pack`ed, installed into a throwaway project (with no copy
 * of this package in it: the harness that loads a plugin is the one its `import 'aar-harness'` gets), then
 * run through `aar run`, `aar report`, `aar compare`, `aar verify`, `aar view` and `aar export` as processes.
 * Its job runs in Docker (the hopper agent's own image layer is built FROM the base image).
 */
import { HARNESS_VERSION } from '../../../harness/version.js';
import { jest } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dockerAvailable } from '../../../common/docker.js';
import { FAMILY_NAMES } from '../../../tasks/families.js';
import { AAR_BIN, runAar } from '../../helpers/cli.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';

const HAVE_DOCKER = await dockerAvailable();
if (!HAVE_DOCKER) console.warn('the example plugin test skipped: no Docker engine answers (run images/docker-up.sh)');
jest.setTimeout(900_000);

const tmp = tempDir('aar-example-plugin-');
afterAll(() => tmp.cleanup());
const project = path.join(tmp.dir, 'project');
const JOB = path.join(project, 'jobs', 'keychain');
const PLUGIN = ['--plugin', 'aar-plugin-keychain'];

const npm = (args: string[], cwd: string) => {
  const r = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')}: ${r.stderr || r.stdout}`);
  return r.stdout;
};
const aar = (args: string[], timeoutMs?: number) => runAar(args, { cwd: project, timeoutMs });

/** `aar view` until it prints its URL; the page, then the server stopped. */
async function viewPage(): Promise<string> {
  const child = spawn(process.execPath, [AAR_BIN, 'view', JOB, ...PLUGIN], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
        if (found) resolve(found[0]);
      });
      child.on('exit', (code) => reject(new Error(`aar view exited ${code}: ${out}`)));
    });
    return await (await fetch(url)).text();
  } finally {
    child.kill('SIGINT');
  }
}

const describeDocker = HAVE_DOCKER ? describe : describe.skip;

describeDocker('the example plugin, packed and installed into a throwaway project', () => {
  beforeAll(() => {
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', tmp.dir], path.join(REPO_ROOT, 'examples', 'plugins', 'keychain'))) as { filename: string; files: { path: string }[] }[];
    expect(packed[0]!.files.map((f) => f.path)).toEqual(expect.arrayContaining(['index.js', 'family.js', 'hopper/Dockerfile', 'hopper/context/hop.mjs', 'tasks/easy-1.json', 'package.json']));
    spawnSync('mkdir', ['-p', project]);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'throwaway', private: true }));
    // Its peer, aar-harness, is the harness running it: not installed here.
    npm(['install', '--offline', '--legacy-peer-deps', '--no-audit', '--no-fund', path.join(tmp.dir, packed[0]!.filename)], project);
    writeFileSync(
      path.join(project, 'job.yaml'),
      [
        'name: keychain',
        'plugins: [aar-plugin-keychain]',
        'tasks: { family: keychain, path: node_modules/aar-plugin-keychain/tasks }',
        'agents:',
        '  - name: hopper',
        '  - { name: hopper, id: hopper-1hop, options: { max_hops: 1 } }',
        '  - name: oracle',
        'concurrency: 2',
        'resources: { memory_mb: 512, cpus: 1 }',
        'timeout_s: 120',
        '',
      ].join('\n'),
    );
  });

  test('aar run: every trial scored by the plugin\'s verifier, reported under its slice keys', () => {
    const run = aar(['run', 'job.yaml', '--progress', 'quiet'], 600_000);
    expect({ status: run.status, signal: run.signal, stderr: run.stderr }).toEqual({ status: 0, signal: null, stderr: '' });
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('| agent | model | set | level | n | success | visited |');
    expect(lines).toContain('| hopper | - | * | * | 4 | 100.0% | 100.0% |');
    expect(lines).toContain('| oracle | - | * | * | 4 | 100.0% | 100.0% |');
    expect(lines).toContain('| hopper-1hop | - | * | * | 4 | 0.0% | 35.0% |');
    expect(readdirSync(JOB).filter((d) => d.includes('__'))).toHaveLength(12);
  });

  test('aar report, verify and compare need the plugin (one line without it) and read the job with it', () => {
    expect(aar(['report', JOB])).toMatchObject({ status: 1, stdout: '', stderr: `aar: unknown task family 'keychain'; known: ${FAMILY_NAMES.join(', ')}\n` });
    const report = aar(['report', JOB, '--format', 'csv', ...PLUGIN]);
    expect(report.status).toBe(0);
    expect(report.stdout.split('\n')[0]).toBe('agent,model,set,level,trials,n,infra_errors,success,visited');
    const verify = aar(['verify', JOB, ...PLUGIN]);
    expect(verify.stdout).toMatch(/^12 trials: 12 scored, 0 would change, 0 tampered/m);
    expect(verify.status).toBe(0);
    const compare = aar(['compare', JOB, '--format', 'csv', ...PLUGIN]);
    expect(compare.status).toBe(0);
    const primary = compare.stdout.split('\n').find((l) => l.startsWith('hopper,hopper-1hop,success,*,*,primary,4,'));
    expect(primary).toBeDefined();
  });

  test('aar view serves the report, its filters named by the family\'s slice keys; aar export writes the plugin\'s CSV', async () => {
    const page = await viewPage();
    expect(page).toContain('<select id="filter-coarse" aria-label="set">');
    expect(page).toContain('<select id="filter-fine" aria-label="level">');
    expect(page.match(/id="trial-data-\d+"/g)).toHaveLength(12);
    const out = path.join(tmp.dir, 'csv');
    expect(aar(['export', JOB, '--format', 'csv', '--out', out, ...PLUGIN])).toMatchObject({ status: 0, stderr: '' });
    const rows = readFileSync(path.join(out, 'keychain.csv'), 'utf8').trim().split('\n');
    expect(rows[0]).toBe('trial_id,agent,task,attempt,status,success,visited');
    expect(rows).toHaveLength(13);
    expect(rows).toContain('oracle__hard-1__1,oracle,hard-1,1,completed,true,1');
  });

  test('a plugin built for another plugin API is refused in one line', () => {
    const index = path.join(project, 'node_modules', 'aar-plugin-keychain', 'index.js');
    writeFileSync(index, readFileSync(index, 'utf8').replace('apiVersion: PLUGIN_API_VERSION', 'apiVersion: 99'));
    expect(aar(['plugins', 'list', ...PLUGIN])).toMatchObject({ status: 1, stdout: '', stderr: `aar: ${index}: plugin aar-plugin-keychain is built for plugin API 99; aar-harness ${HARNESS_VERSION} has plugin API 1\n` });
  });
});
