import { readdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildHtmlReport, requireJobFolder, type HtmlReportOptions } from './build.js';

export interface ReportServer {
  url: string;
  close(): Promise<void>;
}

/** Changes when a trial folder appears in (or leaves) a job: a finished trial is renamed into place. */
function jobsVersion(jobDirs: readonly string[]): string {
  return jobDirs.map((d) => `${statSync(d).mtimeMs}:${readdirSync(d).length}`).join('|');
}

/**
 * `aar view`: serves the HTML report of the jobs on 127.0.0.1 (loopback only). The page is rebuilt when a
 * job gained or lost trials since the last request, so reloading follows a running job.
 */
export async function serveReport(jobDirs: readonly string[], options: HtmlReportOptions & { port?: number } = {}): Promise<ReportServer> {
  if (!jobDirs.length) throw new Error('no job folder given');
  jobDirs.forEach(requireJobFolder);
  let cached: { version: string; html: Promise<string> } | null = null;
  const page = (): Promise<string> => {
    const version = jobsVersion(jobDirs);
    if (!cached || cached.version !== version) cached = { version, html: buildHtmlReport(jobDirs, options) };
    return cached.html;
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' || (url.pathname !== '/' && url.pathname !== '/index.html')) {
      res.writeHead(url.pathname === '/favicon.ico' ? 204 : 404, { 'content-type': 'text/plain' }).end(url.pathname === '/favicon.ico' ? '' : 'not found\n');
      return;
    }
    // Through a promise, so a job folder that went away is an answer (500), not a thrown handler.
    Promise.resolve().then(page).then(
      (html) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html),
      (error: Error) => {
        cached = null;
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`could not build the report: ${error.message}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // browsers keep connections open; closing must not wait for them
      }),
  };
}
