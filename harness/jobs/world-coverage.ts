import { existsSync } from 'node:fs';
import type { FamilyTask, TaskFamily } from '../../tasks/family.js';
import { InputError } from '../../tasks/problems.js';
import { STORED_MODES } from '../../tools/modes.js';
import type { LoadedConfig } from '../config/load.js';
import { checkToolArgs, findTool } from '../../tools/catalog/index.js';
import { callIdentity } from '../../tools/store/canonical.js';
import { ResponseStore } from '../../tools/store/store.js';

/** Which tasks a stored world cannot serve: for each, the calls of its golden path the store has no answer to. */
export interface WorldCoverage {
  store: string;
  tasks: number;
  missing: { task: string; calls: string[] }[];
}

/**
 * Checks a replay or pinned store against every task's golden path (the family's storeGaps); undefined for a
 * family without golden tool calls. A task's own answers (per-leg entries) come before the shared ones, as in
 * its trials.
 */
export async function checkWorldCoverage(family: TaskFamily<any, any, any>, tasks: readonly FamilyTask[], storeDir: string): Promise<WorldCoverage | undefined> {
  if (!family.storeGaps) return undefined;
  const store = new ResponseStore(storeDir);
  const shared = new Map<string, string | undefined>();
  const missing: WorldCoverage['missing'] = [];
  for (const task of tasks) {
    const calls = await family.storeGaps(task, (tool, args) => {
      const definition = findTool(tool);
      const checked = definition ? checkToolArgs(definition, args) : undefined;
      if (!definition || !checked?.ok) return undefined;
      const id = callIdentity(definition.name, checked.args);
      if (store.hasLegEntry(id, task.id)) return store.get(id, task.id)?.text;
      if (!shared.has(id.key)) shared.set(id.key, store.get(id)?.text);
      return shared.get(id.key);
    });
    if (calls.length) missing.push({ task: task.id, calls });
  }
  return { store: storeDir, tasks: tasks.length, missing };
}

/** One line on a store that cannot serve some tasks: how many, and the first few with a call each lacks. */
export function coverageLine(c: WorldCoverage): string {
  const examples = c.missing.slice(0, 3).map((m) => `${m.task} (${m.calls[0]}${m.calls.length > 1 ? ` and ${m.calls.length - 1} more` : ''})`);
  return `${c.store} has no answer to the golden calls of ${c.missing.length} of ${c.tasks} legs: ${examples.join(', ')}${c.missing.length > 3 ? ', ...' : ''}`;
}

/**
 * Replay and pinned modes: the store is checked against every leg's golden calls before any trial. A replay
 * store that cannot answer some is refused (unless allowMissing); a pinned one will call them live: a note.
 */
export async function checkStoredWorld(loaded: LoadedConfig, family: TaskFamily<any, any, any>, tasks: readonly FamilyTask[], allowMissing: boolean): Promise<string | undefined> {
  const { mode, store } = loaded.config.tools;
  if (!STORED_MODES.includes(mode) || !store || !existsSync(loaded.resolve(store))) return undefined;
  const coverage = await checkWorldCoverage(family, tasks, loaded.resolve(store));
  if (!coverage?.missing.length) return undefined;
  if (mode === 'replay' && !allowMissing) {
    throw new InputError([{ file: loaded.file, path: 'tools.store', message: `${coverageLine(coverage)}; their calls would fail (replay answers nothing else): choose legs it serves, use a pinned world, or run them anyway with --allow-missing` }]);
  }
  return mode === 'pinned' ? `${coverageLine(coverage)}: made live and recorded (pinned)` : `${coverageLine(coverage)}: run anyway (--allow-missing), their calls fail`;
}
