import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ToolReply {
  ok: boolean;
  text: string;
}

/**
 * The in-container `tools` command in batch mode, started once for a whole run of a built-in program (the
 * oracles, the WikiRace players): each call is one JSON line in and one out, through the same client and
 * gateway as `tools NAME`, in one process instead of one per call.
 */
export function toolsSession(): { call: (tool: string, args?: Record<string, unknown>) => Promise<ToolReply>; close: () => void } {
  const child = spawn('tools', ['--batch'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: Array<(line: string) => void> = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(line));
  child.on('exit', (code) => {
    if (waiting.length) {
      console.error(`the tools command exited with ${code} before answering`);
      process.exit(1);
    }
  });
  return {
    call: (tool, args = {}) =>
      new Promise((resolve) => {
        waiting.push((line) => resolve(JSON.parse(line) as ToolReply));
        child.stdin.write(JSON.stringify({ tool, args }) + '\n');
      }),
    close: () => child.stdin.end(),
  };
}
