import { jest } from '@jest/globals';
import { SwarmEnvironmentProvider } from '../../../harness/environments/swarm/environment.js';
import { DEFAULT_SWARM_SETTINGS } from '../../../harness/environments/swarm/settings.js';
import { ensureBaseImage } from '../../../images/build.js';
import { environmentConformance } from './conformance.js';
import { settledLeftovers, swarmManagerHere } from './swarm-helpers.js';

const HAVE_SWARM = await swarmManagerHere();
if (!HAVE_SWARM) console.warn('swarm conformance skipped: this engine is not a swarm manager (.ci/run runs docker swarm init --advertise-addr 127.0.0.1)');
const image = HAVE_SWARM ? await ensureBaseImage() : '';
const PREFIX = `aar-test-conf${process.pid}-`;

jest.setTimeout(180_000);
if (HAVE_SWARM) {
  environmentConformance('swarm', () => new SwarmEnvironmentProvider({ ...DEFAULT_SWARM_SETTINGS, name_prefix: PREFIX }), { image: () => image, suiteLabel: `aar-test-conf-swarm-${process.pid}` });
  afterAll(async () => {
    expect(await settledLeftovers(PREFIX)).toEqual([]);
  });
} else {
  test.skip('swarm conformance needs a swarm manager', () => {});
}
