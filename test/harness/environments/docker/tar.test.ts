import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pack } from 'tar-stream';
import { CappedFileWriter } from '../../../../harness/environments/capped-file.js';
import { extractUnder, firstFileOfTar } from '../../../../harness/environments/docker/tar.js';
import { ANSWER_BLANK_LIMIT_BYTES, ANSWER_LIMIT_BYTES, AnswerCopy, cutMarker } from '../../../../trial/copy-limits.js';
import { tempDir } from '../../../helpers/data.js';

const dirs = tempDir('aar-copy-out-');
afterAll(() => dirs.cleanup());

/** A tar stream holding one file of `size` bytes of `fill`, produced only as fast as it is read; `produced()` counts its bytes. */
function lazyTar(name: string, size: number, fill = 0x20): { stream: NodeJS.ReadableStream; produced: () => number } {
  const tar = pack();
  let produced = 0;
  tar.on('data', (c: Buffer) => (produced += c.length));
  tar.pause();
  const entry = tar.entry({ name, size });
  const chunk = Buffer.alloc(64 * 1024, fill);
  void (async () => {
    for (let left = size; left > 0 && !tar.destroyed; left -= chunk.length) {
      if (!entry.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) await new Promise((resolve) => entry.once('drain', resolve));
    }
    if (!tar.destroyed) {
      entry.end();
      tar.finalize();
    }
  })();
  return { stream: tar as unknown as NodeJS.ReadableStream, produced: () => produced };
}

function tarOfFiles(files: Record<string, Buffer | string>): NodeJS.ReadableStream {
  const tar = pack();
  for (const [name, content] of Object.entries(files)) tar.entry({ name }, content);
  tar.finalize();
  return tar as unknown as NodeJS.ReadableStream;
}

describe('copying a file out of a sandbox', () => {
  test('a 1 GiB answer.txt costs the host its first 4 kB: the archive is read no further', async () => {
    const size = 1024 ** 3;
    const tar = lazyTar('answer.txt', size);
    const file = await firstFileOfTar(tar.stream, 4096);
    expect(file!.size).toBe(size);
    expect(file!.content.length).toBe(4096);
    expect(tar.produced()).toBeLessThan(8 * 1024 * 1024);
  });

  test('the cut never splits a UTF-8 character; a small file comes whole', async () => {
    const e = await firstFileOfTar(tarOfFiles({ 'a.txt': 'é'.repeat(3000) }), 4096);
    expect(e!.content.toString('utf8')).toBe('é'.repeat(2048));
    const odd = await firstFileOfTar(tarOfFiles({ 'a.txt': 'x' + 'é'.repeat(3000) }), 4096);
    expect(odd!.content.length).toBe(4095);
    expect(odd!.content.toString('utf8')).toBe('x' + 'é'.repeat(2047));
    expect(await firstFileOfTar(tarOfFiles({ 'a.txt': '7\n' }), 4096)).toEqual({ content: Buffer.from('7\n'), size: 2 });
    expect(await firstFileOfTar(tarOfFiles({}), 4096)).toBeNull();
  });

  test('an answer: the whitespace around it is read past, not kept, and bounded (5,000 spaces then 6 keeps 6)', async () => {
    const padded = await firstFileOfTar(tarOfFiles({ 'answer.txt': ' '.repeat(5000) + '6\n' }), new AnswerCopy());
    expect(padded).toEqual({ content: Buffer.from('6\n'), size: 5002, cut: { size: 5002, kept: 2, blank: 5000 } });
    const size = 1024 ** 3;
    const tar = lazyTar('answer.txt', size);
    const blank = await firstFileOfTar(tar.stream, new AnswerCopy());
    expect(blank!.content.length).toBe(ANSWER_LIMIT_BYTES);
    expect(blank!.cut).toEqual({ size, kept: ANSWER_LIMIT_BYTES, blank: ANSWER_BLANK_LIMIT_BYTES });
    expect(tar.produced()).toBeLessThan(ANSWER_BLANK_LIMIT_BYTES + 8 * 1024 * 1024);
  });

  test('a folder: each file cut at the limit with a marker and reported; paths leaving the folder skipped', async () => {
    const host = path.join(dirs.dir, 'logs');
    const cuts: unknown[] = [];
    const n = await extractUnder(
      tarOfFiles({ 'projects/big.jsonl': Buffer.alloc(3 * 1024 * 1024, 0x61), 'projects/sub/small.jsonl': '{}\n', 'projects/../../escape.txt': 'x' }),
      host,
      { maxBytes: 1024 * 1024, onCut: (cut) => cuts.push(cut) },
    );
    expect(n).toBe(2);
    expect(readFileSync(path.join(host, 'big.jsonl'), 'utf8')).toBe('a'.repeat(1024 * 1024) + cutMarker(3 * 1024 * 1024, 1024 * 1024));
    expect(readFileSync(path.join(host, 'sub', 'small.jsonl'), 'utf8')).toBe('{}\n');
    expect(existsSync(path.join(dirs.dir, 'escape.txt'))).toBe(false);
    expect(cuts).toEqual([{ path: 'big.jsonl', size: 3 * 1024 * 1024, kept: 1024 * 1024 }]);
  });

  test('a capped log file keeps its first bytes, counts the rest and ends with the marker', async () => {
    const file = path.join(dirs.dir, 'stdout.log');
    let cut: unknown;
    const log = new CappedFileWriter(file, 100_000, (c) => (cut = c));
    for (let i = 0; i < 50; i++) log.write(Buffer.alloc(10_000, 0x78));
    await new Promise<void>((resolve) => log.end(resolve));
    expect(cut).toEqual({ size: 500_000, kept: 100_000 });
    expect(statSync(file).size).toBe(100_000 + Buffer.byteLength(cutMarker(500_000, 100_000)));
    const small = path.join(dirs.dir, 'stderr.log');
    const quiet = new CappedFileWriter(small, 100_000, () => {
      throw new Error('not cut');
    });
    await new Promise<void>((resolve) => quiet.end('fine\n', resolve));
    expect(readFileSync(small, 'utf8')).toBe('fine\n');
  });
});
