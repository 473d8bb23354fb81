import type { Command } from 'commander';

/** Where `aar view` looks with no folder: the jobs folder a job config writes to by default (`output: jobs`). */
const DEFAULT_JOBS_DIR = 'jobs';

export function registerViewCommand(program: Command): void {
  program
    .command('view')
    .argument('[dirs...]', `job folders (jobs/<job>; agents of several jobs are named job:agent), or one folder of jobs (default: ${DEFAULT_JOBS_DIR})`)
    .description('serve the HTML report of jobs, or the list of a folder of jobs, on 127.0.0.1 and print its URL (Ctrl-C stops it)')
    .option('--port <n>', 'the port to listen on (default: any free one)')
    .action(async (dirs: string[], flags: { port?: string }) => {
      const port = Number(flags.port ?? 0);
      if (!(Number.isInteger(port) && port >= 0 && port < 65536)) throw new Error(`--port: expected a port number, got ${flags.port}`);
      const { serveJobs, serveReport } = await import('../../../verifier/html/serve.js');
      const { isJobFolder, TRIAL_FILES } = await import('../../../trial/folder.js');
      const { existsSync } = await import('node:fs');
      const path = await import('node:path');
      const folders = dirs.length ? dirs : [DEFAULT_JOBS_DIR];
      // One folder that is neither a job nor a trial's folder is a folder of jobs (refused when it holds none).
      const one = folders.length === 1 ? folders[0] : null;
      const asList = one !== null && (!dirs.length || (existsSync(one) && !isJobFolder(one) && !existsSync(path.join(one, TRIAL_FILES.record))));
      const server = asList ? await serveJobs(folders[0], { port }) : await serveReport(folders, { port });
      process.stdout.write(`serving ${asList ? `the jobs in ${folders[0]}` : `the report of ${folders.join(', ')}`} at ${server.url}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => void server.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
