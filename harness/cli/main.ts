#!/usr/bin/env node
import { maskTerminalOutput } from './masked-output.js';
import { runCli } from './program.js';

maskTerminalOutput();

// `aar ... | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

await runCli();
