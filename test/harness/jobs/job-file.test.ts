import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseJobConfig, type LoadedConfig } from '../../../harness/config/load.js';
import { checkJobFile, JOB_FILE } from '../../../harness/jobs/job-file.js';
import { tempDir } from '../../helpers/data.js';
import { canMountSmallDisk, mountSmallDisk } from '../../helpers/tmpfs.js';

const loaded = (name: string, pad = ''): LoadedConfig => {
  const text = `name: ${name}\ntasks: {path: legs${pad ? `, ids: ["${pad}"]` : ''}}\nagents: [{name: oracle}]\n`;
  return { file: 'job.yaml', text, config: parseJobConfig('job.yaml', text), resolve: (p) => p };
};

describe('job.json', () => {
  test('a damaged job.json is named, with what to do about it', () => {
    const { dir, cleanup } = tempDir();
    try {
      writeFileSync(path.join(dir, JOB_FILE), '{"fingerprint": "0123456789abcdef", "harness_ver');
      expect(() => checkJobFile(dir, loaded('a'), false)).toThrow(new RegExp(`^${dir}/job\\.json: damaged \\(.*\\); restore it, or remove it to resume the job without the configuration check$`));
    } finally {
      cleanup();
    }
  });

  (canMountSmallDisk() ? test : test.skip)('a full disk leaves job.json whole, so the job can still be resumed', () => {
    const disk = mountSmallDisk(64);
    try {
      checkJobFile(disk!.dir, loaded('a'), false);
      const before = readFileSync(path.join(disk!.dir, JOB_FILE), 'utf8');
      let n = 0;
      try {
        for (;;) writeFileSync(path.join(disk!.dir, `filler-${n++}`), Buffer.alloc(1024));
      } catch {
        // full
      }
      expect(() => checkJobFile(disk!.dir, loaded('a', 'x'.repeat(8000)), true)).toThrow(/job\.json: ENOSPC/);
      expect(readFileSync(path.join(disk!.dir, JOB_FILE), 'utf8')).toBe(before);
      for (let i = 0; i < 8; i++) rmSync(path.join(disk!.dir, `filler-${i}`));
      expect(() => checkJobFile(disk!.dir, loaded('a'), false)).not.toThrow();
    } finally {
      disk!.unmount();
    }
  });
});
