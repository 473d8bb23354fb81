import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { pack } from 'tar-stream';
import { formatDuration } from '../common/duration.js';
import { LOADING_IN_PROCESS, PROGRAMS_DIR } from '../container/program.js';
import { packagePath } from '../paths.js';
import { lastBuildSeconds, recordBuildSeconds, stepLine } from './build-times.js';
import { docker, followProgress, imageExists, requireDocker } from '../common/docker.js';
import { withFileLock } from './lock.js';
import { cachedWheels, PIP_REQUIREMENTS_ARG } from './wheels.js';

/** How images are built; every field has a default that works on a machine like ours. */
export interface ImageSettings {
  /**
   * The Debian image everything starts from. `auto`: debian:bookworm-slim when it is present or can be
   * pulled, else one bootstrapped from Debian's packages (tagged `aar-debian:bookworm`).
   */
  base: string;
  /** Extra CA certificate files (or folders of *.crt) to trust inside images: proxies, corporate CAs. */
  caCerts: string[];
  nodeVersion: string;
  npmVersion: string;
  npmRegistry: string;
  debianMirror: string;
}

/** The host's extra CAs, as on machines behind a TLS-intercepting proxy. */
export const HOST_CA_DIR = '/usr/local/share/ca-certificates';

export const DEFAULT_IMAGE_SETTINGS: ImageSettings = {
  base: 'auto',
  caCerts: existsSync(HOST_CA_DIR) ? [HOST_CA_DIR] : [],
  nodeVersion: '22.23.3',
  npmVersion: '10.9.4',
  npmRegistry: 'https://registry.npmjs.org',
  debianMirror: 'http://deb.debian.org/debian',
};

export const BOOTSTRAPPED_DEBIAN = 'aar-debian:bookworm';
export const IMAGE_LABEL = 'aar-harness.image';

/** A Docker build: Dockerfile, extra context files and build arguments. */
export interface ImageRecipe {
  name: string;
  dockerfile: string;
  files: Record<string, Buffer>;
  buildArgs: Record<string, string>;
}

/** The tag of a recipe: its name and a hash of everything that goes into it, so unchanged inputs reuse the image. */
export function recipeTag(recipe: ImageRecipe): string {
  const h = createHash('sha256');
  h.update(recipe.dockerfile);
  for (const key of Object.keys(recipe.buildArgs).sort()) h.update(`\0arg:${key}=${recipe.buildArgs[key]}`);
  for (const name of Object.keys(recipe.files).sort()) h.update(`\0file:${name}\0`).update(recipe.files[name]);
  return `aar-${recipe.name}:${h.digest('hex').slice(0, 12)}`;
}

function caCertFiles(sources: readonly string[]): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  for (const source of sources) {
    if (!existsSync(source)) throw new Error(`${source}: CA certificate file or folder not found`);
    const paths = statSync(source).isDirectory()
      ? readdirSync(source, { recursive: true }).map(String).filter((f) => f.endsWith('.crt')).map((f) => path.join(source, f))
      : [source];
    for (const p of paths) files[`certs/${path.basename(p, '.crt').replace(/[^A-Za-z0-9._-]/g, '_')}.crt`] = readFileSync(p);
  }
  return files;
}

export function baseRecipe(settings: ImageSettings, baseImage: string): ImageRecipe {
  const bundle = packagePath('dist', 'tools-cli.cjs');
  if (!existsSync(bundle)) throw new Error(`${bundle}: missing; run npm run build`);
  // The built-in programs (the oracles, the baselines, the players) live in the image, not in each trial's work.
  const programsDir = packagePath('dist', 'agents');
  const programs = Object.fromEntries(readdirSync(programsDir).filter((f) => f.endsWith('.cjs')).sort().map((f) => [`agents/${f}`, readFileSync(path.join(programsDir, f))]));
  return {
    name: 'base',
    dockerfile: readFileSync(packagePath('images', 'base', 'Dockerfile'), 'utf8'),
    files: { 'tools-cli.cjs': readFileSync(bundle), ...programs, 'certs/.keep': Buffer.from(''), ...caCertFiles(settings.caCerts) },
    buildArgs: { BASE_IMAGE: baseImage, NODE_VERSION: settings.nodeVersion, NPM_VERSION: settings.npmVersion, NPM_REGISTRY: settings.npmRegistry, PROGRAMS_DIR, LOADING_IN_PROCESS },
  };
}

/**
 * An agent's image layer: its name (the image's, `aar-<name>:<hash>`), its Dockerfile, and a folder whose
 * files its build context holds besides (none: the Dockerfile alone). Built-in agents keep the Dockerfile
 * beside their adapter (harness/agents/<name>/Dockerfile); a plugin's agent names its own.
 */
export interface ImageLayer {
  name: string;
  dockerfile: string;
  context?: string;
}

/** An agent's layer on the base image, built FROM the base tag. */
export function agentRecipe(layer: ImageLayer, baseTag: string, buildArgs: Record<string, string>): ImageRecipe {
  const files: Record<string, Buffer> = {};
  if (layer.context) {
    for (const f of readdirSync(layer.context, { recursive: true }).map(String).sort()) {
      const file = path.join(layer.context, f);
      if (statSync(file).isFile()) files[f.split(path.sep).join('/')] = readFileSync(file);
    }
  }
  return { name: layer.name, dockerfile: readFileSync(layer.dockerfile, 'utf8'), files, buildArgs: { BASE: baseTag, ...buildArgs } };
}

/**
 * The Dockerfile as built: our label right after each FROM, so every image a build commits carries it,
 * and the untagged image an interrupted build leaves is known as ours (the label the engine adds for
 * the build's `labels` option only reaches the last step). Not part of the tag: existing images stay valid.
 */
export function labelledDockerfile(recipe: ImageRecipe): string {
  return recipe.dockerfile.replace(/^(FROM\s.*)$/gim, `$1\nLABEL ${IMAGE_LABEL}=${JSON.stringify(recipe.name)}`);
}

function contextTar(recipe: ImageRecipe): NodeJS.ReadableStream {
  const tar = pack();
  tar.entry({ name: 'Dockerfile' }, labelledDockerfile(recipe));
  for (const [name, content] of Object.entries(recipe.files)) tar.entry({ name }, content);
  tar.finalize();
  return tar as unknown as NodeJS.ReadableStream;
}

export type BuildLog = (line: string) => void;

/** Builds a recipe unless an image with its tag exists; returns the tag. */
export async function buildRecipe(recipe: ImageRecipe, log: BuildLog = () => {}): Promise<string> {
  const tag = recipeTag(recipe);
  if (await imageExists(tag)) return tag;
  await requireDocker();
  return withFileLock(tag, async () => {
    if (!(await imageExists(tag))) {
      await removeUnfinishedImages();
      try {
        await build(recipe, tag, log);
        // A multi-stage build leaves its earlier stages untagged (mini-swe-agent's holds its wheels): not needed now.
        if ((recipe.dockerfile.match(/^FROM\s/gim) ?? []).length > 1) await removeUnfinishedImages({ name: recipe.name, olderThanMs: 0 });
      } catch (error) {
        await removeUnfinishedImages({ name: recipe.name, olderThanMs: 0 });
        throw error;
      }
    }
    return tag;
  });
}

/**
 * Removes the untagged images interrupted builds of ours left (`<none>` in `docker images`). Only images
 * a while old by default: the newest step of a build running elsewhere is untagged for a moment too (while
 * its next step runs, that step's container protects it: removal is never forced). Returns how many went.
 */
export async function removeUnfinishedImages(options: { name?: string; olderThanMs?: number } = {}): Promise<number> {
  const { name, olderThanMs = 10 * 60_000 } = options;
  let removed = 0;
  try {
    const images = await docker().listImages({ filters: { dangling: ['true'], label: [name ? `${IMAGE_LABEL}=${name}` : IMAGE_LABEL] } });
    for (const image of images) {
      if (Date.now() - image.Created * 1000 < olderThanMs) continue;
      try {
        await docker().getImage(image.Id).remove();
        removed++;
      } catch {
        // in use, or removed meanwhile
      }
    }
  } catch {
    // the engine went away: nothing to clean now
  }
  return removed;
}

/** An image listed with tags: untagged ones (`<none>`) are leftovers of interrupted builds, not images to use. */
export const isTagged = (tags: readonly string[] | undefined): boolean => (tags ?? []).some((t) => t !== '<none>:<none>');

/** `building TAG (the last build took ...)`, then the phases it goes through, then `built TAG in ...`. */
async function timed(name: string, tag: string, log: BuildLog, work: () => Promise<void>): Promise<void> {
  const last = lastBuildSeconds(name);
  log(`building ${tag}${last === undefined ? ' (first build here: a few minutes)' : ` (the last build took ${formatDuration(last)})`}`);
  const started = Date.now();
  await work();
  const took = (Date.now() - started) / 1000;
  recordBuildSeconds(name, took);
  log(`built ${tag} in ${formatDuration(took)}`);
}

async function build(recipe: ImageRecipe, tag: string, log: BuildLog): Promise<void> {
  await timed(recipe.name, tag, log, async () => {
    // A layer naming PIP_REQUIREMENTS gets their wheels (cached on the host) in its context: no network inside.
    const requirements = recipe.buildArgs[PIP_REQUIREMENTS_ARG]?.split(/\s+/).filter(Boolean) ?? [];
    const wheels = requirements.length ? await cachedWheels(requirements, log) : {};
    const stream = await docker().buildImage(contextTar({ ...recipe, files: { ...recipe.files, ...wheels } }), {
      t: tag,
      buildargs: recipe.buildArgs,
      labels: { [IMAGE_LABEL]: recipe.name },
      rm: true,
      forcerm: true,
    });
    // Each layer's step as `step N/M: ...`; everything else the engine says goes to the log as it is.
    await followProgress(stream, (line) => log(stepLine(line) ?? line));
  });
}

const resolved = new Map<string, Promise<string>>();

/** The Debian image to build on: as configured, or (auto) debian:bookworm-slim if it can be had, else bootstrapped. */
export function resolveBaseImage(settings: ImageSettings, log: BuildLog = () => {}): Promise<string> {
  const key = `${settings.base}\0${settings.debianMirror}`;
  let pending = resolved.get(key);
  if (!pending) {
    pending = findBaseImage(settings, log);
    resolved.set(key, pending);
    pending.catch(() => resolved.delete(key));
  }
  return pending;
}

async function findBaseImage(settings: ImageSettings, log: BuildLog): Promise<string> {
  if (settings.base !== 'auto') {
    if (!(await imageExists(settings.base))) await followProgress(await docker().pull(settings.base), log);
    return settings.base;
  }
  const slim = 'debian:bookworm-slim';
  if (await imageExists(slim)) return slim;
  if (await imageExists(BOOTSTRAPPED_DEBIAN)) return BOOTSTRAPPED_DEBIAN;
  try {
    await followProgress(await docker().pull(slim), log);
    return slim;
  } catch (error) {
    log(`cannot pull ${slim} (${(error as Error).message.split('\n')[0]}); using a Debian image bootstrapped from Debian's packages`);
  }
  await withFileLock(BOOTSTRAPPED_DEBIAN, async () => {
    if (await imageExists(BOOTSTRAPPED_DEBIAN)) return;
    await timed('debian-bootstrap', BOOTSTRAPPED_DEBIAN, log, async () => {
      const script = execa('bash', [packagePath('images', 'bootstrap-debian.sh'), BOOTSTRAPPED_DEBIAN, settings.debianMirror], { all: true });
      for await (const line of script.iterable({ from: 'all' })) log(line);
      await script;
    });
  });
  return BOOTSTRAPPED_DEBIAN;
}

export async function ensureBaseImage(settings: ImageSettings = DEFAULT_IMAGE_SETTINGS, log?: BuildLog): Promise<string> {
  await requireDocker();
  return buildRecipe(baseRecipe(settings, await resolveBaseImage(settings, log)), log);
}

/** The image a trial of this agent runs in: the base, plus the agent's layer when it has one. */
export async function ensureAgentImage(layer: ImageLayer | null, settings: ImageSettings = DEFAULT_IMAGE_SETTINGS, buildArgs: Record<string, string> = {}, log?: BuildLog): Promise<string> {
  const base = await ensureBaseImage(settings, log);
  if (!layer) return base;
  return buildRecipe(agentRecipe(layer, base, buildArgs), log);
}
