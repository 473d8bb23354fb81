/**
 * bench:wikirace: the link graph at the paper's scale (549,232 pages, at least 15 million links,
 * generated straight into CSR arrays, seeded), then: the build path (CSR from an edge list in memory,
 * largest SCC), the graph folder's write, size and read, one reverse search per new target, and one
 * step (the 50 offered links), the paper's 450 pairs. Also a full build from Wikipedia-format SQL dumps
 * and from a TSV edge list, each in a process of its own (wall, CPU, peak memory), of `--dump-pages`
 * pages (default 50,000; `--dump-pages 549232` is the paper's size, 15 million links). Goals: well under
 * a second per new target, a few ms per step.
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { execa } from 'execa';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { seededRandom } from '../common/random.js';
import { DistanceCache, distancesTo } from '../tasks/wikirace/graph/distances.js';
import { csrFromEdges } from '../tasks/wikirace/graph/edges.js';
import { LinkGraph } from '../tasks/wikirace/graph/graph.js';
import { offeredLinks } from '../tasks/wikirace/graph/options.js';
import { generatePairs, PAPER_SPLITS } from '../tasks/wikirace/graph/pairs.js';
import { largestComponent } from '../tasks/wikirace/graph/scc.js';
import { readGraphFolder, writeGraphFolder } from '../tasks/wikirace/graph/store.js';
import { PAPER_SCALE_GRAPH, syntheticGraph, syntheticSource } from '../tasks/wikirace/graph/synthetic.js';

const argValue = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const dumpPages = argValue('--dump-pages', 50_000);
const targetsToTime = argValue('--targets', 10);

const ms = (start: number): number => performance.now() - start;
const fmt = (x: number): string => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const line = (label: string, value: string): void => console.log(`${label.padEnd(44)} ${value}`);
function timed<T>(label: string, run: () => T, extra = ''): T {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const out = run();
  const used = process.cpuUsage(cpu);
  line(label, `${fmt(ms(start))} ms (cpu ${fmt((used.user + used.system) / 1000)} ms)${extra}`);
  return out;
}
async function timedAsync<T>(label: string, run: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const out = await run();
  line(label, `${fmt(ms(start))} ms`);
  return out;
}
const stats = (xs: number[], digits = 0): string => {
  const s = [...xs].sort((a, b) => a - b);
  const f = (x: number): string => x.toFixed(digits);
  return `median ${f(s[Math.floor(s.length / 2)]!)} ms, max ${f(s[s.length - 1]!)} ms, mean ${f(s.reduce((a, b) => a + b, 0) / s.length)} ms over ${s.length}`;
};

const work = mkdtempSync(join(tmpdir(), 'aar-bench-wikirace-'));
try {
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} (wall times below include whatever else the machine runs)`);
  console.log('\n== the paper\'s scale: synthetic graph ==');
  const graph = timed('generate straight into CSR', () => syntheticGraph(PAPER_SCALE_GRAPH));
  line('pages / links', `${graph.pageCount} / ${graph.linkCount} (${(graph.linkCount / graph.pageCount).toFixed(1)} links per page)`);

  // The build path after parsing: links as two arrays in shuffled order -> CSR -> largest SCC.
  const { from, to } = shuffledEdges(graph);
  const csr = timed('build: CSR from 15M-link edge arrays', () => csrFromEdges(graph.titles, from, to));
  const scc = timed('build: largest SCC (iterative Tarjan)', () => largestComponent(csr));
  line('largest SCC', `${scc.pageCount} pages, ${scc.linkCount} links`);

  const folder = join(work, 'paper-graph');
  await timedAsync('write graph folder (+ sha256)', () => writeGraphFolder(folder, scc, { source: syntheticSource(PAPER_SCALE_GRAPH), synthetic: true }));
  const size = ['offsets.u32', 'targets.u32', 'titles.txt', 'graph.json'].reduce((sum, f) => sum + statSync(join(folder, f)).size, 0);
  line('graph folder size', `${mb(size)} (targets.u32 ${mb(statSync(join(folder, 'targets.u32')).size)})`);
  const loaded = (await timedAsync('read graph folder (checksum, shape checks)', () => readGraphFolder(folder))).graph;

  const reversed = timed('reverse the graph (once per graph)', () => loaded.reversed());
  const random = seededRandom(42);
  const bfsTimes: number[] = [];
  const plainTimes: number[] = [];
  const targets = Array.from({ length: targetsToTime }, () => Math.floor(random() * loaded.pageCount));
  const bfsCpu = process.cpuUsage();
  for (const target of targets) {
    const start = performance.now();
    distancesTo(reversed, target, loaded);
    bfsTimes.push(ms(start));
  }
  const bfsCpuMs = (process.cpuUsage(bfsCpu).user + process.cpuUsage(bfsCpu).system) / 1000 / targets.length;
  for (const target of targets) {
    const start = performance.now();
    distancesTo(reversed, target);
    plainTimes.push(ms(start));
  }
  line('reverse BFS per new target (direction-opt.)', `${stats(bfsTimes)} (cpu ${fmt(bfsCpuMs)} ms each)`);
  line('  the same, plain top-down', stats(plainTimes));

  // The paper's 450 pairs (easy 200 at 3-4, medium 150 at 5-6, hard 100 at 7-8), one source each.
  const distanceShare = new Map<number, number>();
  for (const source of targets.slice(0, 5)) for (const d of distancesTo(loaded, source, reversed)) distanceShare.set(d, (distanceShare.get(d) ?? 0) + 1);
  const reached = [...distanceShare.values()].reduce((a, b) => a + b, 0);
  line('distances from 5 random pages', [...distanceShare].sort((a, b) => a[0] - b[0]).map(([d, c]) => `${d}: ${((100 * c) / reached).toFixed(1)}%`).join(', '));
  const rssBefore = process.resourceUsage().maxRSS;
  const pairs = timed("pairs: the paper's 450 (aar wikirace pairs)", () => generatePairs(loaded, PAPER_SPLITS, 1));
  const byLength = new Map<number, number>();
  for (const p of pairs) byLength.set(p.length, (byLength.get(p.length) ?? 0) + 1);
  line('  by length', [...byLength].sort((a, b) => a[0] - b[0]).map(([l, c]) => `${l}: ${c}`).join(', '));
  line('  distinct sources', String(new Set(pairs.map((p) => p.source)).size));
  line('  peak memory (maxRSS) before / after', `${mb(rssBefore * 1024)} / ${mb(process.resourceUsage().maxRSS * 1024)}`);

  const cache = new DistanceCache(loaded);
  cache.to(targets[0]!);
  const stepTimes: number[] = [];
  let page = Math.floor(random() * loaded.pageCount);
  for (let step = 0; step < 2000; step++) {
    const start = performance.now();
    const distances = cache.to(targets[0]!);
    const offered = offeredLinks(loaded, distances, page, 7);
    stepTimes.push(ms(start));
    page = offered[Math.floor(random() * offered.length)] ?? Math.floor(random() * loaded.pageCount);
  }
  line('step: cached distances + 50 offered links', stats(stepTimes, 3));
  let widest = 0;
  for (let p = 1; p < loaded.pageCount; p++) if (loaded.linksOf(p).length > loaded.linksOf(widest).length) widest = p;
  const wideTimes: number[] = [];
  for (let seed = 0; seed < 200; seed++) {
    const start = performance.now();
    offeredLinks(loaded, cache.to(targets[0]!), widest, seed);
    wideTimes.push(ms(start));
  }
  line(`  on the page with the most links (${loaded.linksOf(widest).length})`, stats(wideTimes, 3));
  // Real hubs (a country, a year) link to thousands of pages: a step there sorts them all by distance.
  const hubLinks = Math.min(10_000, loaded.pageCount - 1);
  const hubGraph = new LinkGraph(loaded.titles, hubOffsets(loaded.pageCount, hubLinks), Uint32Array.from({ length: hubLinks }, (_, i) => i + 1));
  const hubTimes: number[] = [];
  for (let seed = 0; seed < 50; seed++) {
    const start = performance.now();
    offeredLinks(hubGraph, cache.to(targets[0]!), 0, seed);
    hubTimes.push(ms(start));
  }
  line(`  on a hub page of ${hubLinks} links`, stats(hubTimes, 3));

  console.log(`\n== build from files of a manageable size (${dumpPages} pages) ==`);
  const small = syntheticGraph({ ...PAPER_SCALE_GRAPH, pages: dumpPages });
  const dumps = await timedAsync('write Wikipedia-format SQL dumps (.sql.gz)', () => writeDumps(small, join(work, 'dumps')));
  const dumpBytes = Object.values(dumps).reduce((sum, f) => sum + statSync(f).size, 0);
  line('dump size (gzip)', `${mb(dumpBytes)} for ${small.pageCount} pages, ${small.linkCount} links, ${Math.floor(dumpPages / 50)} redirects`);
  const tsv = join(work, 'edges.tsv.gz');
  await timedAsync('write TSV edge list (.tsv.gz)', () => writeEdgeList(small, tsv));
  line('TSV edge list size (gzip)', mb(statSync(tsv).size));
  // Each build in a process of its own, so its peak memory is its own.
  for (const [label, kind, where] of [['build from SQL dumps (stream, parse, SCC)', 'dumps', join(work, 'dumps')], ['build from TSV edge list (stream, SCC)', 'edges', tsv]] as const) {
    const { stdout } = await execa(process.execPath, [join(import.meta.dirname, 'wikirace-build.js'), kind, where]);
    const r = JSON.parse(stdout) as { wall_ms: number; cpu_ms: number; max_rss_mb: number; pages: number; links: number };
    line(label, `${fmt(r.wall_ms)} ms (cpu ${fmt(r.cpu_ms)} ms), peak memory ${r.max_rss_mb} MB, ${r.pages} pages, ${r.links} links`);
  }

  console.log('');
  line('peak memory (maxRSS)', mb(process.resourceUsage().maxRSS * 1024));
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** Offsets of a graph whose page 0 has `links` links and every other page none. */
function hubOffsets(pages: number, links: number): Uint32Array {
  const offsets = new Uint32Array(pages + 1).fill(links);
  offsets[0] = 0;
  return offsets;
}

/** The graph's links as from/to arrays in a seeded random order (as a parser would hand them over). */
function shuffledEdges(graph: LinkGraph): { from: Uint32Array; to: Uint32Array } {
  const m = graph.linkCount;
  const from = new Uint32Array(m);
  const to = graph.targets.slice();
  for (let p = 0; p < graph.pageCount; p++) from.fill(p, graph.offsets[p]!, graph.offsets[p + 1]!);
  const random = seededRandom(3);
  for (let i = m - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const f = from[i]!; from[i] = from[j]!; from[j] = f;
    const t = to[i]!; to[i] = to[j]!; to[j] = t;
  }
  return { from, to };
}

async function writeGz(file: string, chunks: () => Iterable<string>): Promise<void> {
  const gzip = createGzip({ level: 1 });
  const done = new Promise<void>((resolve, reject) => gzip.pipe(createWriteStream(file)).on('finish', resolve).on('error', reject));
  for (const chunk of chunks()) if (!gzip.write(chunk)) await new Promise((r) => gzip.once('drain', r));
  gzip.end();
  await done;
}

function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
function* inserts(table: string, columns: string[], rows: Iterable<string>): Iterable<string> {
  yield `-- MySQL dump 10.19\n\nCREATE TABLE \`${table}\` (\n${columns.map((c) => `  \`${c}\` int`).join(',\n')}\n) ENGINE=InnoDB;\n\n`;
  let batch: string[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length === 1000) {
      yield `INSERT INTO \`${table}\` VALUES ${batch.join(',')};\n`;
      batch = [];
    }
  }
  if (batch.length) yield `INSERT INTO \`${table}\` VALUES ${batch.join(',')};\n`;
}

/** SQL dumps of the graph: page ids from 10, one redirect per 50 pages (links to every 7th page go through one). */
async function writeDumps(graph: LinkGraph, dir: string): Promise<{ page: string; pagelinks: string; linktarget: string; redirect: string }> {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(dir, { recursive: true });
  const n = graph.pageCount;
  const stored = (p: number): string => graph.titles[p]!.replace(/ /g, '_');
  const redirects = Math.floor(n / 50);
  const files = { page: join(dir, 'bench-page.sql.gz'), redirect: join(dir, 'bench-redirect.sql.gz'), linktarget: join(dir, 'bench-linktarget.sql.gz'), pagelinks: join(dir, 'bench-pagelinks.sql.gz') };
  await writeGz(files.page, function* () {
    yield* inserts('page', ['page_id', 'page_namespace', 'page_title', 'page_is_redirect', 'page_is_new', 'page_random', 'page_touched', 'page_links_updated', 'page_latest', 'page_len', 'page_content_model', 'page_lang'], (function* () {
      for (let p = 0; p < n; p++) yield `(${p + 10},0,${quote(stored(p))},0,0,0.5,'20250620000000','20250620000000',${p},100,'wikitext',NULL)`;
      for (let r = 0; r < redirects; r++) yield `(${n + 10 + r},0,${quote(`Redirect_to_${stored(r * 50)}`)},1,0,0.5,'20250620000000',NULL,0,10,'wikitext',NULL)`;
    })());
  });
  await writeGz(files.redirect, function* () {
    yield* inserts('redirect', ['rd_from', 'rd_namespace', 'rd_title', 'rd_interwiki', 'rd_fragment'], (function* () {
      for (let r = 0; r < redirects; r++) yield `(${n + 10 + r},0,${quote(stored(r * 50))},'','')`;
    })());
  });
  // Link target ids: page p is target p+1; redirect r is target n+1+r.
  await writeGz(files.linktarget, function* () {
    yield* inserts('linktarget', ['lt_id', 'lt_namespace', 'lt_title'], (function* () {
      for (let p = 0; p < n; p++) yield `(${p + 1},0,${quote(stored(p))})`;
      for (let r = 0; r < redirects; r++) yield `(${n + 1 + r},0,${quote(`Redirect_to_${stored(r * 50)}`)})`;
    })());
  });
  await writeGz(files.pagelinks, function* () {
    yield* inserts('pagelinks', ['pl_from', 'pl_from_namespace', 'pl_target_id'], (function* () {
      for (let p = 0; p < n; p++) {
        for (let k = graph.offsets[p]!; k < graph.offsets[p + 1]!; k++) {
          const t = graph.targets[k]!;
          const target = t % 50 === 0 && t / 50 < redirects && p % 7 === 0 ? n + 1 + t / 50 : t + 1;
          yield `(${p + 10},0,${target})`;
        }
      }
    })());
  });
  return files;
}

/** The graph's links as a gzipped title<TAB>title list, one page's links per chunk (never held whole). */
async function writeEdgeList(graph: LinkGraph, file: string): Promise<void> {
  await writeGz(file, function* () {
    for (let p = 0; p < graph.pageCount; p++) {
      const from = graph.titles[p]!;
      yield Array.from(graph.linksOf(p), (t) => `${from}\t${graph.titles[t]}\n`).join('');
    }
  });
}
