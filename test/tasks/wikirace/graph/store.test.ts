import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LinkGraph } from '../../../../tasks/wikirace/graph/graph.js';
import { readGraphFolder, writeGraphFolder } from '../../../../tasks/wikirace/graph/store.js';

const graph = LinkGraph.fromEdges(['Café de Flore', "Rock 'n' Roll", 'Paris'], [[0, 1], [1, 2], [2, 0], [2, 1]]);
const folder = (): string => join(mkdtempSync(join(tmpdir(), 'aar-graph-store-')), 'graph');

describe('graph folder', () => {
  test('writes the header and little-endian arrays, and reads them back as typed arrays', async () => {
    const dir = folder();
    const header = await writeGraphFolder(dir, graph, { source: 'test', synthetic: true });
    expect(header).toMatchObject({ format: 'aar-wikirace-graph', version: 1, pages: 3, links: 4, source: 'test', synthetic: true });
    expect(JSON.parse(readFileSync(join(dir, 'graph.json'), 'utf8'))).toEqual(header);
    expect([...readFileSync(join(dir, 'offsets.u32'))]).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0]);
    expect(readFileSync(join(dir, 'titles.txt'), 'utf8')).toBe("Café de Flore\nRock 'n' Roll\nParis\n");
    const loaded = await readGraphFolder(dir);
    expect(loaded.header).toEqual(header);
    expect(loaded.graph.targets).toBeInstanceOf(Uint32Array);
    expect([...loaded.graph.targets]).toEqual([...graph.targets]);
    expect([...loaded.graph.titles]).toEqual([...graph.titles]);
    expect(loaded.graph.pageOf('Paris')).toBe(2);
  });

  test('the same graph gives the same checksum', async () => {
    const a = await writeGraphFolder(folder(), graph, { source: 'a', synthetic: false });
    const b = await writeGraphFolder(folder(), graph, { source: 'b', synthetic: true });
    expect(a.sha256).toBe(b.sha256);
  });

  test('bad folders give one-line errors naming the file and the field', async () => {
    const dir = folder();
    await writeGraphFolder(dir, graph, { source: 'test', synthetic: false });
    const headerPath = join(dir, 'graph.json');
    const header = readFileSync(headerPath, 'utf8');
    const targets = readFileSync(join(dir, 'targets.u32'));

    writeFileSync(join(dir, 'targets.u32'), Buffer.concat([targets, Buffer.alloc(4)]));
    await expect(readGraphFolder(dir)).rejects.toThrow(`${headerPath}: field sha256 is`);

    const wrongCount = JSON.parse(header);
    wrongCount.links = 5;
    wrongCount.sha256 = (await writeGraphFolder(join(dir, '..', 'copy'), graph, { source: 'x', synthetic: false })).sha256;
    writeFileSync(join(dir, 'targets.u32'), targets);
    writeFileSync(headerPath, JSON.stringify(wrongCount));
    await expect(readGraphFolder(dir)).rejects.toThrow(`${join(dir, 'targets.u32')}: 16 bytes, but graph.json field links says 5 values (20 bytes)`);

    writeFileSync(headerPath, JSON.stringify({ ...JSON.parse(header), pages: 'three' }));
    await expect(readGraphFolder(dir)).rejects.toThrow(`${headerPath}: field pages: `);
    writeFileSync(headerPath, '{');
    await expect(readGraphFolder(dir)).rejects.toThrow(`${headerPath}: not JSON`);
    await expect(readGraphFolder(join(dir, 'none'))).rejects.toThrow(`${join(dir, 'none', 'graph.json')}: cannot read (ENOENT)`);
  });

  test('a link beyond the pages is refused with the file named', async () => {
    const dir = folder();
    const broken = new LinkGraph(['A', 'B'], Uint32Array.of(0, 1, 1), Uint32Array.of(7));
    await writeGraphFolder(dir, broken, { source: 'test', synthetic: true });
    await expect(readGraphFolder(dir)).rejects.toThrow(`${join(dir, 'targets.u32')}: link 0 points to page 7, beyond the 2 pages`);
  });

  test('a title with a line break cannot be written', async () => {
    const bad = LinkGraph.fromEdges(['A\nB', 'C'], [[0, 1]]);
    await expect(writeGraphFolder(folder(), bad, { source: 'test', synthetic: true })).rejects.toThrow('title of page 0 is empty or holds a line break');
  });
});
