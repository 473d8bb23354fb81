import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../trial/atomic.js';
import { tempDir } from '../helpers/data.js';
import { canMountSmallDisk, mountSmallDisk } from '../helpers/tmpfs.js';

describe('writeFileAtomic', () => {
  test('replaces a file whole and leaves no temporary file', () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'a.json');
      writeFileAtomic(file, '{"v": 1}\n');
      writeFileAtomic(file, Buffer.from('{"v": 2}\n'));
      expect(readFileSync(file, 'utf8')).toBe('{"v": 2}\n');
      expect(readdirSync(dir)).toEqual(['a.json']);
      expect(() => writeFileAtomic(path.join(dir, 'missing', 'b.json'), 'x')).toThrow(new RegExp(`${dir}/missing/b\\.json: ENOENT`));
    } finally {
      cleanup();
    }
  });

  (canMountSmallDisk() ? test : test.skip)('on a full disk the old version stays whole, and the error keeps its code and names the file', () => {
    const disk = mountSmallDisk(64);
    try {
      const file = path.join(disk!.dir, 'job.json');
      const before = JSON.stringify({ fingerprint: 'abc', pad: 'x'.repeat(3000) });
      writeFileAtomic(file, before);
      let filler = 0;
      try {
        for (;;) writeFileSync(path.join(disk!.dir, `filler-${filler++}`), Buffer.alloc(4096));
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
      }
      let thrown: NodeJS.ErrnoException | undefined;
      try {
        writeFileAtomic(file, JSON.stringify({ fingerprint: 'def', pad: 'y'.repeat(20_000) }));
      } catch (error) {
        thrown = error as NodeJS.ErrnoException;
      }
      expect(thrown?.code).toBe('ENOSPC');
      expect(thrown?.message).toContain(file);
      expect(readFileSync(file, 'utf8')).toBe(before);
      expect(readdirSync(disk!.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      disk!.unmount();
    }
  });
});
