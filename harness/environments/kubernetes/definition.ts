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
});
