import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expandTaskPaths } from '../task-files.js';
import type { FamilyTask } from '../family.js';
import { jsonSyntaxProblem, zodProblems, type InputProblem } from '../problems.js';
import { DistanceCache } from './graph/distances.js';
import type { LinkGraph } from './graph/graph.js';
import { readGraphFolder, type GraphHeader } from './graph/store.js';
import { WikiraceTaskSchema, type WikiraceTask } from './schema.js';

/** A graph as games use it: the links, its header, and the distances to recent targets. */
export interface GraphWorld {
  dir: string;
  graph: LinkGraph;
  header: GraphHeader;
  distances: DistanceCache;
}

/** A WikiRace task as loaded: the pair, the folder of its graph, and the graph itself. */
export interface LoadedPair extends FamilyTask {
  pair: WikiraceTask;
  world: GraphWorld;
}

/** Graphs by absolute folder, read once per process (a job's pairs share one graph). */
const worlds = new Map<string, Promise<GraphWorld>>();

export function openGraph(dir: string): Promise<GraphWorld> {
  const key = path.resolve(dir);
  let world = worlds.get(key);
  if (!world) {
    world = readGraphFolder(key).then(({ graph, header }) => ({ dir: key, graph, header, distances: new DistanceCache(graph) }));
    world.catch(() => worlds.delete(key));
    worlds.set(key, world);
  }
  return world;
}

function parsePair(file: string, text: string): { pair?: WikiraceTask; problems: InputProblem[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { problems: [jsonSyntaxProblem(file, text, error)] };
  }
  const parsed = WikiraceTaskSchema.safeParse(raw);
  return parsed.success ? { pair: parsed.data, problems: [] } : { problems: zodProblems(file, parsed.error) };
}

/** The pair on its graph: the checksum must match the graph's header, and both pages must be in it. */
async function attachGraph(file: string, pair: WikiraceTask, source: Buffer): Promise<{ task?: LoadedPair; problems: InputProblem[] }> {
  let world: GraphWorld;
  try {
    world = await openGraph(path.resolve(path.dirname(file), pair.graph));
  } catch (error) {
    return { problems: [{ file, path: '$.graph', message: (error as Error).message }] };
  }
  const problems: InputProblem[] = [];
  if (world.header.sha256 !== pair.graph_sha256) {
    problems.push({ file, path: '$.graph_sha256', message: `${pair.graph_sha256.slice(0, 12)}… but the graph at ${world.dir} has ${world.header.sha256.slice(0, 12)}…` });
  }
  for (const key of ['source', 'target'] as const) {
    if (world.graph.pageOf(pair[key]) === undefined) problems.push({ file, path: `$.${key}`, message: `page '${pair[key]}' is not in the graph at ${world.dir}` });
  }
  if (problems.length) return { problems };
  return { task: { id: pair.id, file, source, pair, world }, problems };
}

/** Loads task files and folder trees (every *.json but graph.json); bad files are problems, good ones still load. */
export async function loadPairs(paths: readonly string[]): Promise<{ tasks: LoadedPair[]; problems: InputProblem[] }> {
  const { files, problems } = await expandTaskPaths(paths, (f) => path.basename(f) === 'graph.json');
  const tasks: LoadedPair[] = [];
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      problems.push({ file, path: '', message: `cannot read: ${(error as Error).message}` });
      continue;
    }
    const parsed = parsePair(file, bytes.toString('utf8'));
    problems.push(...parsed.problems);
    if (!parsed.pair) continue;
    const attached = await attachGraph(file, parsed.pair, bytes);
    problems.push(...attached.problems);
    if (attached.task) tasks.push(attached.task);
  }
  const seen = new Map<string, string>();
  for (const t of tasks) {
    const other = seen.get(t.id);
    if (other) problems.push({ file: t.file, path: '$.id', message: `task id ${t.id} is also used by ${other}` });
    seen.set(t.id, t.file);
  }
  tasks.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { tasks, problems };
}
