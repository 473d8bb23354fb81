import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { TrialResultWire, TrialWorkWire } from '../../trial/handover.js';
import type { TrialWork, TrialWorkResult, WorkHandover } from '../environments/types.js';
import { HttpError, readJson, sendJson } from './http.js';
import { leaveBodyUnread } from './request-limits.js';

/** Largest result a self-contained sandbox may post (two bounded outputs and the collected files, base64). */
export const RESULT_LIMIT_BYTES = 96 * 1024 * 1024;

const b64 = z.string().regex(/^[A-Za-z0-9+/=]*$/, 'base64');
/** The sandbox's result (trial/handover.ts TrialResultWire), checked before anything of it is used. */
const ResultSchema: z.ZodType<TrialResultWire, unknown> = z.strictObject({
  exit_code: z.number().int().min(0).max(255).nullable(),
  timed_out: z.boolean(),
  duration_ms: z.number().nonnegative(),
  stdout_b64: b64,
  stderr_b64: b64,
  files: z.record(z.string(), b64.nullable()),
  dirs: z.record(z.string(), z.record(z.string(), b64)),
  node: z.string().max(256).nullable().optional(),
  cuts: z.array(z.strictObject({ path: z.string(), size: z.number().int().nonnegative(), kept: z.number().int().nonnegative(), blank: z.number().int().nonnegative().optional() })).default([]),
  echoed: z.strictObject({ stdout: z.number().int().nonnegative(), stderr: z.number().int().nonnegative() }).optional(),
}).refine((r) => r.exit_code !== null || r.timed_out, { path: ['exit_code'], message: 'null only for a run that timed out' });

const decode = (s: string): Buffer => Buffer.from(s, 'base64');

/**
 * One trial's handover at the gateway: the work waits here until the sandbox fetches it (GET
 * HANDOVER_PATHS.work, trial/handover.ts), and the sandbox posts its result back (POST HANDOVER_PATHS.result),
 * both with the trial token. A second result is refused: the first one counts. The result is the sandbox's
 * word: the trial runner keeps only what the work asked for (harness/jobs/collected.ts), and times the run on
 * its own clock.
 */
export class GatewayHandover implements WorkHandover {
  private work?: TrialWork;
  private settled = false;
  private receiving = false;
  fetched = false;
  fetchedAt: number | null = null;
  private resolve!: (r: TrialWorkResult) => void;
  private reject!: (e: Error) => void;
  private readonly pending = new Promise<TrialWorkResult>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });

  constructor() {
    this.pending.catch(() => {});
  }

  offer(work: TrialWork): void {
    this.work = work;
  }

  result(): Promise<TrialWorkResult> {
    return this.pending;
  }

  cancel(reason: string): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(new Error(reason));
  }

  serveWork(res: ServerResponse): void {
    if (!this.work) throw new HttpError(404, 'no work for this trial yet');
    const w = this.work;
    this.fetched = true;
    this.fetchedAt ??= performance.now();
    const wire: TrialWorkWire = {
      files: w.files.map((f) => ({ path: f.path, mode: f.mode ?? 0o644, content_b64: Buffer.from(f.content).toString('base64') })),
      command: w.command,
      ...(w.inProcess ? { in_process: true } : {}),
      workdir: w.workdir,
      env: w.env ?? {},
      timeout_ms: w.timeoutMs,
      collect_files: w.collectFiles,
      collect_dirs: w.collectDirs,
      limits: { file_bytes: w.limits.fileBytes, log_bytes: w.limits.logBytes },
    };
    sendJson(res, 200, wire);
  }

  /**
   * One result is read at a time, and none once one was taken: a second post is refused from its headers,
   * its body unread, so posting results in a loop or all at once costs the host one result's memory.
   */
  async takeResult(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.settled || this.receiving) {
      leaveBodyUnread(req, res);
      throw new HttpError(409, this.settled ? 'this trial already handed back its result' : 'a result of this trial is being received');
    }
    this.receiving = true;
    let body: unknown;
    try {
      body = await readJson(req, RESULT_LIMIT_BYTES);
    } finally {
      this.receiving = false;
    }
    const parsed = ResultSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new HttpError(400, `trial result: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
    }
    if (this.settled) throw new HttpError(409, 'this trial already handed back its result');
    this.settled = true;
    const r = parsed.data;
    const arrived = performance.now();
    this.resolve({
      exitCode: r.exit_code,
      timedOut: r.timed_out,
      // The harness's clock, not the sandbox's word: from the work fetched to this result.
      durationMs: arrived - (this.fetchedAt ?? arrived),
      reportedDurationMs: r.duration_ms,
      stdout: decode(r.stdout_b64),
      stderr: decode(r.stderr_b64),
      files: Object.fromEntries(Object.entries(r.files).map(([k, v]) => [k, v === null ? null : decode(v)])),
      dirs: Object.fromEntries(Object.entries(r.dirs).map(([dir, files]) => [dir, Object.fromEntries(Object.entries(files).map(([k, v]) => [k, decode(v)]))])),
      node: r.node ?? null,
      cuts: r.cuts,
      ...(r.echoed ? { echoed: r.echoed } : {}),
    });
    sendJson(res, 200, { ok: true });
  }
}
