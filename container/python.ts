import { spawn } from 'node:child_process';
import { killProcessGroup } from './process-group.js';

/**
 * Runs python_execute_code inside the container: `python3 -c CODE` with a time limit, reporting what it
 * printed the way the reference tool does (stdout, then stderr, "Exit code: N" first on failure). A program
 * that ran is a successful call whatever its exit code (the reference logs it so: the agent reads the exit
 * code in the text); only a program that could not run or ran out of time is a failed call.
 */
export function runPython(code: string, timeoutSeconds: number): Promise<{ ok: boolean; text: string }> {
  return new Promise((resolve) => {
    const child = spawn('python3', ['-c', code], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      killProcessGroup(child);
    }, timeoutSeconds * 1000);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ ok: false, text: `Error: cannot run python3: ${e.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) return resolve({ ok: false, text: `Error: code execution timed out after ${timeoutSeconds}s` });
      let output = stdout;
      if (stderr) output = output ? `${output}\n${stderr}` : stderr;
      if (code !== 0) output = `Exit code: ${code}\n${output}`;
      const trimmed = output.trim();
      resolve({ ok: true, text: trimmed || '(no output)' });
    });
  });
}
