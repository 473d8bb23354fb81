import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readGraphFolder } from '../../../tasks/wikirace/graph/store.js';
import { runAar } from '../../helpers/cli.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';
import { writeWikiDump } from '../../helpers/wikipedia-dump.js';

const ok = (r: ReturnType<typeof runAar>): string => {
  if (r.status !== 0) throw new Error(`exit ${r.status}\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
};

describe('aar wikirace (the compiled command, run as a process)', () => {
  test('graph build from a folder of SQL dumps: counts printed, graph folder written', async () => {
    const root = tempDir('aar-cli-wikirace-').dir;
    const dumps = path.join(root, 'dumps');
    mkdirSync(dumps);
    writeWikiDump(
      dumps,
      [{ id: 1, title: 'Paris' }, { id: 2, title: 'France' }, { id: 3, title: 'French_Republic', redirectTo: [0, 'France'] }, { id: 4, title: 'Lonely' }],
      [[1, 0, 'French_Republic'], [2, 0, 'Paris'], [4, 0, 'Paris']],
    );
    const out = ok(runAar(['wikirace', 'graph', 'build', '--dumps', dumps, '--out', path.join(root, 'graph')]));
    expect(out).toContain('pages 3 (main namespace, not redirects), redirects 1, links 3 (1 resolved through redirects, 0 dropped)');
    expect(out).toContain('largest strongly connected component: 2 pages, 2 links');
    const { graph, header } = await readGraphFolder(path.join(root, 'graph'));
    expect([...graph.titles]).toEqual(['Paris', 'France']);
    expect(header).toMatchObject({ synthetic: false, source: 'Wikipedia SQL dumps testwiki-20250620 (page, pagelinks, linktarget, redirect)' });
  });

  test('graph build from an edge list, then pairs, then graph info', () => {
    const root = tempDir('aar-cli-wikirace-').dir;
    const lines: string[] = [];
    for (let i = 0; i < 12; i++) lines.push(`Stop ${i}\tStop ${(i + 1) % 12}`);
    writeFileSync(path.join(root, 'ring.tsv'), lines.join('\n'));
    ok(runAar(['wikirace', 'graph', 'build', '--edges', path.join(root, 'ring.tsv'), '--out', path.join(root, 'graph')]));
    const out = ok(runAar(['wikirace', 'pairs', path.join(root, 'graph'), '--out', path.join(root, 'tasks'), '--splits', 'easy=2,hard=2', '--seed', '4']));
    expect(out).toMatch(new RegExp(`^4 pairs \\(easy 2, hard 2\\) from 4 distinct sources in \\d+\\.\\d s -> ${path.join(root, 'tasks')}\n$`));
    expect(readdirSync(path.join(root, 'tasks', 'hard'))).toEqual(['001.json', '002.json']);
    const task = JSON.parse(readFileSync(path.join(root, 'tasks', 'hard', '002.json'), 'utf8'));
    // On a ring of 12 the page 8 stops on is the target.
    expect(Number(task.target.slice(5))).toBe((Number(task.source.slice(5)) + 8) % 12);
    expect(JSON.parse(ok(runAar(['wikirace', 'graph', 'info', path.join(root, 'graph')])))).toMatchObject({ pages: 12, links: 12 });
    // Variants of the game as task settings: 70 links per step, a 50-move limit.
    ok(runAar(['wikirace', 'pairs', path.join(root, 'graph'), '--out', path.join(root, 'links70'), '--splits', 'easy=1', '--max-links', '70', '--max-moves', '50']));
    expect(JSON.parse(readFileSync(path.join(root, 'links70', 'easy', '001.json'), 'utf8'))).toMatchObject({ max_moves: 50, max_links: 70 });
    expect(JSON.parse(readFileSync(path.join(root, 'tasks', 'hard', '002.json'), 'utf8'))).not.toHaveProperty('max_links');
    // 12 pages give 12 sources, one pair each: 20 easy pairs cannot be had, and it says what it found.
    const short = runAar(['wikirace', 'pairs', path.join(root, 'graph'), '--out', path.join(root, 'more'), '--splits', 'easy=20']);
    expect(short.status).toBe(1);
    expect(short.stderr).toMatch(/^aar: pairs: cannot fill length 4: every page was searched as a source; found 3: 10\/10, 4: 2\/10 \(length: found\/wanted\) from 12 sources of 12 pages \(does the graph have shortest paths that long\?\)\n$/);
  });

  test('graph synthesize: the example preset reproduces the committed example graph', () => {
    const root = tempDir('aar-cli-wikirace-').dir;
    expect(ok(runAar(['wikirace', 'graph', 'synthesize', '--out', path.join(root, 'g')]))).toBe(`synthetic graph: 1500 pages, 7947 links -> ${path.join(root, 'g')}\n`);
    const committed = JSON.parse(readFileSync(path.join(REPO_ROOT, 'tasks', 'examples-wikirace', 'graph', 'graph.json'), 'utf8'));
    expect(JSON.parse(readFileSync(path.join(root, 'g', 'graph.json'), 'utf8'))).toEqual(committed);
    expect(ok(runAar(['wikirace', 'graph', 'synthesize', '--out', path.join(root, 'h'), '--pages', '300', '--seed', '2']))).toContain('300 pages');
    expect(runAar(['wikirace', 'graph', 'synthesize', '--out', root, '--preset', 'huge']).stderr).toBe('aar: --preset: want example or paper, got "huge"\n');
  });

  test('bad use: one-line errors, non-zero exit', () => {
    const root = tempDir('aar-cli-wikirace-').dir;
    const both = runAar(['wikirace', 'graph', 'build', '--out', path.join(root, 'g')]);
    expect(both.status).toBe(1);
    expect(both.stderr).toBe('aar: wikirace graph build: give exactly one of --dumps <folder> and --edges <file>\n');
    const noDumps = runAar(['wikirace', 'graph', 'build', '--dumps', root, '--out', path.join(root, 'g')]);
    expect(noDumps.stderr).toBe(`aar: ${root}: no dump of table page (want a file named like enwiki-20250620-page.sql.gz)\n`);
    const noGraph = runAar(['wikirace', 'pairs', path.join(root, 'none'), '--out', root]);
    expect(noGraph.stderr).toBe(`aar: ${path.join(root, 'none', 'graph.json')}: cannot read (ENOENT)\n`);
  });
});
