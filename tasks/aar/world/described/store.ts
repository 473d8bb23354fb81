import { findTool } from '../../../../tools/catalog/index.js';
import type { CallIdentity } from '../../../../tools/store/canonical.js';
import { ResponseStore, STORE_ENTRY_FORMAT, type StoreEntry } from '../../../../tools/store/store.js';
import { WorldAnswers } from './answers.js';
import { loadWorld, type World } from './schema.js';

/**
 * A described world as a replay store: a stored entry under `dir` (if any) first, else the world's own
 * answer (answers.ts), marked `source: synthetic`. With the tool service in replay mode it serves pages
 * and fake APIs with no network.
 */
export class WorldStore extends ResponseStore {
  readonly answers: WorldAnswers;

  constructor(
    readonly world: World,
    dir: string,
  ) {
    super(dir);
    this.answers = new WorldAnswers(world);
  }

  static fromFile(file: string, dir: string): WorldStore {
    return new WorldStore(loadWorld(file), dir);
  }

  override get(id: CallIdentity, leg?: string): StoreEntry | undefined {
    const stored = super.get(id, leg);
    if (stored || !findTool(id.tool)) return stored;
    const args = JSON.parse(id.args) as Record<string, unknown>;
    const result = this.answers.answer(id.tool, args);
    if (!result) return undefined;
    return {
      format: STORE_ENTRY_FORMAT,
      tool: id.tool,
      args,
      ok: result.ok,
      text: result.text,
      ...(result.resolvedUrl ? { resolved_url: result.resolvedUrl } : {}),
      source: 'synthetic',
      note: this.world.note,
    };
  }
}
