import { jest } from '@jest/globals';
import { DockerEnvironmentProvider } from '../../../harness/environments/docker/environment.js';
import { ensureBaseImage } from '../../../images/build.js';
import { dockerAvailable } from '../../../common/docker.js';
import { environmentConformance } from './conformance.js';

const HAVE_DOCKER = await dockerAvailable();
if (!HAVE_DOCKER) console.warn('docker conformance skipped: no Docker engine answers (run images/docker-up.sh)');
const image = HAVE_DOCKER ? await ensureBaseImage() : '';

jest.setTimeout(180_000);
if (HAVE_DOCKER) {
  environmentConformance('docker', () => new DockerEnvironmentProvider(), { image: () => image, suiteLabel: `aar-test-conf-docker-${process.pid}` });
} else {
  test.skip('docker conformance needs a Docker engine', () => {});
}
