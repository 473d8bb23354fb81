/**
 * The handover's wire format: a self-contained sandbox fetches its work from the gateway (`GET
 * /v1/trial/work`) and posts its result back (`POST /v1/trial/result`), both as JSON with the trial token.
 * Both ends import these types: the gateway (harness/gateway/handover.ts) and `tools --trial` in the
 * container (container/trial-run.ts). The container's bundle carries no dependencies, so this module holds
 * types and constants only; the host checks what comes back against its zod schema, typed by TrialResultWire.
 */

/** The gateway's two handover paths: the sandbox GETs its work from the first and POSTs its result to the second. */
export const HANDOVER_PATHS = { work: '/v1/trial/work', result: '/v1/trial/result' } as const;

/** Said on stderr when the work never came; the harness recognises it in a run that failed. */
export const NO_GATEWAY = 'aar: the container cannot reach the gateway';

/** A file of the work: its bytes in base64, written at an absolute path in the sandbox with its mode. */
export interface WorkFileWire {
  path: string;
  mode: number;
  content_b64: string;
}

/** What the gateway hands the sandbox: files in, one command under a timeout, what to bring back. */
export interface TrialWorkWire {
  files: WorkFileWire[];
  command: string[];
  /** The command is `node FILE ARGS` of a built-in program (container/program.ts): the runner may load it into its own process. */
  in_process?: boolean;
  workdir: string;
  env: Record<string, string>;
  timeout_ms: number;
  /** Answer files to bring back (absent ones come back as null). */
  collect_files: string[];
  /** Folders to bring back, every regular file under them. */
  collect_dirs: string[];
  /** Bytes kept of each collected file, and of the output streams and each file of the folders. */
  limits: { file_bytes: number; log_bytes: number };
}

/** What was cut at the limits: `stdout`, `stderr` or the sandbox path, its whole size and the bytes kept
 * (and for a collected answer file, `blank`: the whitespace around it left out). */
export interface CutWire {
  path: string;
  size: number;
  kept: number;
  blank?: number;
}

/** What the sandbox posts back: how the command ended, its output and the collected files, in base64. */
export interface TrialResultWire {
  /** Null only for a run that timed out. */
  exit_code: number | null;
  timed_out: boolean;
  /** The sandbox's own clock (the harness keeps its own). */
  duration_ms: number;
  stdout_b64: string;
  stderr_b64: string;
  /** Sandbox path -> bytes, or null when the file did not exist. */
  files: Record<string, string | null>;
  /** Sandbox folder -> (path relative to it -> bytes). */
  dirs: Record<string, Record<string, string>>;
  /** The node that ran it, where the sandbox knows (a swarm task). */
  node?: string | null;
  cuts: CutWire[];
  /** Bytes the runner wrote to its own stdout and stderr, when the output went out live (AAR_TRIAL_ECHO): the
   * harness has read all of it once that much has come, without waiting for the container to stop. */
  echoed?: { stdout: number; stderr: number };
}
