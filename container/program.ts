/**
 * The entry of a built-in program that runs in trial containers (the oracles, the random baselines, the
 * WikiRace players): each bundle exports `main` and is started either as a process of its own
 * (`node FILE ARGS`, in any sandbox) or, in a self-contained trial, loaded by the trial runner into its own
 * process (./in-process.ts), so a built-in agent's trial starts one Node process, not two.
 */

/**
 * Where the base image keeps the built-in programs' bundles (dist/agents/NAME.cjs), with Node's compile
 * cache made for them at the image's build (images/base/Dockerfile): a trial runs `node PROGRAMS_DIR/NAME.cjs`,
 * and nothing of the program goes over the gateway with the work.
 */
export const PROGRAMS_DIR = '/usr/local/lib/aar/agents';
export const programPath = (bundle: string): string => `${PROGRAMS_DIR}/${bundle}`;

/** A program's work: its arguments in, its exit status out. */
export type ProgramMain = (argv: string[]) => Promise<number>;

/** Set on globalThis by the trial runner while it loads a program to call its `main` itself. */
export const LOADING_IN_PROCESS = '__aarLoadingInProcess';

/** Runs `main` as the process's own work, unless the trial runner is loading the bundle (then it calls `main`). */
export function startUnlessLoaded(main: ProgramMain): void {
  if ((globalThis as Record<string, unknown>)[LOADING_IN_PROCESS]) return;
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: Error) => {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
    },
  );
}
