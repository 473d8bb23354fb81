/**
 * Images through a registry (`swarm.registry`): the job pushes each image under its content-hash tag and
 * services run it by digest, so any node can pull it. The registry is Debian's `docker-registry` on a
 * loopback port (.ci/run installs it); loopback registries need no TLS.
 */
import { jest } from '@jest/globals';
import { execa } from 'execa';
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ImageDistributor } from '../../../harness/environments/swarm/images.js';
import { DEFAULT_SWARM_SETTINGS } from '../../../harness/environments/swarm/settings.js';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { ensureBaseImage } from '../../../images/build.js';
import { docker } from '../../../common/docker.js';
import { loadJobResults } from '../../../verifier/results.js';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';
import { writeJobConfig } from '../../helpers/jobs.js';
import { settledLeftovers, swarmManagerHere } from './swarm-helpers.js';

const HAVE_REGISTRY = (await execa('sh', ['-c', 'command -v docker-registry'], { reject: false })).exitCode === 0;
const HAVE_SWARM = await swarmManagerHere();
if (!HAVE_SWARM || !HAVE_REGISTRY) console.warn(`swarm registry tests skipped: ${!HAVE_SWARM ? 'this engine is not a swarm manager' : 'no docker-registry (apt-get install docker-registry)'}`);
jest.setTimeout(400_000);

const PREFIX = `aar-test-reg${process.pid}-`;

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

(HAVE_SWARM && HAVE_REGISTRY ? describe : describe.skip)('swarm images through a registry', () => {
  const tmp = tempDir('aar-swarm-registry-');
  let registry: string;
  let server: ReturnType<typeof execa>;

  beforeAll(async () => {
    const port = await freePort();
    registry = `127.0.0.1:${port}`;
    const storage = path.join(tmp.dir, 'storage');
    mkdirSync(storage);
    const config = path.join(tmp.dir, 'registry.yml');
    writeFileSync(config, `version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: ${storage}\nhttp:\n  addr: ${registry}\n`);
    server = execa('docker-registry', ['serve', config], { reject: false });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answer = await fetch(`http://${registry}/v2/`).catch(() => null);
      if (answer?.ok) break;
      if (Date.now() > deadline) throw new Error(`docker-registry did not answer on ${registry}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  afterAll(async () => {
    server?.kill('SIGTERM');
    await server;
    // The names the pushes and pulls gave the base image (its layers stay: aar-base holds them).
    const images = (await docker().listImages()) as { RepoTags?: string[]; RepoDigests?: string[] }[];
    const names = images.flatMap((i) => [...(i.RepoTags ?? []), ...(i.RepoDigests ?? [])]).filter((n) => n.startsWith(`${registry}/`));
    for (const n of names) await docker().getImage(n).remove().catch(() => {});
    expect(await settledLeftovers(PREFIX)).toEqual([]);
    tmp.cleanup();
  });

  test('an image is pushed under its content-hash tag and can be pulled back by the digest the job uses', async () => {
    const tag = await ensureBaseImage();
    const reference = await new ImageDistributor({ ...DEFAULT_SWARM_SETTINGS, registry }).imageFor(tag);
    const [name, version] = tag.split(':');
    expect(reference).toMatch(new RegExp(`^${registry.replace(/\./g, '\\.')}/${name}:${version}@sha256:[0-9a-f]{64}$`));
    const catalog = (await (await fetch(`http://${registry}/v2/_catalog`)).json()) as { repositories: string[] };
    expect(catalog.repositories).toContain(name);
    // Without the local copy under the registry's name, the engine must fetch it from the registry.
    const byDigest = reference.replace(`:${version}@`, '@');
    await docker().getImage(`${registry}/${name}:${version}`).remove().catch(() => {});
    await execa('docker', ['pull', byDigest]);
    expect(((await docker().getImage(byDigest).inspect()) as { Id: string }).Id).toBe(((await docker().getImage(tag).inspect()) as { Id: string }).Id);
  });

  test('a swarm job with a registry runs its trials from the pushed image', async () => {
    const config = writeJobConfig(
      tmp.dir,
      { name: 'aar-test-reg-job', tasks: { path: EXAMPLES_DIR, limit: 2 }, agents: [{ name: 'oracle' }], environment: 'swarm', swarm: { name_prefix: PREFIX, registry } },
      'registry.yaml',
    );
    const summary = await runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10 });
    expect(summary).toMatchObject({ planned: 2, ran: 2, infraErrors: 0 });
    const results = loadJobResults(summary.jobDir);
    expect(results.map((r) => [r.record.status, (r.score as { fa?: number }).fa])).toEqual([
      ['completed', 1],
      ['completed', 1],
    ]);
  });
});
