import { jest } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { dockerAvailable } from '../../../common/docker.js';
import { loadLegs } from '../../../tasks/aar/load.js';
import { synthesizeWorld } from '../../../tasks/aar/world/synthesize.js';
import { ResponseStore } from '../../../tools/store/store.js';
import { loadJobResults } from '../../../verifier/results.js';
import { PAIR, writeConflictingLegs } from '../../helpers/conflicting-legs.js';
import { tempDir } from '../../helpers/data.js';
import { writeJobConfig } from '../../helpers/jobs.js';

const HAVE_DOCKER = await dockerAvailable();
const describeDocker = HAVE_DOCKER ? describe : describe.skip;
if (!HAVE_DOCKER) console.warn('Docker tests skipped: no Docker engine answers (run images/docker-up.sh)');

jest.setTimeout(300_000);

describeDocker('one synthetic store for legs that disagree (Docker)', () => {
  const tmp = tempDir('aar-job-per-leg-');
  afterAll(() => tmp.cleanup());

  test('the oracle of each of two legs needing different answers to one call reads its own golden values from the one store', async () => {
    const legsDir = writeConflictingLegs(path.join(tmp.dir, 'legs'));
    const { legs } = await loadLegs(legsDir);
    const store = path.join(tmp.dir, 'store');
    await synthesizeWorld(legs, new ResponseStore(store));
    const config = writeJobConfig(tmp.dir, { name: 'pair', tasks: { path: legsDir }, tools: { mode: 'replay', store } });
    const summary = await runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10 });
    expect(summary).toMatchObject({ planned: 2, ran: 2, infraErrors: 0 });
    const results = loadJobResults(summary.jobDir);
    const byLeg = new Map(results.map((r) => [r.record.leg.id, r]));
    for (const [id, { elevation }] of [[PAIR.a.id, PAIR.a], [PAIR.b.id, PAIR.b]] as const) {
      const trial = byLeg.get(id)!;
      expect({ id, ...trial.score }).toMatchObject({ id, status: 'correct', fa: 1, pvr: 1, rcr: 1 });
      // the oracle's own account: the elevation its leg expects was in the answer it was served
      const oracleLog = readdirSync(path.join(trial.dir, 'agent')).map((f) => readFileSync(path.join(trial.dir, 'agent', f), 'utf8')).join('\n');
      expect(oracleLog).toContain(`stop 2 tool maps_geocode -> maps_elevation: found ${elevation}`);
      expect(readFileSync(path.join(trial.dir, 'tool_log.jsonl'), 'utf8')).toContain(String(elevation));
    }
    // and the scorer sees as many golden values served on one leg's path as on the other's
    expect(byLeg.get(PAIR.b.id)!.score).toMatchObject({ intermediate_correct: (byLeg.get(PAIR.a.id)!.score as { intermediate_correct: number }).intermediate_correct });
  });
});
