import { jest } from '@jest/globals';
import path from 'node:path';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { dockerAvailable } from '../../../common/docker.js';
import { loadLegs } from '../../../tasks/aar/load.js';
import { collectFacts } from '../../../tasks/aar/world/upstream/facts.js';
import { StandInUpstream } from '../../../tasks/aar/world/upstream/server.js';
import { readProvenance, storeFingerprint } from '../../../tools/store/provenance.js';
import { loadJobResults } from '../../../verifier/results.js';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';
import { writeJobConfig } from '../../helpers/jobs.js';
import { withFakeToolKeys } from '../../tools/providers/fakes/index.js';

const HAVE_DOCKER = await dockerAvailable();
const describeDocker = HAVE_DOCKER ? describe : describe.skip;
if (!HAVE_DOCKER) console.warn('Docker tests skipped: no Docker engine answers (run images/docker-up.sh)');

jest.setTimeout(300_000);

describeDocker('a pinned world (Docker, the stand-in upstream)', () => {
  const tmp = tempDir('aar-job-pinned-');
  let standIn: StandInUpstream;
  beforeAll(async () => {
    standIn = await new StandInUpstream(await collectFacts((await loadLegs(EXAMPLES_DIR)).legs)).start();
  });
  afterAll(async () => {
    await standIn.stop();
    tmp.cleanup();
  });

  test('the first run records what the store lacks; the second makes no upstream call; both score the same', async () => {
    const store = path.join(tmp.dir, 'world');
    const tools = { mode: 'pinned', store, endpoints: standIn.endpoints };
    const run = (name: string) => withFakeToolKeys(() => runJob({ configPath: writeJobConfig(tmp.dir, { name, tools }, `${name}.yaml`), reporter: new QuietReporter(), retryDelayMs: 10 }));
    // Every figure of every trial's score but how long it took.
    const scores = (jobDir: string) => Object.fromEntries(loadJobResults(jobDir).map((r) => [r.record.leg.id, { ...r.score, wall_s: undefined }]));

    const first = await run('first');
    expect(first).toMatchObject({ planned: 3, ran: 3, infraErrors: 0 });
    const recorded = standIn.requests.length;
    expect(recorded).toBeGreaterThan(5);
    const world = storeFingerprint(store);
    expect(world.entries).toBeGreaterThan(5);
    expect(readProvenance(store).sessions).toEqual([expect.objectContaining({ mode: 'pinned', endpoints: expect.objectContaining({ googleMaps: standIn.endpoints.googleMaps }) })]);

    const second = await run('second');
    expect(second).toMatchObject({ planned: 3, ran: 3, infraErrors: 0 });
    expect(standIn.requests.length).toBe(recorded);
    expect(storeFingerprint(store)).toEqual(world);
    expect(readProvenance(store).sessions).toHaveLength(1);
    const firstScores = scores(first.jobDir);
    expect(Object.values(firstScores).map((s) => (s as { fa: number }).fa)).toEqual([1, 1, 1]);
    expect(scores(second.jobDir)).toEqual(firstScores);
  });
});
