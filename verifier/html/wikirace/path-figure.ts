import path from 'node:path';
import { readTrialText, TRIAL_FILES } from '../../../trial/folder.js';
import { UNREACHABLE } from '../../../tasks/wikirace/graph/distances.js';
import { parseTrajectory, type TrajectoryLine } from '../../../tasks/wikirace/game/trajectory.js';
import { openGraph, type GraphWorld } from '../../../tasks/wikirace/load.js';
import { WikiraceTaskSchema, type WikiraceTask } from '../../../tasks/wikirace/schema.js';
import type { TrialResult } from '../../results.js';
import { esc } from '../escape.js';

/**
 * A WikiRace trial's path drawn on its graph beside a shortest one: pages in columns by their distance to the
 * target (the source's at the left, the target at the right), a shortest path along the top row (green), the
 * agent's moves as numbered arcs (blue), pages it visited more than once ringed in red. The graph is the one
 * the task file names (relative to the task file the job read); without it, the moves alone, in order.
 */

/** Pages a drawing shows at most (a game makes at most its move limit of moves, 30 by default). */
const MAX_PAGES = 80;
/** Column widths: up to 180 px, narrower when many columns would not fit about 1,240 px. */
const COL_MAX = 180;
const COL_MIN = 110;
const FIT_WIDTH = 1240;
const ROW = 58;
const TOP = 44;

interface Node {
  title: string;
  col: number;
  row: number;
  visits: number;
  onShortest: boolean;
}

/** One shortest path from the source: at each page the first link one step nearer the target. */
export function shortestPath(world: GraphWorld, source: string, target: string): string[] | null {
  const { graph } = world;
  const from = graph.pageOf(source);
  const to = graph.pageOf(target);
  if (from === undefined || to === undefined) return null;
  const dist = world.distances.to(to);
  if (dist[from] === UNREACHABLE) return null;
  const walk = [from];
  while (walk.at(-1) !== to) {
    const here = walk.at(-1)!;
    const next = [...graph.linksOf(here)].find((p) => dist[p] === dist[here]! - 1);
    if (next === undefined) return null;
    walk.push(next);
  }
  return walk.map((p) => graph.titles[p]!);
}

async function worldOf(trial: TrialResult, task: WikiraceTask): Promise<{ world: GraphWorld | null; why: string | null }> {
  const dir = path.resolve(path.dirname(trial.record.leg.file), task.graph);
  try {
    const world = await openGraph(dir);
    if (world.header.sha256 !== task.graph_sha256) return { world: null, why: `the graph at ${dir} is not the task's (its sha256 differs)` };
    return { world, why: null };
  } catch (error) {
    return { world: null, why: `no graph to draw a shortest path on (${(error as Error).message.split('\n')[0]})` };
  }
}

const short = (title: string, max: number): string => (title.length > max ? `${title.slice(0, max - 1)}…` : title);

function svgOf(nodes: Map<string, Node>, shortest: readonly string[], moves: readonly TrajectoryLine[], columns: string[], target: string): string {
  const rows = Math.max(...[...nodes.values()].map((n) => n.row)) + 1;
  const COL = Math.max(COL_MIN, Math.min(COL_MAX, Math.floor(FIT_WIDTH / Math.max(1, columns.length))));
  const labelChars = Math.floor(COL / 6.8);
  const width = columns.length * COL + 20;
  const height = TOP + rows * ROW + 10;
  const at = (n: Node) => ({ x: 20 + n.col * COL + COL / 2 - 10, y: TOP + n.row * ROW + 12 });
  const parts: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" font-size="11">`];
  parts.push('<defs><marker id="wr-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#4c78a8"/></marker></defs>');
  columns.forEach((label, i) => parts.push(`<text x="${20 + i * COL + COL / 2 - 10}" y="16" text-anchor="middle" fill="#5f6b7a">${esc(label)}</text>`));
  for (let i = 1; i < shortest.length; i++) {
    const a = at(nodes.get(shortest[i - 1])!), b = at(nodes.get(shortest[i])!);
    parts.push(`<line x1="${a.x}" y1="${a.y}" x2="${b.x}" y2="${b.y}" stroke="#54a24b" stroke-width="6" stroke-opacity="0.45" stroke-linecap="round"/>`);
  }
  // Moves between the same two pages bend apart: left to right above the line, right to left below, each further out.
  const between = new Map<string, number>();
  moves.forEach((m) => {
    const from = nodes.get(m.from), to = nodes.get(m.to);
    if (!from || !to) return;
    const a = at(from), b = at(to);
    const forward = a.x < b.x || (a.x === b.x && a.y < b.y);
    const key = `${m.from}\u0000${m.to}`;
    const seen = between.get(key) ?? 0;
    between.set(key, seen + 1);
    const bend = (forward ? -1 : 1) * (22 + 22 * seen);
    const mx = (a.x + b.x) / 2 + (a.y === b.y ? 0 : bend), my = (a.y + b.y) / 2 + (a.y === b.y ? bend : 0);
    parts.push(`<path d="M${a.x},${a.y} Q${mx},${my} ${b.x},${b.y}" fill="none" stroke="#4c78a8" stroke-width="1.6" marker-end="url(#wr-arrow)"><title>move ${m.step}: ${esc(m.from)} → ${esc(m.to)}</title></path>`);
    parts.push(`<text x="${(a.x + 2 * mx + b.x) / 4}" y="${(a.y + 2 * my + b.y) / 4 - 2}" fill="#4c78a8" font-size="10" text-anchor="middle">${m.step}</text>`);
  });
  for (const n of nodes.values()) {
    const { x, y } = at(n);
    const fill = n.title === target ? '#1e7b46' : n.visits ? '#4c78a8' : '#fff';
    const ring = n.visits > 1 ? ' stroke="#b3261e" stroke-width="3"' : ` stroke="${n.onShortest ? '#54a24b' : '#4c78a8'}" stroke-width="2"`;
    parts.push(`<g class="page" data-title="${esc(n.title)}" data-visits="${n.visits}"><title>${esc(n.title)}${n.visits ? ` (visited ${n.visits}×)` : ' (not visited)'}</title>`);
    parts.push(`<circle cx="${x}" cy="${y}" r="7" fill="${fill}"${ring}/>`);
    parts.push(`<text x="${x}" y="${y + 22}" text-anchor="middle" fill="#1d2330">${esc(short(n.title, labelChars))}${n.visits > 1 ? ` ×${n.visits}` : ''}</text></g>`);
  }
  parts.push('</svg>');
  return parts.join('');
}

/** The drawing of one trial, or null when its task cannot be read. */
export async function pathFigure(trial: TrialResult): Promise<{ title: string; note: string; svg: string } | null> {
  const taskText = readTrialText(trial.dir, TRIAL_FILES.leg);
  if (taskText === null) return null;
  let task: WikiraceTask;
  let moves: TrajectoryLine[];
  try {
    task = WikiraceTaskSchema.parse(JSON.parse(taskText));
    moves = parseTrajectory(readTrialText(trial.dir, 'trajectory.jsonl') ?? '');
  } catch {
    return null;
  }
  const { world, why } = await worldOf(trial, task);
  const shortest = (world && shortestPath(world, task.source, task.target)) ?? [];
  const visited = [task.source, ...moves.map((m) => m.to)];
  const dist = world ? world.distances.to(world.graph.pageOf(task.target)!) : null;
  const distanceOf = (title: string): number | null => {
    const p = world?.graph.pageOf(title);
    return dist && p !== undefined && dist[p] !== UNREACHABLE ? dist[p]! : null;
  };
  // Columns: distances to the target, farthest first; pages with no path to it at the far left. Without a graph: visit order.
  const far = Math.max(task.optimal_length, ...visited.map((t) => distanceOf(t) ?? 0));
  const unreachable = world !== null && visited.some((t) => distanceOf(t) === null);
  const columns = world ? [...(unreachable ? ['no path to target'] : []), ...Array.from({ length: far + 1 }, (_, i) => `${far - i} to go`)] : [];
  const nodes = new Map<string, Node>();
  const used: number[] = [];
  const place = (title: string, onShortest: boolean): void => {
    if (nodes.has(title) || nodes.size >= MAX_PAGES) return;
    const d = distanceOf(title);
    const col = world ? (d === null ? 0 : (unreachable ? 1 : 0) + far - d) : nodes.size;
    const row = onShortest ? 0 : Math.max(1, used[col] ?? 1);
    used[col] = row + 1;
    nodes.set(title, { title, col, row, visits: 0, onShortest });
  };
  shortest.forEach((t) => place(t, true));
  visited.forEach((t) => place(t, false));
  for (const t of visited) if (nodes.has(t)) nodes.get(t)!.visits++;
  if (!world) columns.push(...[...nodes.values()].map(() => ''));
  const loops = [...nodes.values()].filter((n) => n.visits > 1).length;
  const note = [
    `${moves.length} moves taken (blue, numbered) against ${task.optimal_length} on a shortest path${shortest.length ? ' (green, top row)' : ''}`,
    loops ? `${loops} pages visited more than once (red ring)` : 'no page visited twice',
    why,
    nodes.size >= MAX_PAGES ? `the first ${MAX_PAGES} pages drawn` : null,
  ].filter(Boolean).join('; ');
  return { title: 'Path on the graph', note: `${note}.`, svg: svgOf(nodes, shortest, moves, columns, task.target) };
}
