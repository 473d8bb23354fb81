#!/usr/bin/env node
import { runCli } from './program.js';

// `aar ... | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

await runCli();
