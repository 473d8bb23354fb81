import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AAR_BIN, runAar } from '../../helpers/cli.js';
import { AAR_DATA_DIR, describeWithData, EXAMPLES_DIR, REPO_ROOT, tempDir } from '../../helpers/data.js';

describeWithData('aar world synthesize (the compiled command, on the released legs)', () => {
  const tmp = tempDir('aar-world-');
  afterAll(() => tmp.cleanup());

  test('takes the leg filters: a store for the legs chosen only', () => {
    const r = runAar(['world', 'synthesize', AAR_DATA_DIR, path.join(tmp.dir, 'easy'), '--level', 'easy', '--variant', 'aar-linear']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^synthetic world for 200 legs in .*: \d+ pages, \d+ tool responses, 0 conflicts/);
    const none = runAar(['world', 'synthesize', AAR_DATA_DIR, path.join(tmp.dir, 'none'), '--id', 'no-such-leg']);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('no leg of the 1400 loaded matches the filters');
  });

  test('over all 1,400 legs no answer is kept-first: where legs disagree each gets its own, and a leg asking one call twice for two values gets both', () => {
    const r = runAar(['world', 'synthesize', AAR_DATA_DIR, path.join(tmp.dir, 'all')]);
    expect(r.status).toBe(0);
    // before per-leg answers: "19 conflicts (first answer kept)" and 19 legs whose oracle read another leg's answer; since a
    // place search read as a first rating answers one rated place (not a count of places), 3 more legs have their own
    expect(r.stdout).toMatch(/, 0 conflicts \(first answer kept\), 22 per-leg answers \(20 where a leg disagrees with the shared answer, 2 holding two answers one leg needs\)/);
    expect(r.stdout).toMatch(/^2 legs ask one call twice on their golden path expecting two values; their answer holds both, one per line: aar-dag\/extreme\/sample_209, aar-dag\/extreme\/sample_220$/m);
    expect(readdirSync(path.join(tmp.dir, 'all', 'per-leg'))).toHaveLength(22);
  });
});

const cliTmp = tempDir('aar-cli-world-');
afterAll(() => cliTmp.cleanup());
const KEYS = { GOOGLE_API_KEY: 'k', SERPER_API_KEY: 'k', OPENAI_API_KEY: 'k' };

describe('aar world', () => {
  const store = path.join(cliTmp.dir, 'golden');

  beforeAll(() => {
    const r = runAar(['world', 'synthesize', EXAMPLES_DIR, store]);
    expect(r.status).toBe(0);
  });

  test('info: where the world came from and what it holds; pack and unpack give the same world', () => {
    const info = runAar(['world', 'info', store]);
    expect(info.status).toBe(0);
    expect(info.stdout).toMatch(/world: sha256 ([0-9a-f]{64}) \(\d+ entries\)/);
    expect(info.stdout).toContain('answers synthetic (made from golden traces, not real data)');
    expect(info.stdout).toContain('synthesize by aar-harness');
    const fingerprint = /world: sha256 ([0-9a-f]{64})/.exec(info.stdout)![1];
    expect(JSON.parse(runAar(['world', 'info', store, '--format', 'json']).stdout)).toMatchObject({ fingerprint, world: { origin: 'synthetic' } });

    const file = path.join(cliTmp.dir, 'world.tar.gz');
    const packed = runAar(['world', 'pack', store, file]);
    expect(packed.stdout).toContain(`world sha256 ${fingerprint}`);
    const unpacked = runAar(['world', 'unpack', file, path.join(cliTmp.dir, 'copy')]);
    expect(unpacked.stdout).toContain(`world sha256 ${fingerprint}`);
    const again = runAar(['world', 'unpack', file, path.join(cliTmp.dir, 'copy')]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/^aar: .*copy: the folder exists and is not empty; unpack into a new one\n$/);
  });

  test('audit: against its synthesized store every example leg holds; JSON and the exclude list', () => {
    const excludeOut = path.join(cliTmp.dir, 'exclude.yaml');
    const r = runAar(['world', 'audit', EXAMPLES_DIR, '--store', store, '--format', 'json', '--exclude-out', excludeOut]);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ world: `replay ${store}`, byStatus: { held: 3, 'value-drifted': 0, 'passcode-changed': 0, 'call-failed': 0 }, exclude: [] });
    expect(readFileSync(excludeOut, 'utf8')).toMatch(/^# legs whose golden passcode does not hold in replay .*\nexclude: \[\]\n$/);
    expect(r.stderr).toContain('audited 3/3 legs (100%)');
    const md = runAar(['world', 'audit', EXAMPLES_DIR, '--store', store]);
    expect(md.stdout).toMatch(/^world audit of 3 legs against replay .*: \d+ tool calls in [\d.]+ s\n/);
    expect(md.stdout).toContain('| held | 3 | 100.0% |');
  });

  test('audit: no world named, or an unknown one, is one line', () => {
    expect(runAar(['world', 'audit', EXAMPLES_DIR]).stderr).toBe('aar: world audit: say which world: --store DIR, or live\n');
    expect(runAar(['world', 'audit', EXAMPLES_DIR, 'yesterday']).stderr).toBe('aar: world audit: the second argument is "live" or nothing, not "yesterday"\n');
    expect(runAar(['world', 'audit', EXAMPLES_DIR, '--store', path.join(cliTmp.dir, 'none')]).stderr).toMatch(/^aar: .*none: no such store folder\n$/);
  });

  test('serve, then audit live against it: the example legs hold; a drift file moves the leg that reads the fact', async () => {
    const drift = path.join(cliTmp.dir, 'drift.json');
    writeFileSync(drift, JSON.stringify([{ stop: 'examples-dag/medium/sample_002#2', value: 19053817 }]));
    const endpoints = path.join(cliTmp.dir, 'endpoints.yaml');
    const server = spawn(process.execPath, [AAR_BIN, 'world', 'serve', EXAMPLES_DIR, '--endpoints-out', endpoints, '--drift', drift], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        server.stdout.on('data', (d) => {
          out += d;
          if (out.includes('tools.endpoints:') && existsSync(endpoints)) resolve();
        });
        server.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const r = runAar(['world', 'audit', EXAMPLES_DIR, 'live', '--endpoints', endpoints, '--format', 'json'], { env: KEYS });
      expect(r.status).toBe(0);
      const report = JSON.parse(r.stdout);
      const moved = report.legs.filter((l: { status: string }) => l.status !== 'held').map((l: { id: string }) => l.id);
      expect(moved).toEqual(['examples-dag/medium/sample_002']);
      expect(report.legs.find((l: { id: string }) => l.id === 'examples-dag/medium/sample_002').stops[0]).toMatchObject({ status: 'drifted', golden: 19053815, now: 19053817 });
    } finally {
      server.kill('SIGTERM');
    }
  });
});
