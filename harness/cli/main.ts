#!/usr/bin/env node
import { jobsRunning } from '../jobs/running.js';
import { maskTerminalOutput } from './masked-output.js';
import { runCli } from './program.js';

maskTerminalOutput();

/**
 * A reader that went away (`aar ... | head`, or a pipe's reader that got the same Ctrl-C) is not an error.
 * With no job running there is nothing left to say: exit with the status decided so far (0 unless set). A
 * running job goes on (or stops, on SIGINT) and cleans up as it would, its output dropped: exiting here
 * would leave its containers, its lock and its half-written trials behind.
 */
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (jobsRunning()) return;
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

await runCli();
