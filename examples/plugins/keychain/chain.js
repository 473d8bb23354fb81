import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'aar-harness';

/** A keychain task as its file holds it: a start key and a chain of keys, some of them decoys. */
export const TaskSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  set: z.string().min(1),
  level: z.string().min(1),
  start: z.string().min(1),
  chain: z.record(z.string(), z.string()),
});

/** The keys from the start to the one whose value starts with "=", and that value; a chain that loops or breaks is an error. */
export function walk(task) {
  const keys = [];
  for (let key = task.start; ; ) {
    if (keys.includes(key)) throw new Error(`the chain loops at ${key}`);
    const value = task.chain[key];
    if (value === undefined) throw new Error(`the chain breaks at ${key}: no such key`);
    keys.push(key);
    if (value.startsWith('=')) return { keys, answer: value.slice(1) };
    key = value;
  }
}

function jsonFiles(target) {
  if (!statSync(target).isDirectory()) return [target];
  return readdirSync(target, { recursive: true }).map(String).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(target, f));
}

/** Tasks under files or folders; an unreadable or invalid file is a problem (file, path, message), never an exception. */
export function loadTasks(paths) {
  const tasks = [];
  const problems = [];
  for (const target of paths) {
    let files;
    try {
      files = jsonFiles(target);
    } catch (error) {
      problems.push({ file: target, path: '', message: error.message });
      continue;
    }
    for (const file of files) {
      try {
        const source = readFileSync(file);
        const parsed = TaskSchema.safeParse(JSON.parse(source.toString('utf8')));
        if (!parsed.success) {
          for (const issue of parsed.error.issues) problems.push({ file, path: `$.${issue.path.join('.')}`, message: issue.message });
          continue;
        }
        const golden = walk(parsed.data);
        tasks.push({ ...parsed.data, file, source, golden });
      } catch (error) {
        problems.push({ file, path: '', message: error.message });
      }
    }
  }
  return { tasks, problems };
}
