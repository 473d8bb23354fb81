/**
 * One graph build, alone in its process so that its peak memory is its own (bench:wikirace runs it):
 *
 *   node dist/bench/wikirace-build.js dumps DIR     DIR holds bench-{page,pagelinks,linktarget,redirect}.sql.gz
 *   node dist/bench/wikirace-build.js edges FILE    a title<TAB>title edge list (.gz read as gzip)
 *
 * Prints one JSON line: wall and CPU milliseconds, peak memory (maxRSS) in MB, pages and links kept.
 */
import { join } from 'node:path';
import { buildFromDumps } from '../tasks/wikirace/graph/build-dump.js';
import { buildFromEdgeList } from '../tasks/wikirace/graph/build-edge-list.js';

const [kind, where] = process.argv.slice(2);
if ((kind !== 'dumps' && kind !== 'edges') || !where) {
  console.error('usage: wikirace-build dumps DIR | edges FILE');
  process.exit(2);
}
const start = performance.now();
const cpu = process.cpuUsage();
const { graph } =
  kind === 'dumps'
    ? await buildFromDumps({ page: join(where, 'bench-page.sql.gz'), pagelinks: join(where, 'bench-pagelinks.sql.gz'), linktarget: join(where, 'bench-linktarget.sql.gz'), redirect: join(where, 'bench-redirect.sql.gz') })
    : await buildFromEdgeList(where);
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ kind, wall_ms: Math.round(performance.now() - start), cpu_ms: Math.round((used.user + used.system) / 1000), max_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024), pages: graph.pageCount, links: graph.linkCount }));
