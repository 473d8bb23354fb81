import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { acceptResult, COLLECTED_FILES_LIMIT, nameProblem, REFUSED_LISTED, RefusedList, writeCollectedDirs } from '../../../harness/jobs/collected.js';
import type { TrialWorkResult } from '../../../harness/environments/types.js';
import { tempDir } from '../../helpers/data.js';

/** What a trial takes of its sandbox's result: real files in a real temp folder, no Docker needed. */
const WORK = { collectFiles: ['/app/answer.txt'], collectDirs: ['/logs/a', '/other/b'], limits: { fileBytes: 8, logBytes: 16 } };
const result = (over: Partial<TrialWorkResult>): TrialWorkResult => ({
  exitCode: 0,
  timedOut: false,
  durationMs: 1,
  stdout: Buffer.alloc(0),
  stderr: Buffer.alloc(0),
  files: {},
  dirs: {},
  node: null,
  cuts: [],
  ...over,
});
const files = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();

describe('nameProblem', () => {
  test.each([
    ['x.txt', undefined],
    ['sub/x.txt', undefined],
    ['..foo', undefined],
    ['a\\..\\b', undefined],
    ['', 'empty name'],
    ['/etc/passwd', 'absolute name'],
    ['../x', "'..' in the name"],
    ['a/../../x', "'..' in the name"],
    ['..', "'..' in the name"],
    ['a//b', 'not a plain relative name'],
    ['./a', 'not a plain relative name'],
    ['a/', 'not a plain relative name'],
    ['a\0b', 'NUL in the name'],
    ['x'.repeat(256), 'name too long'],
  ])('%j -> %p', (name, problem) => expect(nameProblem(name)).toBe(problem));
});

describe('acceptResult', () => {
  test('keeps only the files and folders asked for, cut at the limits, and the cuts that name a kept file', () => {
    const refused = new RefusedList();
    const kept = acceptResult(
      WORK,
      result({
        files: { '/app/answer.txt': Buffer.from('123456789é'), '/etc/shadow': Buffer.from('x') },
        dirs: { '/logs/a': { 'ok.txt': Buffer.from('ok'), '../up': Buffer.from('x'), big: Buffer.alloc(300, 'b') }, '/x/..': { 'tool_log.jsonl': Buffer.from('x') } },
        stdout: Buffer.alloc(20, 'o'),
        cuts: [{ path: '/logs/a/ok.txt', size: 5, kept: 2 }, { path: '/elsewhere', size: 1, kept: 0 }, { path: '/app/answer.txt', size: 1e9, kept: 1 }],
      }),
      refused,
    );
    expect(kept.files).toEqual({ '/app/answer.txt': Buffer.from('12345678') });
    expect(Object.keys(kept.dirs)).toEqual(['/logs/a']);
    expect(Object.keys(kept.dirs['/logs/a'])).toEqual(['ok.txt', 'big']);
    expect(kept.dirs['/logs/a'].big.toString()).toMatch(/^b{16}\n\[aar-harness: cut at 16 of 300 bytes/);
    expect(kept.stdout).toHaveLength(16);
    expect(kept.cuts).toEqual([
      { path: '/logs/a/ok.txt', size: 5, kept: 2 },
      { path: '/app/answer.txt', size: 11, kept: 8 },
      { path: '/logs/a/big', size: 300, kept: 16 },
      { path: 'stdout', size: 20, kept: 16 },
    ]);
    expect(refused.entries()).toEqual([
      { path: '/etc/shadow', reason: 'file not asked for' },
      { path: '/logs/a/../up', reason: "'..' in the name" },
      { path: '/x/../', reason: 'folder not asked for' },
    ]);
  });

  test('an asked file left out comes back as null; past the file limit the rest is refused, and the list counts past its length', () => {
    const refused = new RefusedList();
    const many = Object.fromEntries(Array.from({ length: COLLECTED_FILES_LIMIT + 60 }, (_, i) => [`f${i}`, Buffer.from('x')]));
    const kept = acceptResult(WORK, result({ dirs: { '/logs/a': many } }), refused);
    expect(kept.files).toEqual({ '/app/answer.txt': null });
    expect(Object.keys(kept.dirs['/logs/a'])).toHaveLength(COLLECTED_FILES_LIMIT);
    const entries = refused.entries();
    expect(entries).toHaveLength(REFUSED_LISTED + 1);
    expect(entries[0]).toEqual({ path: `/logs/a/f${COLLECTED_FILES_LIMIT}`, reason: `more than ${COLLECTED_FILES_LIMIT} files` });
    expect(entries.at(-1)).toEqual({ path: '...', reason: '10 more refused' });
  });
});

describe('writeCollectedDirs', () => {
  const tmp = tempDir('aar-i20a-collected-');
  afterAll(() => tmp.cleanup());

  test('writes each folder as agent/<last name>/, refuses clashing names and taken folder names, never writes over a file', () => {
    const agentDir = path.join(tmp.dir, 'clash', 'agent');
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(path.join(agentDir, 'stdout.log'), 'harness');
    const refused = new RefusedList();
    writeCollectedDirs(
      agentDir,
      {
        '/logs/a': { x: Buffer.from('first'), 'x/y': Buffer.from('no'), 'd/e': Buffer.from('e'), d: Buffer.from('no') },
        '/other/a': { z: Buffer.from('no') },
        '/var/stdout.log': { z: Buffer.from('no') },
      },
      refused,
    );
    expect(files(agentDir)).toEqual(['a/d/e', 'a/x', 'stdout.log']);
    expect(readFileSync(path.join(agentDir, 'a', 'x'), 'utf8')).toBe('first');
    expect(readFileSync(path.join(agentDir, 'stdout.log'), 'utf8')).toBe('harness');
    expect(refused.entries()).toEqual([
      { path: '/logs/a/x/y', reason: 'clashes with another collected file (EEXIST)' },
      { path: '/logs/a/d', reason: 'clashes with another collected file (EEXIST)' },
      { path: '/other/a/', reason: 'its folder name "a" is not free in agent/' },
      { path: '/var/stdout.log/', reason: 'its folder name "stdout.log" is not free in agent/' },
    ]);
  });

  test('a name already taken under agent/ (here a link out of it) is refused: nothing is written through it', () => {
    const agentDir = path.join(tmp.dir, 'linked', 'agent');
    const outside = path.join(tmp.dir, 'linked', 'outside');
    mkdirSync(agentDir, { recursive: true });
    mkdirSync(outside);
    symlinkSync(outside, path.join(agentDir, 'pre'));
    const refused = new RefusedList();
    writeCollectedDirs(agentDir, { '/logs/pre': { x: Buffer.from('no') } }, refused);
    expect(refused.entries()).toEqual([{ path: '/logs/pre/', reason: 'its folder name "pre" is not free in agent/' }]);
    expect(readdirSync(outside)).toEqual([]);
  });
});
