import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** The dist modules a fresh Node loads for this script (a resolve hook writes each one down). */
function modulesLoadedBy(script: string): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'aar-lazy-'));
  try {
    const log = path.join(dir, 'loaded.txt');
    const hook = path.join(dir, 'hook.mjs');
    writeFileSync(hook, `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}\n`);
    const run = spawnSync(process.execPath, ['--no-warnings', '--experimental-loader', pathToFileURL(hook).href, '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const distUrl = pathToFileURL(DIST).href;
    return [...new Set(readFileSync(log, 'utf8').trim().split('\n'))].filter((u) => u.startsWith(distUrl)).map((u) => u.slice(distUrl.length));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('aar verify loads only the scoring code of the families its trials name', () => {
  test('an AAR trial loads the AAR scorer; no family whole, no registry, nothing of WikiRace but its declaration', () => {
    const url = (p: string): string => JSON.stringify(pathToFileURL(path.join(DIST, p)).href);
    const loaded = modulesLoadedBy(`await import(${url('verifier/verify.js')});
const { scorerOfRecord } = await import(${url('tasks/families.js')});
await scorerOfRecord({});`);
    expect(loaded).toContain('verifier/verify.js');
    expect(loaded).toContain('tasks/aar/scoring/stored-trial.js');
    expect(loaded).toContain('tasks/wikirace/declaration.js');
    for (const heavy of ['tasks/registry.js', 'tasks/aar/family.js', 'tasks/aar/load.js', 'tasks/wikirace/family.js', 'tasks/wikirace/scoring/stored-trial.js', 'verifier/html/aar/view.js']) {
      expect(loaded).not.toContain(heavy);
    }
  });
});
