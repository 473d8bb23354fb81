/** Limits of one trial's sandbox. */
export interface Resources {
  /** Memory limit in MB (the paper: 10,240). */
  memoryMb: number;
  cpus: number;
  /** Most processes at once (a fork bomb stops here). */
  pids: number;
}

/** What a trial's sandbox is made from. */
export interface EnvironmentSpec {
  image: string;
  /** Labels naming the job and trial, so leftovers of a killed run can be found and removed. */
  labels: Record<string, string>;
  env: Record<string, string>;
  resources: Resources;
  /** Host folder holding the gateway's Unix socket, made available at /run/aar inside. */
  gatewaySocketDir: string;
  /** The socket's file name within that folder. */
  gatewaySocketName: string;
  /** Port inside the sandbox where the gateway answers (relayed to the socket). */
  gatewayPort: number;
  /** `none` (default): no network, only the gateway; `bridge`: the engine's default network too. */
  network: 'none' | 'bridge';
  /** Where the sandbox fetches its work and hands back its result (through the gateway). */
  handover: WorkHandover;
}

/** One trial's whole run, handed to the sandbox at once: files in, one command under a timeout, files out. */
export interface TrialWork {
  files: FileToPut[];
  command: string[];
  /** The command is `node FILE ARGS` of a built-in program (container/program.ts): a self-contained sandbox's
   * runner may load it into its own process; other sandboxes run the command as it is. */
  inProcess?: boolean;
  workdir: string;
  env?: Record<string, string>;
  timeoutMs: number;
  /** Answer files to bring back (absent ones come back as null), read as the reference reads an answer: the
   * whitespace around it is left out and does not count against limits.fileBytes (AnswerCopy). */
  collectFiles: string[];
  /** Folders to bring back, every regular file under them. */
  collectDirs: string[];
  /** Bytes kept of each collected file, and of the output streams and each file of the folders. */
  limits: { fileBytes: number; logBytes: number };
  /** The command's output as it comes, where the environment sees it live (docker); all of it comes back in the result too. */
  onOutput?(stream: 'stdout' | 'stderr', chunk: Buffer): void;
}

/** What a run brought back. */
export interface TrialWorkResult {
  exitCode: number | null;
  timedOut: boolean;
  /** The agent's run time on the harness's own clock: from the work reaching the sandbox (fetched, or the
   * command started) to the result arriving or the sandbox stopping. */
  durationMs: number;
  /** The run time the sandbox reported of itself (untrusted: the agent can post its own result). */
  reportedDurationMs?: number;
  stdout: Buffer;
  stderr: Buffer;
  /** Sandbox path -> bytes, or null when the file did not exist. */
  files: Record<string, Buffer | null>;
  /** Sandbox folder -> (path relative to it -> bytes). */
  dirs: Record<string, Record<string, Buffer>>;
  /** The machine (cluster node) that ran it, when the environment knows. */
  node: string | null;
  /** What was cut at the limits: `stdout`, `stderr` or the sandbox path, its whole size and the bytes kept
   * (and for a collected answer file, `blank`: the whitespace around it left out). */
  cuts: { path: string; size: number; kept: number; blank?: number }[];
  /** What happened to the sandbox while the command ran, when it did not end normally and the provider could look. */
  fate?: SandboxFate;
  /** The sandbox's word on how many bytes of live output it wrote (trial/handover.ts TrialResultWire.echoed). */
  echoed?: { stdout: number; stderr: number };
}

/**
 * The gateway's side of a self-contained trial: the sandbox fetches the work with its trial token and posts
 * the result back, so nothing needs to reach into the sandbox (which may be on another machine).
 */
export interface WorkHandover {
  offer(work: TrialWork): void;
  /** Resolves with the sandbox's result; rejects when the handover is cancelled. */
  result(): Promise<TrialWorkResult>;
  /** True once the sandbox has fetched its work (it reached the gateway). */
  readonly fetched: boolean;
  /** When the work was fetched (performance.now() of the harness), null before. */
  readonly fetchedAt: number | null;
}

/** What happened to a sandbox while a command ran, as far as its provider can tell. */
export interface SandboxFate {
  /** Someone other than the harness killed, paused, stopped or removed it: how the command ended says nothing about the agent. */
  outside?: string;
  /** The kernel killed a process for memory under the sandbox's own limit (the agent's doing). */
  oomAtOwnLimit?: boolean;
}

export interface FileToPut {
  /** Absolute path inside the sandbox. */
  path: string;
  content: string | Buffer;
  mode?: number;
}

/**
 * One trial's sandbox, started by the trial runner: it runs the trial's work once and is removed. Nothing
 * reaches into it: the work goes in and the result comes out through the gateway's handover, so the sandbox
 * may be on another machine. (Tests that need to reach into a container use docker/exec-sandbox.ts.)
 */
export interface TrialEnvironment {
  readonly id: string;
  /** Runs the trial's work to the end: the files in, the command under the timeout, the files out. */
  run(work: TrialWork): Promise<TrialWorkResult>;
  /** Stops every process at once; a run under way ends. */
  kill(): Promise<void>;
  /** Removes the sandbox; safe to call twice. */
  remove(): Promise<void>;
}

/** A sandbox as listed by its provider. */
export interface SandboxInfo {
  id: string;
  labels: Record<string, string>;
  /** e.g. running, exited, paused. */
  state: string;
}

/** Where trials run (docker, swarm): one per job, made by its definition in the registry (registry.ts). */
export interface EnvironmentProvider {
  readonly name: string;
  /** Throws with a one-line hint when the environment cannot be used here. */
  check(): Promise<void>;
  start(spec: EnvironmentSpec): Promise<TrialEnvironment>;
  /** Removes sandboxes whose labels include all of these; returns how many. */
  removeByLabels(labels: Record<string, string>): Promise<number>;
  /** Sandboxes whose labels include all of these (for `aar cleanup` to say what it removes). */
  listByLabels(labels: Record<string, string>): Promise<SandboxInfo[]>;
  /** Releases what the provider set up for a job (networks, relays); the job calls it at its end. */
  close?(): Promise<void>;
  /** Whether the engine behind the sandboxes answers now (within a few seconds; never throws). A job that sees
   * it not answering waits for it (harness/jobs/engine-wait.ts). */
  answers?(): Promise<boolean>;
  /** What `answers` asks, as the job's notes name it (default: the Docker engine). */
  readonly engineLabel?: string;
}
