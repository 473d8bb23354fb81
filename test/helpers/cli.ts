import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './data.js';

/** The compiled `aar` command (npm test builds first), run as a real process. */
export const AAR_BIN = path.join(REPO_ROOT, 'dist', 'harness', 'cli', 'main.js');

export function runAar(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [AAR_BIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    input: options.input,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
  });
}
