import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { TRIAL_FILES } from '../../trial/folder.js';
import { buildHtmlReport, requireJobFolder, type HtmlReportOptions } from './build.js';
import { jobFoldersIn, renderJobList, requireJobsFolder, summarizeJob } from './job-list.js';
import { rawFileIn } from './raw-files.js';

export interface ReportServer {
  url: string;
  close(): Promise<void>;
}

/** Changes when a trial folder appears in (or leaves) a job: a finished trial is renamed into place. */
function jobsVersion(jobDirs: readonly string[]): string {
  return jobDirs.map((d) => `${statSync(d).mtimeMs}:${readdirSync(d).length}`).join('|');
}

/** A page built again only when its folders changed since it was last built. */
function cachedPage(version: () => string, build: () => Promise<string>): { get(): Promise<string>; drop(): void } {
  let cached: { version: string; html: Promise<string> } | null = null;
  return {
    get() {
      const v = version();
      if (!cached || cached.version !== v) cached = { version: v, html: build() };
      return cached.html;
    },
    drop: () => void (cached = null),
  };
}

const TEXT = { 'content-type': 'text/plain; charset=utf-8' };
/** Raw files are the container's text: shown as plain text, never sniffed, and sandboxed should a browser render them anyway. */
const RAW_HEADERS = { ...TEXT, 'x-content-type-options': 'nosniff', 'content-security-policy': "sandbox; default-src 'none'", 'cache-control': 'no-store' };

function sendPage(res: ServerResponse, page: { get(): Promise<string>; drop(): void }): void {
  // Through a promise, so a job folder that went away is an answer (500), not a thrown handler.
  Promise.resolve().then(page.get).then(
    (html) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }).end(html),
    (error: Error) => {
      page.drop();
      res.writeHead(500, TEXT).end(`could not build the report: ${error.message}\n`);
    },
  );
}

/** A file of a trial folder: `<trial id>/<path>`; with several jobs the id is `job:trial` as the report names them. */
function sendRaw(res: ServerResponse, jobDirs: readonly string[], rest: string): void {
  const slash = rest.indexOf('/');
  const id = decodeURIComponent(rest.slice(0, slash));
  const relPath = rest.slice(slash + 1).split('/').map(decodeURIComponent).join('/');
  let jobDir: string | undefined = jobDirs[0];
  let trial = id;
  if (jobDirs.length > 1) {
    const colon = id.indexOf(':');
    jobDir = jobDirs.find((d) => path.basename(path.resolve(d)) === id.slice(0, colon));
    trial = id.slice(colon + 1);
  }
  const trialDir = jobDir && slash > 0 && trial && !/[/\\]/.test(trial) && !trial.startsWith('.') ? path.join(jobDir, trial) : null;
  const file = trialDir && existsSync(path.join(trialDir, TRIAL_FILES.record)) ? rawFileIn(trialDir, relPath) : null;
  if (!file) {
    res.writeHead(404, TEXT).end('not found\n');
    return;
  }
  res.writeHead(200, { ...RAW_HEADERS, 'content-length': statSync(file).size });
  createReadStream(file).pipe(res);
}

/** The report of `jobDirs` at `/`, and their trials' files at `/raw/<trial>/<path>`; `prefix` is where it is mounted. */
function reportRoutes(jobDirs: readonly string[], options: HtmlReportOptions) {
  const page = cachedPage(() => jobsVersion(jobDirs), () => buildHtmlReport(jobDirs, options));
  return (res: ServerResponse, rest: string): void => {
    if (rest === '' || rest === 'index.html') sendPage(res, page);
    else if (rest.startsWith('raw/')) sendRaw(res, jobDirs, rest.slice('raw/'.length));
    else res.writeHead(404, TEXT).end('not found\n');
  };
}

type Handler = (res: ServerResponse, rest: string) => void;

async function listen(handler: Handler, port: number | undefined): Promise<ReportServer> {
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET') return void res.writeHead(405, TEXT).end('only GET\n');
    if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
    try {
      handler(res, url.pathname.slice(1));
    } catch (error) {
      if (!res.headersSent) res.writeHead(400, TEXT).end(`bad request: ${(error as Error).message}\n`);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // browsers keep connections open; closing must not wait for them
      }),
  };
}

/**
 * `aar view JOB...`: serves the HTML report of the jobs on 127.0.0.1 (loopback only). The page is rebuilt when
 * a job gained or lost trials since the last request, so reloading follows a running job.
 */
export async function serveReport(jobDirs: readonly string[], options: HtmlReportOptions & { port?: number } = {}): Promise<ReportServer> {
  if (!jobDirs.length) throw new Error('no job folder given');
  jobDirs.forEach(requireJobFolder);
  return listen(reportRoutes(jobDirs, options), options.port);
}

/**
 * `aar view` on a folder of jobs: the list of its jobs at `/` (found again when the folder changes), each
 * job's report at `/job/<name>/` and its trials' files below it.
 */
export async function serveJobs(root: string, options: HtmlReportOptions & { port?: number } = {}): Promise<ReportServer> {
  requireJobsFolder(root);
  const jobs = (): string[] => jobFoldersIn(root) ?? [];
  const list = cachedPage(() => jobsVersion([root, ...jobs()]), async () => renderJobList(root, await Promise.all(jobs().map(summarizeJob))));
  const reports = new Map<string, Handler>();
  return listen((res, rest) => {
    if (rest === '' || rest === 'index.html') return sendPage(res, list);
    const m = /^job\/([^/]+)(\/(.*))?$/.exec(rest);
    const name = m ? decodeURIComponent(m[1]) : '';
    const dir = jobs().find((d) => path.basename(d) === name);
    if (!m || !dir) return void res.writeHead(404, TEXT).end('not found\n');
    if (m[2] === undefined) return void res.writeHead(301, { location: `/job/${m[1]}/` }).end();
    let routes = reports.get(dir);
    if (!routes) reports.set(dir, (routes = reportRoutes([dir], options)));
    routes(res, m[3]);
  }, options.port);
}
