import { defineEnvironment } from '../define.js';
import { DEFAULT_KUBERNETES_SETTINGS, imagePath, kubernetesSettingsSchema, type KubernetesSettings } from './settings.js';

/** Trials on a Kubernetes cluster, one pod each (environment.ts); its settings are the config's `kubernetes:`. */
defineEnvironment<KubernetesSettings>({
  name: 'kubernetes',
  leftovers: 'pods',
  settings: kubernetesSettingsSchema,
  async create(settings) {
    const { KubernetesEnvironmentProvider } = await import('./environment.js');
    return new KubernetesEnvironmentProvider(settings ?? DEFAULT_KUBERNETES_SETTINGS);
  },
  planNote: (settings) => `images ${imagePath(settings ?? DEFAULT_KUBERNETES_SETTINGS)}`,
  // The suite runs on the local cluster of images/k8s-up.sh, its pods named after the suite.
  conformance: {
    unavailable: async () => (await (await import('./local-cluster.js')).noClusterReason()) ?? undefined,
    settings: async (suiteLabel) => (await import('./local-cluster.js')).clusterSettings(`${suiteLabel}-`),
    leftovers: async (suiteLabel) => (await import('./local-cluster.js')).podsNamed(`${suiteLabel}-`),
  },
});
