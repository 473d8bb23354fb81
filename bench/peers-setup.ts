/**
 * bench:peers's set-up: a throwaway Python virtual environment with Harbor and Inspect AI from PyPI, and the
 * same trivial task for each of the three (write one file, score it), written the way each one's docs say:
 * a Harbor task folder (task.toml, instruction.md, environment/Dockerfile, solution/solve.sh, tests/test.sh)
 * run by Harbor's `oracle` agent in its `docker` environment; an Inspect task (a solver that writes the
 * file in the sandbox, a scorer that reads it) with a `docker` sandbox from a compose.yaml; an aar job
 * whose `command` agent writes the leg's passcode to /app/answer.txt, scored by the AAR family.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { stringify } from 'yaml';

/** The image every peer's container runs (built by `aar images build`; no registry is reached). */
export const PEER_IMAGE = 'aar-debian:bookworm';
/** In every peer's project and task names, so their containers can be told from others on the engine. */
export const MARK = 'h27peer';

/** A virtual environment with both peers installed (`venv` given: used as it is); their versions. */
export async function peerVenv(tmp: string, python: string, venv?: string): Promise<{ bin: string; versions: Record<string, string> }> {
  const dir = venv ?? path.join(tmp, 'venv');
  if (!venv) {
    await execa(python, ['-m', 'venv', dir]);
    await execa(path.join(dir, 'bin', 'pip'), ['install', '--quiet', 'harbor', 'inspect-ai'], { stdio: 'inherit' });
  }
  const bin = path.join(dir, 'bin');
  const versions: Record<string, string> = {};
  for (const pkg of ['harbor', 'inspect-ai']) {
    const shown = await execa(path.join(bin, 'pip'), ['show', pkg], { reject: false });
    versions[pkg] = /^Version: (.+)$/m.exec(shown.stdout)?.[1] ?? 'not installed';
  }
  versions.python = (await execa(path.join(bin, 'python'), ['--version'])).stdout.replace('Python ', '');
  return { bin, versions };
}

const ANSWER = '7';

/** Harbor's task folder (as `harbor init --task` lays it out), on the local image as its prebuilt
 * `docker_image` (the Dockerfile beside it, FROM that image, is used only with --force-build). */
export function harborTask(dir: string): string {
  const task = path.join(dir, `${MARK}-write-one-file`);
  mkdirSync(path.join(task, 'environment'), { recursive: true });
  mkdirSync(path.join(task, 'solution'), { recursive: true });
  mkdirSync(path.join(task, 'tests'), { recursive: true });
  writeFileSync(
    path.join(task, 'task.toml'),
    [
      'schema_version = "1.4"',
      '[task]',
      `name = "${MARK}/write-one-file"`,
      'version = "1.0.0"',
      '[verifier]',
      'timeout_sec = 120.0',
      'environment_mode = "shared"',
      '[agent]',
      'timeout_sec = 120.0',
      '[environment]',
      // Harbor's docker environment refuses "no-network" unless its egress-control sidecar runs; its default it is.
      'network_mode = "public"',
      `docker_image = "${PEER_IMAGE}"`,
      'build_timeout_sec = 600.0',
      '',
    ].join('\n'),
  );
  writeFileSync(path.join(task, 'instruction.md'), `Write ${ANSWER} to /app/answer.txt.\n`);
  writeFileSync(path.join(task, 'environment', 'Dockerfile'), `FROM ${PEER_IMAGE}\nWORKDIR /app\n`);
  writeFileSync(path.join(task, 'solution', 'solve.sh'), `#!/bin/bash\nmkdir -p /app && printf ${ANSWER} > /app/answer.txt\n`, { mode: 0o755 });
  writeFileSync(
    path.join(task, 'tests', 'test.sh'),
    `#!/bin/bash\nmkdir -p /logs/verifier\nif [ "$(cat /app/answer.txt 2>/dev/null)" = "${ANSWER}" ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi\n`,
    { mode: 0o755 },
  );
  return task;
}

/** Inspect's task file and its compose.yaml (the image local: nothing pulled), no network. */
export function inspectTask(dir: string, samples: number): string {
  const folder = path.join(dir, `${MARK}_inspect`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    path.join(folder, 'compose.yaml'),
    stringify({ services: { default: { image: PEER_IMAGE, 'x-local': true, command: 'tail -f /dev/null', init: true, network_mode: 'none', working_dir: '/app' } } }),
  );
  const file = path.join(folder, `${MARK}_task.py`);
  writeFileSync(
    file,
    `from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import Score, Target, accuracy, scorer
from inspect_ai.solver import Generate, TaskState, solver
from inspect_ai.util import sandbox


@solver
def write_one_file():
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        await sandbox().exec(["sh", "-c", "mkdir -p /app && printf ${ANSWER} > /app/answer.txt"])
        return state
    return solve


@scorer(metrics=[accuracy()])
def read_the_file():
    async def score(state: TaskState, target: Target) -> Score:
        text = await sandbox().read_file("/app/answer.txt")
        return Score(value=1 if text.strip() == target.text else 0)
    return score


@task
def ${MARK}_write_one_file():
    return Task(
        dataset=[Sample(id=i, input="Write ${ANSWER} to /app/answer.txt.", target="${ANSWER}") for i in range(${samples})],
        solver=write_one_file(),
        scorer=read_the_file(),
        sandbox=("docker", "compose.yaml"),
    )
`,
  );
  return file;
}

/**
 * Inspect's CLI with one change: its Docker Engine version check (>= 24.0.6) lowered to 20.10.0, for an
 * engine older than it asks (reported beside the run as documented, never instead of it).
 */
export function inspectWithEngineCheckLowered(dir: string): string {
  const file = path.join(dir, 'inspect_engine_check_lowered.py');
  writeFileSync(
    file,
    `import sys
import inspect_ai.util._sandbox.docker.prereqs as prereqs
prereqs.validate_docker_engine.__defaults__ = ("20.10.0",)
from inspect_ai._cli.main import main
sys.argv[0] = "inspect"
sys.exit(main())
`,
  );
  return file;
}

/** Our job: the `command` agent writes the leg's passcode, `attempts` times on one leg (`dataDir`: its file or a folder), concurrency as given. */
export function ourJob(dir: string, name: string, o: { dataDir: string; passcode: string; attempts: number; concurrency: number; store: string }): string {
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    stringify({
      name,
      output: path.join(dir, 'jobs'),
      tasks: { path: o.dataDir, sample: { n: 1, seed: 1 } },
      agents: [{ name: 'command', id: `${MARK}-write-one-file`, options: { command: `printf %s '${o.passcode}' > /app/answer.txt` } }],
      attempts: o.attempts,
      // The agent calls no tool; a replay store keeps the job from asking for the live services' keys.
      tools: { mode: 'replay', store: o.store },
      concurrency: o.concurrency,
      resources: { memory_mb: 1024, cpus: 1, pids: 512 },
    }),
  );
  return file;
}
