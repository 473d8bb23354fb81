import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildFromDumps } from '../../../../tasks/wikirace/graph/build-dump.js';
import { dumpText, writeWikiDump, type WikiPage } from '../../../helpers/wikipedia-dump.js';

// Paris, France, Europe, Rock 'n' Roll and Café de Flore reach each other (some links through
// redirects, one through a double redirect); Lonely only links out; the two islands only reach
// each other; a talk page and a broken redirect must not count.
const pages: WikiPage[] = [
  { id: 1, title: 'Paris' },
  { id: 2, title: 'France' },
  { id: 3, title: 'Europe' },
  { id: 4, title: "Rock_'n'_Roll" },
  { id: 5, title: 'Café_de_Flore' },
  { id: 6, title: 'French_Republic', redirectTo: [0, 'France'] },
  { id: 7, title: 'Old_France', redirectTo: [0, 'French_Republic'] },
  { id: 8, title: 'Paris', namespace: 1 },
  { id: 9, title: 'Lonely' },
  { id: 10, title: 'Island_A' },
  { id: 11, title: 'Island_B' },
  { id: 12, title: 'Broken_redirect', redirectTo: [0, 'Nowhere'] },
];
const links: [number, number, string][] = [
  [1, 0, 'French_Republic'], [1, 0, "Rock_'n'_Roll"], [1, 0, 'Paris'], [1, 0, 'France'],
  [2, 0, 'Europe'], [2, 0, 'Paris'],
  [3, 0, 'Old_France'], [3, 0, 'Café_de_Flore'],
  [4, 0, 'Paris'],
  [5, 0, "Rock_'n'_Roll"], [5, 0, 'Broken_redirect'], [5, 1, 'Paris'], [5, 0, 'Never_written'],
  [6, 0, 'France'],
  [8, 0, 'Lonely'],
  [9, 0, 'Paris'],
  [10, 0, 'Island_B'], [11, 0, 'Island_A'],
];

describe('buildFromDumps', () => {
  test('main namespace only, redirects resolved, the largest strongly connected component kept, titles with spaces', async () => {
    const files = writeWikiDump(mkdtempSync(join(tmpdir(), 'aar-dump-')), pages, links);
    const lines: string[] = [];
    const { graph, stats } = await buildFromDumps(files, (l) => lines.push(l));
    expect([...graph.titles]).toEqual(['Paris', 'France', 'Europe', "Rock 'n' Roll", 'Café de Flore']);
    const named = (t: string): number => graph.pageOf(t)!;
    const out = (t: string): string[] => [...graph.linksOf(named(t))].map((p) => graph.titles[p]!);
    expect(out('Paris')).toEqual(['France', "Rock 'n' Roll"]); // via French_Republic and directly: one link
    expect(out('Europe')).toEqual(['France', 'Café de Flore']); // Old_France -> French_Republic -> France
    expect(out('Café de Flore')).toEqual(["Rock 'n' Roll"]);
    expect(stats).toEqual({ pages: 8, redirects: 3, links: 11, linksThroughRedirects: 2, linksDropped: 3, sccPages: 5, sccLinks: 8 });
    expect(lines[0]).toBe('page: 11 main-namespace pages');
  });

  test('a dump with a column missing is a one-line error naming the file and the column', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aar-dump-'));
    const files = writeWikiDump(dir, pages, links);
    const text = dumpText('linktarget', [[1, 0, 'Paris']]).replace('`lt_title`', '`lt_name`');
    writeFileSync(files.linktarget, gzipSync(text));
    await expect(buildFromDumps(files)).rejects.toThrow(`${files.linktarget}: the table has no column lt_title`);
  });
});
