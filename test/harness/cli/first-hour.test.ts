import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeSyntheticJob } from '../../../bench/synthetic-trials.js';
import { loadLegs } from '../../../tasks/aar/load.js';
import { runAar } from '../../helpers/cli.js';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';

/** What a new user meets first (issue 26): every mistake is one `aar:` line that says what to do. */
describe('aar: the first hour (the compiled command, run as a process)', () => {
  test('a mistyped command or option is one aar: line with the suggestion and where the help is', () => {
    expect(runAar(['verfy'])).toMatchObject({ status: 1, stdout: '', stderr: "aar: unknown command 'verfy' (did you mean verify?); see aar --help\n" });
    expect(runAar(['tasks', 'lst'])).toMatchObject({ status: 1, stderr: "aar: unknown command 'lst' (did you mean list?); see aar tasks --help\n" });
    expect(runAar(['tasks', 'list', '--bogus'])).toMatchObject({ status: 1, stderr: "aar: unknown option '--bogus'; see aar tasks list --help\n" });
    expect(runAar(['report'])).toMatchObject({ status: 1, stderr: "aar: missing required argument 'job-dir'; see aar report --help\n" });
    expect(runAar(['--version'])).toMatchObject({ status: 0, stderr: '' });
  });

  test('a file the command cannot write is named in one line, not a bare Node error', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const job = path.join(dir, 'job');
      writeSyntheticJob(job, (await loadLegs(EXAMPLES_DIR)).legs, 3, { withScores: true });
      for (const format of ['html', 'md']) {
        expect(runAar(['report', job, '--format', format, '--out', '/nonexistent/dir/r.html'])).toMatchObject({
          status: 1,
          stdout: '',
          stderr: 'aar: --out /nonexistent/dir/r.html: the folder /nonexistent/dir does not exist\n',
        });
      }
      const aFolder = path.join(dir, 'a-folder');
      mkdirSync(aFolder);
      expect(runAar(['report', job, '--out', aFolder])).toMatchObject({ status: 1, stderr: `aar: ${aFolder}: is a folder, not a file (opening it)\n` });
    } finally {
      cleanup();
    }
  });

  test('view and the HTML report refuse an empty or non-job folder; view --port shows its default once', () => {
    const { dir, cleanup } = tempDir();
    try {
      const empty = path.join(dir, 'empty');
      mkdirSync(empty);
      const other = path.join(dir, 'other');
      mkdirSync(other);
      writeFileSync(path.join(other, 'notes.txt'), 'not a job\n');
      for (const folder of [empty, other]) {
        for (const args of [['view', folder], ['report', folder, '--format', 'html']]) {
          expect(runAar(args)).toMatchObject({ status: 1, stdout: '', stderr: `aar: ${folder}: not a job folder (no job.json and no trial folder holding a trial.json)\n` });
        }
      }
      const help = runAar(['view', '--help']).stdout;
      expect(help.match(/default/g)).toHaveLength(1);
      expect(help).toContain('(default: any free one)');
    } finally {
      cleanup();
    }
  });

  test('an agent written as a bare name says how to write it', () => {
    const { dir, cleanup } = tempDir();
    try {
      const config = path.join(dir, 'job.yaml');
      writeFileSync(config, `tasks: {path: ${EXAMPLES_DIR}}\nagents:\n  - oracle\ntools: {mode: replay}\n`);
      expect(runAar(['plan', config])).toMatchObject({ status: 1, stderr: `aar: ${config}:3:5: agents[0]: an agent is a mapping, not a name: write \`- name: oracle\` (or \`{name: oracle}\`)\n` });
    } finally {
      cleanup();
    }
  });
});
