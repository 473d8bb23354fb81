import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseJobConfig, type LoadedConfig } from '../../../harness/config/load.js';
import { checkJobFile, JOB_FILE, refuseForeignFolder } from '../../../harness/jobs/job-file.js';
import { runAar } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/data.js';
import { writeJobConfig } from '../../helpers/jobs.js';
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
      checkJobFile(disk!.dir, loaded('a'), false).write();
      const before = readFileSync(path.join(disk!.dir, JOB_FILE), 'utf8');
      let n = 0;
      try {
        for (;;) writeFileSync(path.join(disk!.dir, `filler-${n++}`), Buffer.alloc(1024));
      } catch {
        // full
      }
      expect(() => checkJobFile(disk!.dir, loaded('a', 'x'.repeat(8000)), true).write()).toThrow(/job\.json: ENOSPC/);
      expect(readFileSync(path.join(disk!.dir, JOB_FILE), 'utf8')).toBe(before);
      for (let i = 0; i < 8; i++) rmSync(path.join(disk!.dir, `filler-${i}`));
      expect(() => checkJobFile(disk!.dir, loaded('a'), false).write()).not.toThrow();
    } finally {
      disk!.unmount();
    }
  });
});

describe("a job's folder is never someone else's", () => {
  /** A folder of the user's files, with a `.partial` of their own (what a run or cleanup once deleted). */
  const userFolder = (dir: string): string => {
    mkdirSync(path.join(dir, '.partial', 'x'), { recursive: true });
    writeFileSync(path.join(dir, '.partial', 'x', 'y.txt'), 'mine');
    writeFileSync(path.join(dir, 'notes.txt'), 'also mine');
    return dir;
  };
  const untouched = (dir: string, extra: string[] = []): void => {
    expect(readdirSync(dir).sort()).toEqual(['.partial', 'notes.txt', ...extra].sort());
    expect(readFileSync(path.join(dir, '.partial', 'x', 'y.txt'), 'utf8')).toBe('mine');
  };

  test('`aar run` into a folder that holds files and no job.json stops with one line naming the config and its name; nothing in it is touched', () => {
    const tmp = tempDir('aar-i20d-foreign-');
    try {
      const mine = userFolder(path.join(tmp.dir, 'jobs', 'mine'));
      mkdirSync(mine, { recursive: true });
      const config = writeJobConfig(tmp.dir, { name: 'mine' });
      const run = runAar(['run', config, '--progress', 'quiet', '--no-report']);
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(`aar: ${config}: name: ${mine} is not a job folder (it holds other files and no job.json): give the job a name of its own, or another output folder; nothing in it was touched\n`);
      untouched(mine);

      // The issue's case: `name: "."` made the output folder itself the job's; it is refused by the schema now.
      const dot = writeJobConfig(tmp.dir, { name: '.', output: mine }, 'dot.yaml');
      const refused = runAar(['run', dot, '--progress', 'quiet', '--no-report']);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(new RegExp(`^aar: ${dot}:\\d+:\\d+: name: use letters, digits and \\. _ - only, not starting with a dot .*\\n$`));
      untouched(mine);
    } finally {
      tmp.cleanup();
    }
  });

  test('a missing or empty folder, one holding only the lock of a run killed before job.json, and a job folder are taken', () => {
    const { dir, cleanup } = tempDir();
    try {
      const check = (name: string) => () => refuseForeignFolder(path.join(dir, name), 'job.yaml');
      expect(check('missing')).not.toThrow();
      mkdirSync(path.join(dir, 'empty'));
      expect(check('empty')).not.toThrow();
      mkdirSync(path.join(dir, 'early'));
      writeFileSync(path.join(dir, 'early', '.lock'), '{}');
      writeFileSync(path.join(dir, 'early', '.lock.123.tmp'), '{}');
      expect(check('early')).not.toThrow();
      mkdirSync(path.join(dir, 'job'));
      writeFileSync(path.join(dir, 'job', JOB_FILE), '{}');
      userFolder(path.join(dir, 'job'));
      expect(check('job')).not.toThrow();
      // A job whose job.json was removed (to resume it without the configuration check) is still one by its trials.
      mkdirSync(path.join(dir, 'trials', 't1'), { recursive: true });
      writeFileSync(path.join(dir, 'trials', 't1', 'trial.json'), '{}');
      expect(check('trials')).not.toThrow();

      mkdirSync(path.join(dir, 'only-partial', '.partial', 'x'), { recursive: true });
      expect(check('only-partial')).toThrow(/^job\.yaml: name: \S+\/only-partial is not a job folder/);
      writeFileSync(path.join(dir, 'a-file'), 'x');
      expect(check('a-file')).toThrow(/is not a job folder/);
      expect(existsSync(path.join(dir, 'only-partial', '.partial', 'x'))).toBe(true);
    } finally {
      cleanup();
    }
  });
});

describe('a file where the job folders must go', () => {
  test('`--jobs-dir` (or `output`) naming a regular file, or a folder under one, gets one true line naming it and the flag; the file is untouched', () => {
    const tmp = tempDir('aar-h33-jobs-dir-');
    try {
      const file = path.join(tmp.dir, 'a-file');
      writeFileSync(file, 'mine\n');
      const config = writeJobConfig(tmp.dir, { name: 'jd', output: path.join(tmp.dir, 'jobs') });
      const run = (args: string[]) => runAar(['run', config, ...args, '--progress', 'quiet', '--no-report']);
      const flag = run(['--jobs-dir', file]);
      expect(flag.status).toBe(1);
      expect(flag.stderr).toBe(`aar: command line: --jobs-dir: ${file} is a file, not a folder: job folders go in a folder\n`);
      const under = run(['--jobs-dir', path.join(file, 'sub')]);
      expect(under.stderr).toBe(`aar: command line: --jobs-dir: ${file} is a file, so ${path.join(file, 'sub')} cannot be made: job folders go in a folder\n`);
      // From the config's own key, the config file is named.
      const byKey = writeJobConfig(tmp.dir, { name: 'jd', output: file }, 'by-key.yaml');
      expect(runAar(['run', byKey, '--progress', 'quiet', '--no-report']).stderr).toBe(`aar: ${byKey}: output: ${file} is a file, not a folder: job folders go in a folder\n`);
      // The job's own folder a file.
      mkdirSync(path.join(tmp.dir, 'jobs'));
      writeFileSync(path.join(tmp.dir, 'jobs', 'jd'), 'mine too\n');
      expect(run([]).stderr).toBe(`aar: ${config}: name: ${path.join(tmp.dir, 'jobs', 'jd')} is a file, not a job folder: give the job another name, or another output folder\n`);
      expect(readFileSync(file, 'utf8')).toBe('mine\n');
      expect(readFileSync(path.join(tmp.dir, 'jobs', 'jd'), 'utf8')).toBe('mine too\n');
    } finally {
      tmp.cleanup();
    }
  });
});
