import type { Command } from 'commander';

export function registerViewCommand(program: Command): void {
  program
    .command('view')
    .argument('<job-dirs...>', 'one or more job folders (jobs/<job>); agents of several jobs are named job:agent')
    .description('serve the HTML report of jobs on 127.0.0.1 and print its URL (Ctrl-C stops it)')
    .option('--port <n>', 'the port to listen on (default: any free one)')
    .action(async (jobDirs: string[], flags: { port?: string }) => {
      const port = Number(flags.port ?? 0);
      if (!(Number.isInteger(port) && port >= 0 && port < 65536)) throw new Error(`--port: expected a port number, got ${flags.port}`);
      const { serveReport } = await import('../../../verifier/html/serve.js');
      const server = await serveReport(jobDirs, { port });
      process.stdout.write(`serving the report of ${jobDirs.join(', ')} at ${server.url}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => void server.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
