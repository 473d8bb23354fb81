import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DockerEnvironmentProvider } from '../../../harness/environments/docker/environment.js';
import { cleanupContainers } from '../../../harness/jobs/cleanup.js';
import { lockJobDir } from '../../../harness/jobs/lock.js';
import { harnessLabels, jobKeyOf } from '../../../harness/jobs/labels.js';
import { docker, dockerAvailable } from '../../../common/docker.js';
import { tempDir } from '../../helpers/data.js';

const HAVE_DOCKER = await dockerAvailable();
const describeDocker = HAVE_DOCKER ? describe : describe.skip;
jest.setTimeout(120_000);

/**
 * The real Docker provider, seeing only the containers this test made (the engine is shared: `--all` must
 * not reach other runs' containers from a test).
 */
class ThisTestsContainers extends DockerEnvironmentProvider {
  constructor(private readonly mark: Record<string, string>) {
    super();
  }
  override listByLabels(labels: Record<string, string>) {
    return super.listByLabels({ ...labels, ...this.mark });
  }
  override removeByLabels(labels: Record<string, string>) {
    return super.removeByLabels({ ...labels, ...this.mark });
  }
}

describeDocker('aar cleanup', () => {
  const mark = { 'aar.test-cleanup': randomBytes(6).toString('hex') };
  const environment = new ThisTestsContainers(mark);
  const tmp = tempDir('aar-h9b-cleanup-');
  afterAll(async () => {
    await new DockerEnvironmentProvider().removeByLabels(mark);
    tmp.cleanup();
  });

  const container = async (labels: Record<string, string>): Promise<string> => {
    const c = await docker().createContainer({ Image: 'aar-debian:bookworm', Cmd: ['sleep', '300'], Labels: { ...labels, ...mark } });
    return c.id;
  };
  const present = async (): Promise<string[]> => (await environment.listByLabels({})).map((c) => c.id).sort();

  test("without --job only this checkout's left-over containers go; a running job's stay; --all lists and removes the rest", async () => {
    const deadJob = path.join(tmp.dir, 'jobs', 'dead');
    const liveJob = path.join(tmp.dir, 'jobs', 'live');
    const elsewhere = '/home/someone/other-checkout/jobs/theirs';
    const leftover = await container(harnessLabels(deadJob, jobKeyOf(deadJob)));
    const running = await container(harnessLabels(liveJob, jobKeyOf(liveJob)));
    const other = await container({ ...harnessLabels(elsewhere, jobKeyOf(elsewhere)), 'aar.checkout': '/home/someone/other-checkout' });
    mkdirSync(liveJob, { recursive: true });
    const lock = lockJobDir(liveJob);
    try {
      const scoped = await cleanupContainers(environment, {});
      expect(scoped.removed.map((r) => [r.job, r.containers.map((c) => c.id)])).toEqual([[deadJob, [leftover]]]);
      expect(scoped.running).toEqual([{ job: liveJob, holder: expect.objectContaining({ pid: process.pid }), containers: 1 }]);
      expect(await present()).toEqual([running, other].sort());

      const one = await cleanupContainers(environment, { job: liveJob });
      expect(one.removed).toEqual([]);
      expect(await present()).toEqual([running, other].sort());

      const all = await cleanupContainers(environment, { all: true });
      expect(all.removed.map((r) => [r.job, r.containers.map((c) => c.id)])).toEqual([[elsewhere, [other]]]);
      expect(await present()).toEqual([running]);
    } finally {
      lock.release();
    }
    const after = await cleanupContainers(environment, { job: liveJob });
    expect(after.removed.map((r) => r.count)).toEqual([1]);
    expect(await present()).toEqual([]);
  });

  test('--job on a folder that is not a job (no job.json, no trial folder) is refused in one line; nothing in it is deleted', async () => {
    const notAJob = path.join(tmp.dir, 'mine');
    mkdirSync(path.join(notAJob, '.partial', 'x'), { recursive: true });
    writeFileSync(path.join(notAJob, '.partial', 'x', 'y.txt'), 'mine');
    await expect(cleanupContainers(environment, { job: notAJob })).rejects.toThrow(
      new Error(`${notAJob} is not a job folder (no job.json and no trial folder): cleanup leaves it and its containers alone`),
    );
    expect(readFileSync(path.join(notAJob, '.partial', 'x', 'y.txt'), 'utf8')).toBe('mine');

    // A job folder's own half-written trials do go; a job folder that is gone is only a job key.
    const job = path.join(tmp.dir, 'jobs', 'killed');
    mkdirSync(path.join(job, '.partial', 't-abc123'), { recursive: true });
    writeFileSync(path.join(job, 'job.json'), '{}');
    await cleanupContainers(environment, { job });
    expect(readdirSync(job)).toEqual(['job.json']);
    await expect(cleanupContainers(environment, { job: path.join(tmp.dir, 'jobs', 'gone') })).resolves.toEqual({ removed: [], running: [] });
  });
});
