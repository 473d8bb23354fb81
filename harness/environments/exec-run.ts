import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { NO_GATEWAY } from '../../tools/cli/trial-run.js';
import { regularFilesUnder } from '../../tools/cli/trial-result.js';
import { ByteBudget } from '../../trial/copy-limits.js';
import type { TrialEnvironment, TrialWork, TrialWorkResult } from './types.js';

/** Most bytes of the agent's stdout and of its stderr a run brings back (the rest is cut). */
export const OUTPUT_LIMIT = 8 * 1024 * 1024;

/** A sink that keeps the first `limit` bytes written to it, and counts them all. */
export function boundedSink(limit = OUTPUT_LIMIT, onChunk?: (chunk: Buffer) => void): { sink: PassThrough; bytes: () => Buffer; size: () => number } {
  const chunks: Buffer[] = [];
  const budget = new ByteBudget(limit);
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => {
    onChunk?.(chunk);
    const part = budget.take(chunk);
    if (part.length) chunks.push(part);
  });
  return { sink, bytes: () => Buffer.concat(chunks), size: () => budget.size };
}

type BoundedSink = ReturnType<typeof boundedSink>;

/** The work's stdout and stderr sinks, bounded by its limit, passing each chunk on to `work.onOutput` as it comes. */
export function outputSinks(work: TrialWork): { out: BoundedSink; err: BoundedSink } {
  const live = (stream: 'stdout' | 'stderr') => work.onOutput && ((chunk: Buffer) => work.onOutput!(stream, chunk));
  return { out: boundedSink(work.limits.logBytes, live('stdout')), err: boundedSink(work.limits.logBytes, live('stderr')) };
}

/** The output streams cut at the limit, as cuts of `stdout` and `stderr`. */
export function outputCuts(out: BoundedSink, err: BoundedSink, limit: number): TrialWorkResult['cuts'] {
  const cuts: TrialWorkResult['cuts'] = [];
  for (const [name, sink] of [['stdout', out], ['stderr', err]] as const) {
    if (sink.size() > limit) cuts.push({ path: name, size: sink.size(), kept: sink.bytes().length });
  }
  return cuts;
}

/** Every regular file under a host folder (links not followed): path relative to it -> bytes. */
export function readTree(root: string): Record<string, Buffer> {
  return Object.fromEntries(regularFilesUnder(root).map((relative) => [relative, readFileSync(path.join(root, relative))]));
}

/**
 * The work's files and folders, copied out of the sandbox (it may have stopped: the files stay readable),
 * each bounded by the work's limits; what was cut is added to `cuts`.
 */
export async function collectByArchive(env: TrialEnvironment, work: TrialWork, cuts: TrialWorkResult['cuts']): Promise<Pick<TrialWorkResult, 'files' | 'dirs'>> {
  const files: Record<string, Buffer | null> = {};
  for (const file of work.collectFiles) {
    files[file] = await env.getFile(file, { maxBytes: work.limits.fileBytes, answer: true, onCut: (c) => cuts.push({ ...c, path: file }) });
  }
  const dirs: Record<string, Record<string, Buffer>> = {};
  for (const dir of work.collectDirs) {
    const host = mkdtempSync(path.join(os.tmpdir(), 'aar-collect-'));
    try {
      await env.getDir(dir, host, { maxBytes: work.limits.logBytes, onCut: (c) => cuts.push({ path: `${dir}/${c.path}`, size: c.size, kept: c.kept }) });
      dirs[dir] = readTree(host);
    } finally {
      rmSync(host, { recursive: true, force: true });
    }
  }
  return { files, dirs };
}

/** Exit status of the gateway check when the gateway never answered (the command did not run). */
const NO_GATEWAY_EXIT = 199;

/**
 * The command, run once the gateway answers /healthz on 127.0.0.1:PORT (retried for about 10 s: the relay
 * starts with the container). The check is bash's own /dev/tcp, in the same exec as the command: no
 * engine round trips and no program of its own (a forked subshell); `exec` leaves the command as the process it always was.
 */
export function afterGatewayCheck(port: number, command: string[]): string[] {
  const check =
    `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET /healthz HTTP/1.0\r\nAuthorization: Bearer %s\r\n\r\n' "$AAR_TRIAL_TOKEN" >&3 ` +
    `&& IFS= read -r -t 5 line <&3 && [[ $line == *' 200 '* ]]`;
  // In a subshell: a relay that drops the connection (SIGPIPE) or any failure ends the check, not the script,
  // and the connection closes with it (the command inherits no descriptor).
  const script = `for i in {1..200}; do ( ${check} ) 2>/dev/null && exec "$@"; sleep 0.05; done; echo '${NO_GATEWAY}' >&2; exit ${NO_GATEWAY_EXIT}`;
  return ['bash', '-c', script, 'aar-trial', ...command];
}

/**
 * A trial's work on an environment that can reach into its sandbox (docker): files in (one archive), the
 * command under the timeout once the gateway answers, files out. Throws when the gateway cannot be reached.
 */
export async function runByExec(env: TrialEnvironment, work: TrialWork, node: string | null, gatewayPort: number): Promise<TrialWorkResult> {
  await env.putFiles(work.files);
  const { out, err } = outputSinks(work);
  const result = await env.exec(afterGatewayCheck(gatewayPort, work.command), { timeoutMs: work.timeoutMs, stdout: out.sink, stderr: err.sink, workdir: work.workdir, env: work.env });
  if (result.exitCode === NO_GATEWAY_EXIT && err.bytes().includes(NO_GATEWAY)) throw new Error(`${NO_GATEWAY} on 127.0.0.1:${gatewayPort} (no answer within 10 s)`);
  const cuts = outputCuts(out, err, work.limits.logBytes);
  const { files, dirs } = await collectByArchive(env, work, cuts);
  return {
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    stdout: out.bytes(),
    stderr: err.bytes(),
    files,
    dirs,
    node,
    cuts,
    ...(result.fate ? { fate: result.fate } : {}),
  };
}
