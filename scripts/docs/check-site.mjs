// `npm run docs:check [SITE]`: every link and image of the built docs site (default site/) resolves, anchors
// included; links that leave the site are listed, never fetched. Exit 1 on a broken one.
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LinkChecker } from 'linkinator';

const TYPES = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.png': 'image/png', '.svg': 'image/svg+xml', '.js': 'text/javascript' };

/** The site's files over HTTP on 127.0.0.1 and a free port (linkinator's own server listens on every interface). */
async function serve(root) {
  const server = http.createServer(async (request, response) => {
    const file = path.join(root, decodeURIComponent(new URL(request.url, 'http://x').pathname));
    const inside = file.startsWith(root + path.sep) || file === root;
    const target = inside && (await stat(file).catch(() => null))?.isDirectory() ? path.join(file, 'index.html') : file;
    const body = inside ? await readFile(target).catch(() => null) : null;
    response.writeHead(body ? 200 : 404, { 'content-type': TYPES[path.extname(target)] ?? 'application/octet-stream' });
    response.end(body ?? 'not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

// linkinator sends every request through these when set, loopback too; this check talks to its own server only.
const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];

/**
 * Checks a built site folder: `{ fetched, anchors, broken, external }`: the pages and files fetched, the
 * links with a #fragment among them (each checked against its page's ids), the broken ones as
 * `URL (on PAGE): why` lines, and the links that leave the site.
 */
export async function checkSite(folder) {
  const root = path.resolve(folder);
  const server = await serve(root);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const external = new Set();
  const proxies = PROXY_VARIABLES.map((name) => [name, process.env[name]]);
  for (const name of PROXY_VARIABLES) delete process.env[name];
  try {
    const result = await new LinkChecker().check({
      path: base,
      recurse: true,
      checkFragments: true,
      concurrency: 8,
      timeout: 10_000,
      linksToSkip: async (link) => !link.startsWith(base) && !!external.add(link),
    });
    // The site's pages, `/` being `/index.html`; a broken link is named with the pages that hold it.
    const local = (url) => url.replace(base, '/').replace(/\/(#|$)/, '/index.html$1');
    const fetched = [...new Set(result.links.filter((l) => l.state !== 'SKIPPED' && !l.url.includes('#')).map((l) => local(l.url)))];
    const pages = await linksOnPages(root, fetched.filter((u) => u.endsWith('.html') && existsSync(path.join(root, u))));
    const holding = (url) => {
      const on = [...pages].filter(([, links]) => links.includes(url)).map(([page]) => page).sort();
      return on.length > 3 ? `${on.slice(0, 3).join(', ')} and ${on.length - 3} more` : on.join(', ');
    };
    const broken = new Map();
    for (const l of result.links.filter((l) => l.state === 'BROKEN')) {
      const url = local(l.url);
      const why = l.failureDetails?.map((d) => d.message ?? d.status).find(Boolean) ?? `status ${l.status}`;
      broken.set(url, `${url} (on ${holding(url) || local(l.parent ?? '') || '?'}): ${why}`);
    }
    const anchors = [...pages.values()].flat().filter((url) => url.includes('#')).length;
    return { fetched: fetched.length, anchors, broken: [...broken.values()].sort(), external: [...external].sort() };
  } finally {
    for (const [name, value] of proxies) if (value !== undefined) process.env[name] = value;
    server.closeAllConnections();
    server.close();
  }
}

/** Each page's local links and images, as site paths (`/reference/config.html#tasks`). */
async function linksOnPages(root, pages) {
  const out = new Map();
  for (const page of pages) {
    const html = await readFile(path.join(root, page), 'utf8');
    const links = [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)]
      .map(([, href]) => new URL(href.replace(/&amp;/g, '&'), `http://site${page}`))
      .filter((url) => url.host === 'site')
      .map((url) => decodeURI(url.pathname).replace(/\/$/, '/index.html') + url.hash);
    out.set(page, links);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2] ?? 'site';
  const { fetched, anchors, broken, external } = await checkSite(folder);
  if (external.length) console.log(`${external.length} links leave the site (listed, not fetched):\n  ${external.join('\n  ')}`);
  console.log(`${folder}: ${fetched} pages and files fetched, ${anchors} links to #anchors on them checked, ${broken.length} broken`);
  if (broken.length) {
    console.error(broken.join('\n'));
    process.exitCode = 1;
  }
}
