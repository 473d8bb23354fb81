import { jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { dockerAvailable } from '../../../common/docker.js';
import { REPO_ROOT } from '../../helpers/data.js';

const HAVE_DOCKER = await dockerAvailable();
if (!HAVE_DOCKER) console.warn('agent end-to-end test skipped: no Docker engine answers (run images/docker-up.sh)');

jest.setTimeout(20 * 60_000);

/**
 * The real Claude Code and Codex CLI binaries in trial containers, against the scripted model server
 * through the model gateway (npm run e2e:agents, run as a process).
 */
(HAVE_DOCKER ? describe : describe.skip)('real agent frameworks, end to end', () => {
  test('Claude Code and Codex each solve an example leg; turns and tokens equal what the script served', async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [path.join(REPO_ROOT, 'dist', 'bench', 'e2e-agents.js')], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, out, err) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: out, stderr: err }),
      );
    });
    if (code !== 0) throw new Error(`e2e:agents failed (${code}):\n${stdout}\n${stderr.slice(-4000)}`);
    const lines = stdout.trim().split('\n');
    for (const agent of ['claude-code', 'codex']) {
      const line = lines.find((l) => l.startsWith(`${agent}: `));
      expect(line).toMatch(/FA 1, turns 4 \(served 4\), tokens in 4060 \/ out 200 \/ cached 600 \(served 4060 \/ 200 \/ 600\), tool calls 2, model_log\.jsonl \d+ bytes in 4 lines, trajectory\.json \d+ bytes \(\d+ steps\), status completed -- ok$/);
    }
  });
});
