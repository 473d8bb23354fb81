import { agentRecipe, baseRecipe, BOOTSTRAPPED_DEBIAN, DEFAULT_IMAGE_SETTINGS, ensureAgentImage, recipeTag, type ImageSettings } from '../../images/build.js';
import type { AgentAdapter } from '../agents/types.js';
import type { LoadedConfig } from '../config/load.js';
import type { AgentConfig, JobConfig } from '../config/schema.js';
import { engineProbe } from './engine-probe.js';

/** How a job's config says images are built. */
export function imageSettings(config: JobConfig, loaded: LoadedConfig): ImageSettings {
  return {
    ...DEFAULT_IMAGE_SETTINGS,
    base: config.images.base,
    caCerts: config.images.ca_certs ? config.images.ca_certs.map(loaded.resolve) : DEFAULT_IMAGE_SETTINGS.caCerts,
    ...(config.images.npm_registry ? { npmRegistry: config.images.npm_registry } : {}),
    ...(config.images.debian_mirror ? { debianMirror: config.images.debian_mirror } : {}),
  };
}

/** The lines of an image build a job shows: its start (with how long the last one took), the wheels it downloads once, each layer, the bootstrap's phases, its end. */
const BUILD_PROGRESS = /^(building |built |cannot |downloading |step \d+\/\d+: |bootstrap-debian: )/;

/** Builds (or finds) the image of each agent the trials run; returns its tag per agent id. `note` hears the build's progress. */
export async function ensureJobImages(trials: readonly { agentId: string; agent: AgentConfig; adapter: AgentAdapter }[], settings: ImageSettings, note: (line: string) => void): Promise<Map<string, string>> {
  const images = new Map<string, string>();
  for (const { agentId, agent, adapter } of trials) {
    if (images.has(agentId)) continue;
    images.set(agentId, await ensureAgentImage(adapter.imageLayer, settings, adapter.buildArgs?.(agent) ?? {}, (line) => BUILD_PROGRESS.test(line) && note(/^(building|built|cannot|downloading) /.test(line) ? line : `  ${line}`)));
  }
  return images;
}

export interface PlannedImage {
  /** `base`, or the agent layer's name. */
  role: string;
  /** The content-hash tag, or the Debian image to start from. */
  tag: string;
  /** On the engine already; null when it cannot be told. */
  present: boolean | null;
}

export interface ImagePlan {
  /** False when no Docker engine answered: then nothing is known about images. */
  engine: boolean;
  images: PlannedImage[];
}

/**
 * The images a job's trials need, by the tags a run would give them, and which the engine lacks. Builds
 * and pulls nothing; with `base: auto` it reports the Debian image a run would start from.
 */
export async function planImages(settings: ImageSettings, agents: readonly { agent: AgentConfig; adapter: AgentAdapter }[]): Promise<ImagePlan> {
  const engine = engineProbe();
  if (!(await engine.answers())) return { engine: false, images: [] };
  const present = (tag: string): Promise<boolean> => engine.hasImage(tag);
  const images: PlannedImage[] = [];
  let debian = settings.base;
  if (debian === 'auto') {
    debian = 'debian:bookworm-slim';
    if (!(await present(debian)) && (await present(BOOTSTRAPPED_DEBIAN))) debian = BOOTSTRAPPED_DEBIAN;
  }
  images.push({ role: 'debian', tag: debian, present: await present(debian) });
  const baseTag = recipeTag(baseRecipe(settings, debian));
  images.push({ role: 'base', tag: baseTag, present: await present(baseTag) });
  const seen = new Set<string>();
  for (const { agent, adapter } of agents) {
    if (!adapter.imageLayer) continue;
    const tag = recipeTag(agentRecipe(adapter.imageLayer, baseTag, adapter.buildArgs?.(agent) ?? {}));
    if (seen.has(tag)) continue;
    seen.add(tag);
    images.push({ role: adapter.imageLayer.name, tag, present: await present(tag) });
  }
  return { engine: true, images };
}
