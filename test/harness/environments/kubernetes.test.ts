import { jest } from '@jest/globals';
import { KubernetesEnvironmentProvider } from '../../../harness/environments/kubernetes/environment.js';
import { ensureBaseImage } from '../../../images/build.js';
import { environmentConformance } from './conformance.js';
import { clusterSettings, noClusterReason, podsNamed } from './kubernetes/cluster.js';

const WHY_NOT = await noClusterReason();
if (WHY_NOT) console.warn(`kubernetes conformance skipped: ${WHY_NOT}`);
const image = WHY_NOT ? '' : await ensureBaseImage();
const PREFIX = `aar-test-conf${process.pid}-`;

jest.setTimeout(300_000);
if (!WHY_NOT) {
  environmentConformance('kubernetes', () => new KubernetesEnvironmentProvider(clusterSettings(PREFIX)), { image: () => image, suiteLabel: `aar-test-conf-k8s-${process.pid}` });
  afterAll(async () => {
    expect(await podsNamed(PREFIX)).toEqual([]);
  });
} else {
  test.skip(`kubernetes conformance: ${WHY_NOT}`, () => {});
}
