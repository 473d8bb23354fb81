import Docker from 'dockerode';
import { docker, followProgress } from '../../../common/docker.js';
import { OnceByKey } from '../once-by-key.js';
import type { SwarmSettings } from './settings.js';

/** A Docker client for an engine address of the job config (unix:///path or tcp://host:port). */
export function engineClient(address: string): Docker {
  if (address.startsWith('unix://')) return new Docker({ socketPath: address.slice('unix://'.length) });
  const url = new URL(address);
  return new Docker({ host: url.hostname, port: Number(url.port || 2375), protocol: 'http' });
}

async function hasImage(engine: Docker, tag: string): Promise<boolean> {
  try {
    await engine.getImage(tag).inspect();
    return true;
  } catch {
    return false;
  }
}

/** Pushes a local image to the registry under the same name and tag; returns the reference nodes pull (by digest when the registry says it). */
export async function pushToRegistry(tag: string, registry: string): Promise<string> {
  const [name, version] = tag.split(':');
  const repo = `${registry}/${name}`;
  await docker().getImage(tag).tag({ repo, tag: version });
  let digest: string | undefined;
  const stream = await docker().getImage(`${repo}:${version}`).push({ tag: version });
  await new Promise<void>((resolve, reject) => {
    let failure: string | undefined;
    docker().modem.followProgress(
      stream,
      (error: Error | null) => (error ? reject(error) : failure ? reject(new Error(`push ${repo}:${version}: ${failure}`)) : resolve()),
      (event: { error?: string; aux?: { Digest?: string } }) => {
        if (event.error) failure = event.error;
        if (event.aux?.Digest) digest = event.aux.Digest;
      },
    );
  });
  return digest ? `${repo}:${version}@${digest}` : `${repo}:${version}`;
}

/** `docker save | docker load` of one image into another engine, unless it has it already. */
export async function loadInto(engine: Docker, tag: string): Promise<boolean> {
  if (await hasImage(engine, tag)) return false;
  const saved = await docker().getImage(tag).get();
  await followProgress(await engine.loadImage(saved));
  return true;
}

/**
 * Images on every node: pushed to the job's registry (nodes pull them), or loaded into each engine the
 * config names; the manager's own engine has them already. Returns the reference services use.
 */
export class ImageDistributor {
  private readonly ready = new OnceByKey<string>();

  constructor(private readonly settings: SwarmSettings) {}

  imageFor(tag: string): Promise<string> {
    return this.ready.get(tag, () => this.distribute(tag));
  }

  private async distribute(tag: string): Promise<string> {
    if (this.settings.registry) return pushToRegistry(tag, this.settings.registry);
    for (const [node, address] of Object.entries(this.settings.node_engines)) {
      try {
        await loadInto(engineClient(address), tag);
      } catch (error) {
        throw new Error(`cannot load ${tag} into node ${node} (${address}): ${(error as Error).message}`);
      }
    }
    return tag;
  }
}
