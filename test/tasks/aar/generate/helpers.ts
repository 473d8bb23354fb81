import path from 'node:path';
import { REPO_ROOT, tempDir } from '../../../helpers/data.js';
import { Ledger } from '../../../../tasks/aar/generate/ledger.js';
import { GenerationTools } from '../../../../tasks/aar/generate/tool-runner.js';
import { crawl, type Crawl } from '../../../../tasks/aar/generate/steps/crawl.js';
import { LEVELS, type LevelSpec } from '../../../../tasks/aar/generate/levels.js';
import { WorldStore } from '../../../../tasks/aar/world/described/store.js';
import { ResponseStore } from '../../../../tools/store/store.js';

/** The example world of `configs/generate-example.yaml`: the fixed input of the pipeline's tests. */
export const EXAMPLE_WORLD = path.join(REPO_ROOT, 'tasks', 'examples-generate', 'world.yaml');
export const wiki = (title: string): string => `https://en.wikipedia.org/wiki/${title.replace(/ /g, '_')}`;

/** Tools replaying the example world, writing what they see to a fresh store. */
export function exampleTools(): { tools: GenerationTools; storeDir: string; cleanup: () => void } {
  const { dir, cleanup } = tempDir('aar-gen-');
  const storeDir = path.join(dir, 'store');
  const tools = new GenerationTools('replay', new ResponseStore(storeDir), { store: WorldStore.fromFile(EXAMPLE_WORLD, path.join(dir, 'overlay')) });
  return { tools, storeDir, cleanup };
}

/** A crawl of the example world from a seed at a level's depth. */
export async function exampleCrawl(tools: GenerationTools, seed = 'Port Alder', level: LevelSpec = LEVELS.medium): Promise<Crawl> {
  const result = await crawl(tools, wiki(seed), level, new Ledger());
  if (!result.ok) throw new Error(result.reason);
  return result.value;
}
