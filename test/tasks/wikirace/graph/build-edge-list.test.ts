import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildFromEdgeList } from '../../../../tasks/wikirace/graph/build-edge-list.js';

const tsv = ['# from\tto', 'Paris\tFrance', 'France\tParis', 'France\tEurope', '', 'Europe\tParis', 'Europe\tParis', 'Lonely\tParis', 'Paris\tParis'].join('\n');

describe('buildFromEdgeList', () => {
  test('reads titles as written and keeps the largest strongly connected component', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aar-edges-'));
    for (const [name, data] of [['links.tsv', tsv], ['links.tsv.gz', gzipSync(tsv)]] as const) {
      writeFileSync(join(dir, name), data);
      const { graph, stats } = await buildFromEdgeList(join(dir, name));
      expect([...graph.titles]).toEqual(['Paris', 'France', 'Europe']);
      expect(stats).toEqual({ pages: 4, links: 5, sccPages: 3, sccLinks: 4 });
    }
  });

  test('a line without exactly two titles names the file and the line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aar-edges-'));
    writeFileSync(join(dir, 'bad.tsv'), 'A\tB\nA B\n');
    await expect(buildFromEdgeList(join(dir, 'bad.tsv'))).rejects.toThrow(`${join(dir, 'bad.tsv')}:2: want two titles separated by one tab, got "A B"`);
    await expect(buildFromEdgeList(join(dir, 'none.tsv'))).rejects.toThrow(`${join(dir, 'none.tsv')}: cannot read (ENOENT)`);
  });
});
