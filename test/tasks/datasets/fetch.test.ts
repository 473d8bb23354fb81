import { jest } from '@jest/globals';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { DATASETS, datasetTasksDir } from '../../../tasks/datasets/catalog.js';
import { contentDigest } from '../../../tasks/datasets/fetch.js';
import { execa } from 'execa';
import { AAR_BIN } from '../../helpers/cli.js';
import { AAR_DATA_DIR, describeWithData, REPO_ROOT, tempDir } from '../../helpers/data.js';

jest.setTimeout(600_000);

const AAR = DATASETS.aar!;
/** GitHub's archive of a commit: one top folder `<repo>-<commit>/` holding the repository. */
const TOP = `the-amazing-agent-race-${AAR.commit}`;

function filesUnder(dir: string, rel = ''): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(dir, path.posix.join(rel, e.name)) : [path.posix.join(rel, e.name)]));
}

/** The repository's archive as GitHub serves it, built from the released data here: data/, the licence, and a file the fetch skips. */
async function archiveOf(change?: (rel: string, bytes: Buffer) => Buffer): Promise<Buffer> {
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((r) => tar.on('end', r));
  tar.entry({ name: `${TOP}/`, type: 'directory' });
  tar.entry({ name: `${TOP}/README.md` }, 'the repository readme: not fetched\n');
  const licence = path.join(path.dirname(AAR_DATA_DIR), 'LICENSE.md');
  tar.entry({ name: `${TOP}/LICENSE.md` }, existsSync(licence) ? readFileSync(licence) : 'MIT\n');
  for (const rel of filesUnder(AAR_DATA_DIR)) {
    const bytes = readFileSync(path.join(AAR_DATA_DIR, rel));
    tar.entry({ name: `${TOP}/data/${rel}` }, change ? change(rel, bytes) : bytes);
  }
  tar.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

/** `aar ...` as a process, without blocking this one: the archive's server runs here. */
async function aar(args: string[], env: Record<string, string>): Promise<{ status: number | undefined; stdout: string; stderr: string }> {
  const r = await execa(process.execPath, [AAR_BIN, ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, reject: false, timeout: 300_000 });
  return { status: r.exitCode, stdout: r.stdout + (r.stdout ? '\n' : ''), stderr: r.stderr + (r.stderr ? '\n' : '') };
}

describeWithData('aar data fetch aar: the released legs by name, checked, from an archive served on loopback', () => {
  const tmp = tempDir('aar-data-');
  let server: Server;
  let base = '';
  const requests: string[] = [];
  const archives = new Map<string, Buffer>();
  beforeAll(async () => {
    archives.set('/good.tar.gz', await archiveOf());
    archives.set('/edited.tar.gz', await archiveOf((rel, bytes) => (rel === 'aar-dag/easy/sample_003.json' ? Buffer.concat([bytes, Buffer.from('\n')]) : bytes)));
    server = createServer((req, res) => {
      requests.push(req.url!);
      const body = archives.get(req.url!);
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/gzip' }).end(body ?? 'not found');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    tmp.cleanup();
  });

  test('the pinned sha256 is that of the released legs (the data here is the repository\'s data/ at the pinned commit)', () => {
    expect(contentDigest(AAR_DATA_DIR)).toEqual({ sha256: AAR.contentSha256, files: AAR.files });
  });

  test('fetched once into the cache, checked, listed; `tasks: {dataset: aar}` plans the 1,400 legs; a second fetch asks nothing', async () => {
    const env = { AAR_DATA_CACHE: path.join(tmp.dir, 'cache') };
    const missing = await aar(['plan', path.join(REPO_ROOT, 'configs', 'paper.yaml')], env);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(`aar: ${path.join(REPO_ROOT, 'configs', 'paper.yaml')}: tasks.dataset: dataset aar is not in the cache (${env.AAR_DATA_CACHE}): run \`aar data fetch aar\`\n`);

    const fetched = await aar(['data', 'fetch', 'aar', '--url', `${base}/good.tar.gz`], env);
    expect(fetched.status).toBe(0);
    const dir = datasetTasksDir('aar', env.AAR_DATA_CACHE);
    expect(fetched.stdout).toBe(`${dir}\n`);
    expect(fetched.stderr).toContain(`aar: 1400 files checked (sha256 ${AAR.contentSha256.slice(0, 12)}...)`);
    expect(filesUnder(dir)).toHaveLength(1400);
    expect(existsSync(path.join(path.dirname(dir), 'LICENSE.md'))).toBe(true);
    expect(existsSync(path.join(path.dirname(dir), 'README.md'))).toBe(false);
    const source = JSON.parse(readFileSync(path.join(path.dirname(dir), 'source.json'), 'utf8'));
    expect(source).toMatchObject({ dataset: 'aar', commit: AAR.commit, url: `${base}/good.tar.gz`, content_sha256: AAR.contentSha256, files: 1400, archive_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const list = JSON.parse((await aar(['data', 'list', '--format', 'json'], env)).stdout);
    expect(list.datasets).toEqual([expect.objectContaining({ name: 'aar', cached: true, path: dir, files: 1400, commit: AAR.commit })]);

    const again = await aar(['data', 'fetch', 'aar', '--url', `${base}/good.tar.gz`], env);
    expect(again.status).toBe(0);
    expect(again.stderr).toContain('aar: already in the cache (1400 files');
    expect(requests.filter((r) => r === '/good.tar.gz')).toHaveLength(1);

    const plan = await aar(['plan', path.join(REPO_ROOT, 'configs', 'paper.yaml'), '--jobs-dir', path.join(tmp.dir, 'jobs')], env);
    expect(plan.stdout).toContain('trials: 4,200 planned (3 agents x 1,400 legs x 1 attempt)');
  });

  test('an archive whose files are not the pinned ones, or not its own sha256, installs nothing', async () => {
    const env = { AAR_DATA_CACHE: path.join(tmp.dir, 'cache-2') };
    const edited = await aar(['data', 'fetch', 'aar', '--url', `${base}/edited.tar.gz`], env);
    expect(edited.status).toBe(1);
    expect(edited.stderr).toMatch(new RegExp(`^aar: ${base}/edited.tar.gz: its 1400 files under data/ hash to [0-9a-f]{64}, not the pinned ${AAR.contentSha256} \\(1400 files at ${AAR.commit.slice(0, 12)}\\): nothing was installed$`, 'm'));
    const wrongHash = await aar(['data', 'fetch', 'aar', '--url', `${base}/good.tar.gz`, '--sha256', '0'.repeat(64)], env);
    expect(wrongHash.stderr).toMatch(/the archive has sha256 [0-9a-f]{64}, expected 0{64}: nothing was installed/);
    const absent = await aar(['data', 'fetch', 'aar', '--url', `${base}/none.tar.gz`], env);
    expect(absent.stderr).toBe(`aar: ${base}/none.tar.gz: the server answered 404 Not Found\n`);
    mkdirSync(env.AAR_DATA_CACHE, { recursive: true });
    expect(readdirSync(env.AAR_DATA_CACHE)).toEqual([]);
  });
});
